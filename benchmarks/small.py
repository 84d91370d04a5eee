"""The small-store benchmark: warm `doc_search` on the default corpus (1,449 chunks, LSA), the leg cache off, sides side by side.

`python benchmarks/small.py [--before REV] [--base REV] [--rounds N] [--queries N] [--out FILE]`

Three sides, each a litebench checkout run in fresh processes: 'before' (`--before`, default 91665e8: the code before saved
snapshots, whose warm `doc_search` was 0.53 ms p50), 'base' (`--base`, default f9678d8: the code this change starts
from, before the store's rooms) and 'after' (this checkout). Commits are unpacked with `git archive`; a checkout folder works too. Each side builds its own
tree store of the corpus once (its own LSA, 256 dimensions, seed 0, fitted on its own chunks) in its own folder; every timed
process then opens that store afresh (no encoder: the query vectors are given), sets `legs.LEG_CACHE = 0` (`store.LEG_CACHE` before the store's rooms), asks the warm-up
queries (distinct from the timed ones), then asks each timed query once: what a user's new query costs on a store in use.

- `time`: `doc_search` as shipped (each side's defaults) and, where the side has the fusion options, the doc eval's `tree`
  system (equal-weight RRF, no tiers); p50 per process, of the wall time and of the thread's CPU time (which the machine's
  other work does not add to); the processes of the sides alternate over `--rounds` rounds (the order rotating each round)
  and the report gives the median of each side's p50s, the ratios per round and the machine's load.
- `steps`: where a call's time goes, in a process per side in each round: each step's function wrapped (`perf_counter_ns`),
  each call's time given to the innermost step running (exclusive): the query's terms, the keyword leg without them, the query
  vector's check, the vector leg, the fusion, the hits' records, their nodes, spans, and the rest of `search` and `doc_search`.
- `same`: every hit of every timed query, in `doc_search` (defaults; the `tree` system; kw 'all'; no spans) and `sections`,
  on the base and after sides: chunk, node, rank, fused score, each leg's rank and raw score and the terms held, compared exactly."""
from __future__ import annotations
import argparse, itertools, statistics, sys, tempfile, time
from collections import Counter
from pathlib import Path
import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from latency import on_side, checkout, own_litebench, loadavg, described, git   # noqa: E402
from timing import leg_cache_off   # noqa: E402

BEFORE = '91665e8'   # the commit before saved snapshots (041e5bd): the scale benchmark's "before" column, 0.53 ms p50
CONFIGS = {'default': {}, 'tree': dict(fuse='rrf', held_first=None)}   # doc_search as shipped; the doc eval's `tree` system


def _has_fusion(TreeStore) -> bool:
    import inspect
    return 'held_first' in inspect.signature(TreeStore.doc_search).parameters


def _store(root: str, files: list, queries: list, folder: str):
    "The side's tree store in `folder` (built the first time, with its own LSA) and the query vectors; the leg cache off."
    own_litebench(root)
    from litebench.encode import LSA
    from litebench.pdf import pdf_pages
    from litebench.tree import build_tree, node_chunks
    from litebench.treestore import TreeStore
    path, qf = Path(folder) / 'tree.sqlite', Path(folder) / 'qvecs.npy'
    if not path.exists():
        docs = [pdf_pages(Path(f)) for f in files]
        lsa = LSA(dim=256, seed=0).fit([c.text for d in docs for c in node_chunks(d, build_tree(d))])
        s = TreeStore(path, lsa)
        for d in docs: s.add_doc(d)
        s.close(); np.save(qf, lsa.encode(queries))
    S = leg_cache_off()
    s = TreeStore(path); s.mem                                  # opened afresh; its snapshot read
    return s, np.load(qf), S


def build_side(root: str, files: list, queries: list, warm: list, folder: str) -> int:
    "The side's store built in `folder` (untimed), with the vectors of `warm` and `queries`: its chunks."
    s, qv, S = _store(root, files, warm + queries, folder)
    return len(s)


def time_side(root: str, files: list, queries: list, warm: list, folder: str, config: str) -> dict:
    "One process: the store opened, `warm` asked, then each of `queries` asked once with `CONFIGS[config]`: ms per query."
    load0 = loadavg()
    s, qv, S = _store(root, files, warm + queries, folder)
    kw = CONFIGS[config]
    for q, v in zip(warm, qv): s.doc_search(q, qvec=v, **kw)
    ms, cpu = [], []
    for q, v in zip(queries, qv[len(warm):]):
        t, c = time.perf_counter_ns(), time.thread_time_ns(); s.doc_search(q, qvec=v, **kw)
        cpu.append((time.thread_time_ns() - c) / 1e6); ms.append((time.perf_counter_ns() - t) / 1e6)
    return dict(ms=ms, cpu=cpu, chunks=len(s), load=(load0, loadavg()))


