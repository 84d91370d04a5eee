"""The factorial against the ladder (`python benchmarks/run.py factorial`): the question bench's wall time on the dev split over one
stack, with the store's leg cache on and off, and whether the factorial's rows are the same both ways."""
from __future__ import annotations
import statistics, tempfile, time

DESIGNS = {'ladder': 7, 'factorial': 128}   # configurations in each design


def _clear(stack):
    "Forget every leg the stack's stores keep, so each timed run starts as a fresh process would."
    for st in (stack.page, stack.flat, stack.tree):
        if st is not None: st.forget_legs()


def factorial_speed(pdfs, repeats: int, limit: int, encoder: str = 'lsa') -> dict:
    "Median wall seconds of each design with the cache on and off (runs rotated each repeat), the questions asked, and whether the rows agree."
    import litebench.store as S
    from litebench.systems import Stack
    from litebench.bench import run_bench
    from litebench.runs import read_run
    stack, out, keep = Stack(encoder, pdfs), tempfile.mkdtemp(prefix='factorial-runs-'), S.LEG_CACHE
    run_bench(split='dev', configs='ladder', stack=stack, out=out, limit=limit)            # warm-up, untimed: question vectors, snapshots
    runs = [(d, c) for d in DESIGNS for c in (True, False)]
    wall, rows = {r: [] for r in runs}, {}
    try:
        for i in range(repeats):
            for d, c in runs[i % len(runs):] + runs[:i % len(runs)]:
                S.LEG_CACHE = keep if c else 0; _clear(stack)
                t = time.perf_counter(); run = run_bench(split='dev', configs=d, stack=stack, out=out, limit=limit); wall[d, c].append(time.perf_counter() - t)
                if d == 'factorial': rows[c] = [{k: v for k, v in r.items() if k != 'ms'} for r in read_run(run)['rows']]
    finally: S.LEG_CACHE = keep
    return dict(encoder=encoder, repeats=repeats, questions=len({r['qid'] for r in rows[True]}), same_rows=rows[True] == rows[False],
                wall={f'{d}, cache {"on" if c else "off"}': statistics.median(v) for (d, c), v in wall.items()})


def factorial_report(r: dict) -> str:
    "The report: wall time per design and cache setting, the ratios, and whether the rows agree."
    w = lambda d, c: r['wall'][f'{d}, cache {c}']
    lines = [f"The question bench on the dev split ({r['questions']} questions, every configuration of each design, encoder {r['encoder']}), "
             f"median wall seconds over {r['repeats']} repeat{'s' if r['repeats'] != 1 else ''}, the runs rotated each repeat.", '',
             '| design | configurations | cache on (s) | cache off (s) | on / off |', '|---|---|---|---|---|']
    lines += [f"| {d} | {n} | {w(d, 'on'):.1f} | {w(d, 'off'):.1f} | {w(d, 'on') / w(d, 'off'):.2f} |" for d, n in DESIGNS.items()]
    lines += ['', f"Factorial / ladder: {w('factorial', 'on') / w('ladder', 'on'):.1f}× with the leg cache, {w('factorial', 'off') / w('ladder', 'off'):.1f}× without.",
              f"The factorial's rows with and without the cache are {'the same' if r['same_rows'] else 'NOT the same'} (every field but the time per question)."]
    return '\n'.join(lines)
