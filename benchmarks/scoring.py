"""The import benchmark's scoring script: one tool scores a seeded synthetic TREC-style run, in a process of its own.

`python benchmarks/scoring.py TOOL N_QUERIES SEED OUT` makes the run (N_QUERIES queries, 100 results each, scores
falling with the rank) and its qrels (1 to 5 relevant documents per query, most of them retrieved, near the top more
often), then TOOL computes MRR@10, nDCG@10 and recall@100 of every query, and the script writes the means and its own
timings (making the data, importing the tool, scoring) and peak memory to OUT as JSON. Only the standard library is imported before
the tool is, so the process's memory and time are the tool's. Every tool reads the same dictionaries, the format
pytrec_eval and ranx take: {query: {document: score}} and {query: {document: relevance}}."""
import json, random, re, sys, time

DEPTH = 100          # results per query
COLLECTION = 10 ** 6  # document ids are drawn from this many; unretrieved relevant ones from the next million


def synthetic(n: int, seed: int = 0) -> tuple:
    "A run {query: {doc: score}} of `n` queries × `DEPTH` results and its qrels {query: {doc: 1}}, made from `seed`."
    rnd, run, qrels = random.Random(seed), {}, {}
    for q in range(n):
        ids = [f'd{x}' for x in rnd.sample(range(COLLECTION), DEPTH)]
        rel = {ids[min(DEPTH - 1, int(rnd.expovariate(0.1)))] if rnd.random() < 0.8 else f'd{rnd.randrange(COLLECTION, 2 * COLLECTION)}'
               for _ in range(rnd.randint(1, 5))}
        run[f'q{q}'] = {d: float(DEPTH - r) for r, d in enumerate(ids)}
        qrels[f'q{q}'] = dict.fromkeys(sorted(rel), 1)
    return run, qrels


def best_first(scores: dict) -> list:
    "A query's documents by falling score."
    return sorted(scores, key=scores.__getitem__, reverse=True)


def relevant(judged: dict) -> frozenset:
    return frozenset(d for d, r in judged.items() if r > 0)


def lb_functions(run, qrels) -> tuple:
    "litebench's one-query functions (`mrr_at`, `ndcg_at`, `recall_at`) on each query's match sets."
    t0 = time.perf_counter()
    from litebench import mrr_at, ndcg_at, recall_at
    t1 = time.perf_counter()
    rr = nd = rc = 0.0
    for q, scores in run.items():
        gold = relevant(qrels[q])
        ms = [{d} if d in gold else set() for d in best_first(scores)]
        rr += mrr_at(ms, 10); nd += ndcg_at(ms, gold, 10); rc += recall_at(ms, gold, DEPTH)
    n = len(run)
    return t1 - t0, time.perf_counter() - t1, dict(mrr10=rr / n, ndcg10=nd / n, recall100=rc / n)


def lb_arrays(run, qrels) -> tuple:
    "litebench's whole-run path: `gains_of` reads the ranked ids once, `metrics_at` computes the metrics as arrays."
    t0 = time.perf_counter()
    import numpy                                           # what `gains_of` imports on its first call
    from litebench.metrics import gains_of, metrics_at
    t1 = time.perf_counter()
    qs = list(run)
    G, n = gains_of([best_first(run[q]) for q in qs], [relevant(qrels[q]) for q in qs], DEPTH)
    m10, m100 = metrics_at(G, n, 10), metrics_at(G, n, DEPTH)
    out = dict(mrr10=float(m10['mrr'].mean()), ndcg10=float(m10['ndcg'].mean()), recall100=float(m100['recall'].mean()))
    return t1 - t0, time.perf_counter() - t1, out


def trec(run, qrels) -> tuple:
    "pytrec_eval (trec_eval in C): nDCG@10 and recall@100 in one pass; trec_eval's reciprocal rank has no cut, so RR@10 is read from the run cut to 10."
    t0 = time.perf_counter()
    import pytrec_eval
    t1 = time.perf_counter()
    res = pytrec_eval.RelevanceEvaluator(qrels, {'ndcg_cut.10', 'recall.100'}).evaluate(run)
    top10 = {q: dict(sorted(s.items(), key=lambda x: x[1], reverse=True)[:10]) for q, s in run.items()}
    rr = pytrec_eval.RelevanceEvaluator(qrels, {'recip_rank'}).evaluate(top10)
    n = len(res)
    out = dict(mrr10=sum(r['recip_rank'] for r in rr.values()) / n, ndcg10=sum(r['ndcg_cut_10'] for r in res.values()) / n,
               recall100=sum(r['recall_100'] for r in res.values()) / n)
    return t1 - t0, time.perf_counter() - t1, out


def ranx_(run, qrels) -> tuple:
    "ranx (numba): `evaluate` of mrr@10, ndcg@10 and recall@100 on `Qrels` and `Run` made from the dictionaries."
    t0 = time.perf_counter()
    from ranx import Qrels, Run, evaluate
    t1 = time.perf_counter()
    m = evaluate(Qrels(qrels), Run(run), ['mrr@10', 'ndcg@10', 'recall@100'])
    return t1 - t0, time.perf_counter() - t1, dict(mrr10=float(m['mrr@10']), ndcg10=float(m['ndcg@10']), recall100=float(m['recall@100']))


TOOLS = {'data only': None, 'litebench, one query at a time': lb_functions, 'litebench, whole run as arrays': lb_arrays,
         'pytrec_eval': trec, 'ranx': ranx_}
MODULE = {'pytrec_eval': 'pytrec_eval', 'ranx': 'ranx'}   # the comparators, by the module each needs


def peak_mib() -> float:
    "This process's peak resident memory so far (`VmHWM`, Linux), in MiB."
    return int(re.search(r'VmHWM:\s+(\d+)', open('/proc/self/status').read())[1]) / 1024


def main(tool: str, n: int, seed: int, out: str):
    t0 = time.perf_counter()
    run, qrels = synthetic(n, seed)
    data_s = time.perf_counter() - t0
    import_s, score_s, means = TOOLS[tool](run, qrels) if TOOLS[tool] else (0.0, 0.0, {})
    lb = sys.modules.get('litebench')
    json.dump(dict(data_s=data_s, import_s=import_s, score_s=score_s, means=means, peak_mib=peak_mib(), litebench=getattr(lb, '__file__', None)), open(out, 'w'))


if __name__ == '__main__': main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