class Steps:
    "Each wrapped function's exclusive nanoseconds: a call's time goes to the innermost wrapped step running."
    def __init__(self): self.ns, self.stack = Counter(), []
    def wrap(self, name: str, f):
        def g(*a, **k):
            t0 = time.perf_counter_ns(); self.stack.append(0)
            try: return f(*a, **k)
            finally:
                dt = time.perf_counter_ns() - t0; inner = self.stack.pop(); self.ns[name] += dt - inner
                if self.stack: self.stack[-1] += dt
        return g


STEPS = [('rest of doc_search (grouping, hits)', 'litebench.treestore', 'TreeStore.doc_search'), ('rest of search (legs kept, hits made)', 'litebench.store', 'FlatStore.search'),
         ('arguments checked', 'litebench.store', '_search_args'), ('version read', 'litebench.store', 'FlatStore._meta'),
         ('query terms', 'litebench.legs|litebench.store', '_terms'), ('keyword leg (without its terms)', 'litebench.store', 'FlatStore._keyword'),
         ('query vector checked', 'litebench.store', 'FlatStore._qvec'), ('vector leg', 'litebench.store', 'FlatStore._vector'),
         ('fusion', 'litebench.store', 'rrf'), ('fusion', 'litebench.store', 'minmax'), ('fusion', 'litebench.store', 'tier_by_held'),
         ('records read', 'litebench.snapshot|litebench.store', 'Rows.fetch'),
         ('records read', 'litebench.snapshot|litebench.store', 'read_chunks'),
         ('positions', 'litebench.snapshot|litebench.store', 'Snapshot.pos_of'),
         ('nodes read', 'litebench.treestore', 'TreeSnapshot.nodes_of'), ('spans', 'litebench.treestore', '_span')]


def steps_side(root: str, files: list, queries: list, warm: list, folder: str, config: str) -> dict:
    "One process as `time_side`, each step of `STEPS` wrapped: per query, each step's exclusive ms and the whole call's."
    import importlib, importlib.util
    s, qv, S = _store(root, files, warm + queries, folder)
    st, kw = Steps(), CONFIGS[config]
    for name, mods, attr in STEPS:   # 'a|b': the first module that has it (the store's rooms, else the store itself)
        *up, a = attr.split('.')
        for mod in mods.split('|'):
            here = Path(importlib.import_module('litebench').__file__).parent / f"{mod.split('.')[-1]}.py"
            if not here.exists(): continue
            owner = importlib.import_module(mod)
            for u in up: owner = getattr(owner, u, None)
            if owner is not None and getattr(owner, a, None) is not None:
                setattr(owner, a, st.wrap(name, getattr(owner, a))); break
    for q, v in zip(warm, qv): s.doc_search(q, qvec=v, **kw)
    per, load0 = [], loadavg()
    for q, v in zip(queries, qv[len(warm):]):
        before = Counter(st.ns); t = time.perf_counter_ns(); s.doc_search(q, qvec=v, **kw); total = time.perf_counter_ns() - t
        per.append(dict({k: (st.ns[k] - before[k]) / 1e6 for k in st.ns}, total=total / 1e6))
    return dict(per=per, load=(load0, loadavg()))


def _hit(h) -> tuple:
    c, n = h.chunk, getattr(h, 'node', None)
    return (c.doc, c.start, c.end, c.node, tuple(c.pages), c.text, tuple(c.path), n and (n.id, n.title, n.span), h.rank, h.score,
            h.kw_rank, h.vec_rank, getattr(h, 'kw_score', None), getattr(h, 'vec_score', None), getattr(h, 'kw_held', None))


def same_side(root: str, files: list, queries: list, warm: list, folder: str) -> dict:
    "Every hit of every query in `doc_search` (defaults, the `tree` system, kw 'all', no spans) and `sections`, as tuples."
    s, qv, S = _store(root, files, warm + queries, folder)
    from litebench.treestore import TreeStore
    calls = {'doc_search': lambda q, v: [_hit(h) for h in s.doc_search(q, qvec=v)],
             'kw all': lambda q, v: [_hit(h) for h in s.doc_search(q, qvec=v, kw='all')],
             'no spans': lambda q, v: [_hit(h) for h in s.doc_search(q, qvec=v, spans=False)],
             'sections': lambda q, v: [(x.node.id, x.rank, x.score, [_hit(h) for h in x.hits]) for x in s.sections(q, qvec=v)]}
    if _has_fusion(TreeStore): calls['tree'] = lambda q, v: [_hit(h) for h in s.doc_search(q, qvec=v, **CONFIGS['tree'])]
    qs = list(zip(queries, qv[len(warm):]))
    return dict(vectors=float(np.asarray(s.mem.C, np.float64).sum()), hits={k: [f(q, v) for q, v in qs] for k, f in calls.items()})


