"The grading notebooks' shared fixture (21a_judging, 21b_agreement, 21_grading): a small bench run whose rows each cover one case (the table in 21a_judging), a stand-in judge model, and a person's labels of six nugget verdicts. Loaded with `runpy.run_path`."
import json, re
from pathlib import Path
import yaml
from litebench.core import Question, Gold
from litebench.runs import new_run, Rows, finish_run, write_questions

def item(rank, gold=()): return dict(rank=rank, file='vat.pdf', pages=[1, 1], path=[], snippet='…', gold=list(gold), doc=[0] if gold else [])
def answer(text, cites=(), context=(1,), conf=0.5): return dict(generator='extractive', text=text, citations=list(cites), context=list(context), confidence=conf, abstained=not text, key=None, model=None)
def row(q, system, items, ans=None, error=None):
    r = dict(qid=q.id, system=system, suite=q.suite, tier=q.tier, split=q.split, answerable=q.answerable, items=items, metrics={})
    return r | ({'answer': ans} if ans is not None else {}) | ({'error': error} if error else {})

G = (Gold(file='vat.pdf'),)
Q = {q.id: q for q in [Question('q1', 'What is the minimum standard rate?', 'lexical', gold=G, nuggets=('15 %', 'standard rate')),
                       Question('q2', 'When must an invoice be issued?', 'lexical', gold=G, nuggets=('30 days', 'the supplier')),
                       Question('q3', 'What is the VAT rate on the moon?', 'paraphrase', answerable=False),
                       Question('q4', 'What is the rate on books?', 'paraphrase', gold=G, nuggets=('20 %',)),
                       Question('q5', 'What is the minimum rate?', 'paraphrase', gold=G, nuggets=('15 %',)),
                       Question('q6', 'Which rate applies to food?', 'paraphrase', gold=G, nuggets=('reduced rate',))]}
ROWS = [row(Q['q1'], 'tree', [item(1, [0]), item(2)], answer('The standard rate shall not be lower than 15 % of the taxable amount.', [1, 2], [1, 2], 0.9)),
        row(Q['q2'], 'tree', [item(1, [0])], answer('Within 3 days of the invoice date.', [1], [1], 0.8)),
        row(Q['q3'], 'tree', [item(1)], answer('', conf=0.2)),
        row(Q['q4'], 'tree', [item(1, [0])], {'error': 'ReplayMiss: no completion for the answer prompt 0123456789ab…'}),
        row(Q['q5'], 'tree', [item(1), item(2)], answer('It is 20 %.', [1], [1], 0.6)),
        row(Q['q6'], 'tree', [item(1), item(2, [0])], answer('', context=[1], conf=0.3)),
        row(Q['q1'], 'flat', [item(1, [0])], answer('A standard rate of at least 15 %.', [], [1], 0.7)),
        row(Q['q2'], 'flat', [], error='OperationalError: database is locked'),
        row(Q['q3'], 'flat', [item(1)], answer('The rate is 10 %.', [1], [1], 0.4))]

def fixture_run(root) -> Path:
    "A finished bench run folder under `root` holding the questions and rows above."
    run = new_run('bench', dict(systems=['tree', 'flat']), root=root)
    write_questions(run, Q.values())
    with Rows(run) as rows:
        for r in ROWS: rows.add(r)
    finish_run(run, summary={})
    return run

def stand_in(system, user):
    "Every nugget found; prose for the question about invoices."
    if 'invoice be issued' in user: return 'I think both are there.'
    return json.dumps({'found': [True] * len(re.findall(r'^\d+\. ', user.split('Nuggets')[1], re.M))})

# a person's labels of six of the matcher's verdicts, and one on an abstention (no verdict to meet)
LABELS = [dict(qid='q1', system='tree', nugget='15 %', found=True, by='owner'), dict(qid='q1', system='tree', nugget=2, found=True, by='owner'),
          dict(qid='q2', system='tree', nugget='30 days', found=True, by='owner'), dict(qid='q2', system='tree', nugget='The supplier', found=False, by='owner'),
          dict(qid='q5', system='tree', nugget='15 %', found=False, by='owner'), dict(qid='q1', system='flat', nugget='15 %', found=False, by='owner'),
          dict(qid='q6', system='tree', nugget='reduced rate', found=False, by='owner')]

def judged(root) -> tuple:
    ("The fixture run under `root`, judged by the matcher, recorded for and judged by the stand-in model, and its "
     "matcher agreed with `LABELS`: (run, the labels file, the model judge's folder).")
    from litebench.judging import judge_run
    from litebench.agreement import agree
    from litebench.replay import Replay, fill
    root = Path(root); run = fixture_run(root); judge_run(run)
    store = root / 'judge-store.jsonl'; judge_run(run, Replay(store, 'record')); fill(store, stand_in, 'stand-in')
    out = judge_run(run, Replay(store))
    labels = root / 'labels.yaml'; labels.write_text(yaml.safe_dump(LABELS, allow_unicode=True)); agree(labels, run)
    return run, labels, out
