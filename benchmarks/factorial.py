"""The factorial against the ladder (`python benchmarks/run.py factorial`): the question bench's wall time on the dev split over one
stack, with the store's leg cache on and off, and whether the factorial's rows are the same both ways."""
from __future__ import annotations
import os, statistics, tempfile, time

DESIGNS = {'ladder': 7, 'factorial': 128}   # configurations in each design


def _clear(stack):
    "Forget every leg the stack's stores keep, so each timed run starts as a fresh process would."
    for st in (stack.page, stack.flat, stack.tree):
        if st is not None: st.forget_legs()


def factorial_speed(pdfs, repeats: int, limit: int, encoder: str = 'lsa') -> dict:
    "Median wall seconds of each design with the cache on and off (runs rotated each repeat), the questions asked, and whether the rows agree."
    import litebench.legs as S   # where `LEG_CACHE` is read
    from litebench.systems import Stack
    from litebench.bench import run_bench
    from litebench.runs import read_run
    stack, out, keep = Stack(encoder, pdfs), tempfile.mkdtemp(prefix='factorial-runs-'), S.LEG_CACHE
    run_bench(split='dev', configs='ladder', stack=stack, out=out, limit=limit)            # warm-up, untimed: question vectors, snapshots
    runs = [(d, c) for d in DESIGNS for c in (True, False)]
    wall, cpu, rows, load = {r: [] for r in runs}, {r: [] for r in runs}, {}, [os.getloadavg()[0]]
    try:
        for i in range(repeats):
            for d, c in runs[i % len(runs):] + runs[:i % len(runs)]:
                S.LEG_CACHE = keep if c else 0; _clear(stack)
                t, p = time.perf_counter(), time.process_time()
                run = run_bench(split='dev', configs=d, stack=stack, out=out, limit=limit)
                wall[d, c].append(time.perf_counter() - t); cpu[d, c].append(time.process_time() - p)
                if d == 'factorial': rows[c] = [{k: v for k, v in r.items() if k != 'ms'} for r in read_run(run)['rows']]
    finally: S.LEG_CACHE = keep
    name = lambda d, c: f'{d}, cache {"on" if c else "off"}'
    return dict(encoder=encoder, repeats=repeats, questions=len({r['qid'] for r in rows[True]}), same_rows=rows[True] == rows[False],
                wall={name(*r): statistics.median(v) for r, v in wall.items()}, cpu={name(*r): statistics.median(v) for r, v in cpu.items()},
                cores=os.cpu_count(), load=load + [os.getloadavg()[0]])


def factorial_report(r: dict) -> str:
    "The report: wall time per design and cache setting, the ratios, and whether the rows agree."
    w, p = (lambda d, c: r['wall'][f'{d}, cache {c}']), (lambda d, c: r['cpu'][f'{d}, cache {c}'])
    lines = [f"The question bench on the dev split ({r['questions']} questions, every configuration of each design, encoder {r['encoder']}), "
             f"median wall seconds over {r['repeats']} repeat{'s' if r['repeats'] != 1 else ''}, the runs rotated each repeat, and the median CPU seconds of this process.", '',
             '| design | configurations | cache on (s) | cache off (s) | on / off | cache on, CPU (s) |', '|---|---|---|---|---|---|']
    lines += [f"| {d} | {n} | {w(d, 'on'):.1f} | {w(d, 'off'):.1f} | {w(d, 'on') / w(d, 'off'):.2f} | {p(d, 'on'):.1f} |" for d, n in DESIGNS.items()]
    lines += ['', f"Factorial / ladder: {w('factorial', 'on') / w('ladder', 'on'):.1f}× with the leg cache ({p('factorial', 'on') / p('ladder', 'on'):.1f}× in CPU seconds), "
                  f"{w('factorial', 'off') / w('ladder', 'off'):.1f}× without.",
              f"The factorial's rows with and without the cache are {'the same' if r['same_rows'] else 'NOT the same'} (every field but the time per question).", '',
              f"The machine: {r['cores']} cores, shared with other jobs; load average {r['load'][0]:.1f} when the runs began and {r['load'][1]:.1f} when they ended. "
              "Wall seconds grow with the load, the ladder's fixed costs (reading the questions, checking which gold each system can reach) as much as the factorial's, so the CPU ratio is the steadier one.", '',
              "What a run shares between its configurations, within each question: each distinct call to the stores (`Stack.remembering`), each distinct search of the tree "
              "(chunks, spans and sections over the same legs read one fusion), each leg (the store's leg cache, what the table switches), each distinct result list judged once "
              "and its items written from one encoding (`Rows.add(shared=...)`); for the whole run, each span located and each text hashed once; in the summary, each distinct "
              "set of per-question values gets its interval once."]
    return '\n'.join(lines)