def queries_of(files, n: int, seed: int) -> list:
    "`n` verbatim sentences of the corpus and their short variants (the latency and store benchmarks' queries)."
    from litebench.pdf import pdf_pages
    from litebench.tree import build_tree, node_chunks
    from stores import bench_queries
    docs = [pdf_pages(f) for f in files]
    return bench_queries(docs, [c.text for d in docs for c in node_chunks(d, build_tree(d))], n, seed)


def small_speed(files, sides: dict, rounds: int = 5, n_queries: int = 150, n_warm: int = 20) -> dict:
    "Each side's store built once; then `rounds` rounds of timed processes (each side and configuration, the order rotating), one steps process per side, and the same-results check of base and after."
    queries = queries_of(files, n_queries, 0)
    warm = [q for q in queries_of(files, n_warm, 1) if q not in set(queries)]
    files = [str(f) for f in files]
    loads, runs, steps = [loadavg()], {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        folders = {k: Path(tmp) / f'store-{k}' for k in sides}
        for k, p in sides.items():                                              # each side's store built, untimed
            folders[k].mkdir(); on_side(p['path'], 'build_side', module='small', named=p['name'], root=str(p['path']), files=files, queries=queries, warm=warm, folder=str(folders[k]))
        jobs = [('time_side', k, c) for k, p in sides.items() for c in CONFIGS if c == 'default' or p['fusion']] + [('steps_side', k, 'default') for k in sides]
        for r in range(rounds):
            for fn, k, c in jobs[r % len(jobs):] + jobs[:r % len(jobs)]:
                got = on_side(sides[k]['path'], fn, module='small', named=sides[k]['name'], root=str(sides[k]['path']), files=files, queries=queries, warm=warm, folder=str(folders[k]), config=c)
                (runs.setdefault((k, c), []) if fn == 'time_side' else steps.setdefault(k, [])).append(got); loads += list(got['load'])
        same = {k: on_side(sides[k]['path'], 'same_side', module='small', named=sides[k]['name'], root=str(sides[k]['path']), files=files, queries=queries, warm=warm, folder=str(folders[k]))
                for k in ('base', 'after') if k in sides}
    loads.append(loadavg())
    return dict(queries=len(queries), warm=len(warm), rounds=rounds, sides={k: p['name'] for k, p in sides.items()}, runs=runs, steps=steps, same=same, loads=loads,
                chunks={k: v[0]['chunks'] for (k, c), v in runs.items() if c == 'default'})


def p50s(runs: list, what: str = 'ms') -> list: return [float(np.median(r[what])) for r in runs]


def same_lines(same: dict) -> list:
    "Whether base and after give the same hits, per call: queries equal of all."
    if set(same) != {'base', 'after'}: return ['Same results: not checked (needs the base and after sides).']
    b, a = same['base'], same['after']
    out = [f"Same results, base against after (the stores' vectors summed: {b['vectors']!r} and {a['vectors']!r}): every hit's chunk, text, node, rank, fused score, "
           "each leg's rank and raw score and the terms held, compared exactly:", '', '| call | queries with the same hits |', '|---|---|']
    for k in b['hits']:
        n = sum(x == y for x, y in zip(b['hits'][k], a['hits'].get(k, [])))
        out.append(f"| {k} | {n} of {len(b['hits'][k])} |")
    return out


def step_lines(steps: dict) -> list:
    "Per side, each step's mean and median ms per call (exclusive; means add up to the call's), each the median over the side's steps processes."
    names = list(dict.fromkeys([n for n, *_ in STEPS] + [k for runs in steps.values() for s in runs for p in s['per'] for k in p if k != 'total']))
    ks = list(steps)
    out = ['| step (ms per call, exclusive) | ' + ' | '.join(f'{k} mean | {k} p50' for k in ks) + ' |', '|---|' + '---|---|' * len(ks)]
    for n in names + ['total']:
        cells = []
        for k in ks:
            v = [[p.get(n, 0.0) for p in s['per']] for s in steps[k]]
            cells += [f'{statistics.median(np.mean(x) for x in v):.3f}', f'{statistics.median(np.median(x) for x in v):.3f}'] if any(map(any, v)) else ['–', '–']
        out.append(f'| {n} | ' + ' | '.join(cells) + ' |')
    return out


def small_report(r: dict) -> str:
    "The markdown report: p50 per side and configuration (median over rounds, with each round's), the ratios, the steps, the same-results check."
    ok = [x for x in r['loads'] if x == x]
    L = [f"Warm `doc_search` on the default corpus ({', '.join(f'{k}: {n:,} chunks' for k, n in r['chunks'].items())}), the leg cache off (`LEG_CACHE = 0`), "
         f"the query vector given; {r['queries']} timed queries (verbatim sentences and their short variants), each asked once after {r['warm']} other warm-up queries, "
         f"in a process opening the store afresh; wall time, and the thread's CPU time beside it (what the machine's other work does not add). Sides: " + ', '.join(f'{k} = {n}' for k, n in r['sides'].items()) + f". {r['rounds']} rounds, the processes alternating; "
         f"the machine's 1-minute load average ranged {min(ok):.2f} to {max(ok):.2f} during the run.", '',
         '| side | configuration | p50 ms (median over rounds) | each round | p95 ms (median) | CPU p50 ms (median) |', '|---|---|---|---|---|---|']
    for (k, c), runs in r['runs'].items():
        p95 = statistics.median(float(np.percentile(x['ms'], 95)) for x in runs)
        L.append(f"| {k} | {c} | {statistics.median(p50s(runs)):.3f} | {', '.join(f'{x:.3f}' for x in p50s(runs))} | {p95:.3f} | {statistics.median(p50s(runs, 'cpu')):.3f} |")
    L += ['', '| ratio of p50s (per round, then the median; range) | default | tree | default, CPU | tree, CPU |', '|---|---|---|---|---|']
    for a, b in (('after', 'base'), ('after', 'before'), ('base', 'before')):
        cells = []
        for what, c in itertools.product(('ms', 'cpu'), CONFIGS):
            bc = c if (b, c) in r['runs'] else 'default'             # the before side's default is the `tree` system's fusion (RRF, no tiers)
            if (a, c) not in r['runs'] or (b, bc) not in r['runs']: cells.append('–'); continue
            rs = [x / y for x, y in zip(p50s(r['runs'][(a, c)], what), p50s(r['runs'][(b, bc)], what))]
            cells.append(f'{statistics.median(rs):.2f}× ({min(rs):.2f}–{max(rs):.2f})' + ('' if bc == c else f' against {b} default'))
        L.append(f'| {a} / {b} | ' + ' | '.join(cells) + ' |')
    L += ['', 'Where a call\'s time goes (the `steps` process of each side, `doc_search` as shipped, the same queries, each step\'s function wrapped; the wrapping adds a little to each):', '',
          *step_lines(r['steps']), '', *same_lines(r['same'])]
    return '\n'.join(L) + '\n'


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog='python benchmarks/small.py', description='warm doc_search on the default corpus, the leg cache off: before, base and after side by side')
    p.add_argument('--before', default=BEFORE, help='the old side: a commit or a checkout folder (default %(default)s, before saved snapshots)')
    p.add_argument('--base', default='f9678d8', help="the side this change starts from: a commit or a checkout folder (default: f9678d8, before the store's rooms)")
    p.add_argument('--rounds', type=int, default=5, help='rounds of timed processes, the sides alternating (default %(default)s)')
    p.add_argument('--queries', type=int, default=150, help='verbatim queries sampled, each also giving a short variant (default %(default)s)')
    p.add_argument('--out', default=str(HERE / 'reports' / 'speed_small.md'), help='report file (default %(default)s)')
    a = p.parse_args(argv)
    from litebench.corpus import corpus_files
    from litebench.treestore import TreeStore
    files = corpus_files()
    with tempfile.TemporaryDirectory() as tmp:
        sides = {}
        for k, rev in (('before', a.before), ('base', a.base)):
            path = checkout(rev, Path(tmp) / k)
            name = rev if path.is_relative_to(Path(tmp)) and not git('rev-parse', '--short', rev).returncode else str(path)
            if path.is_relative_to(Path(tmp)): name = f"{rev} ({git('rev-parse', '--short', rev).stdout.decode().strip()})"
            sides[k] = dict(path=path, name=name, fusion=k != 'before')
        sides['after'] = dict(path=ROOT, name=described(ROOT), fusion=_has_fusion(TreeStore))
        cmd = 'python benchmarks/small.py ' + ' '.join(argv if argv is not None else sys.argv[1:])
        print(f'{cmd}: {a.rounds} rounds over {len(sides)} sides', flush=True)
        r = small_speed(files, sides, a.rounds, a.queries)
    text = f'# Small-store latency\n\nMade by `{cmd.strip()}`.\n\n' + small_report(r)
    Path(a.out).write_text(text); print(text)
    return 0


if __name__ == '__main__': sys.exit(main())
