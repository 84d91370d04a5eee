"""The scale benchmark: litebench's tree store at growing sizes (the default corpus's documents replicated), and search alone at 1M vectors.

What is measured, per size (each in a fresh process, so nothing is warm but the OS page cache):
- build: a fresh store file, `add_doc` for every (replicated) document, then `close`, which leaves the version's search
  files (arrays, postings, the default leg's HNSW index above `exact_below`). Embedding is excluded: every text's LSA vector is computed once
  beforehand (`stores.Precomputed`); a replica's few texts not seen before are embedded and counted. Its phases are timed apart
  (`PHASES`: tree, chunks, sync, postings read back, HNSW index).
- open + first query: a new process opens the store and answers one `doc_search`.
- doc_search p50/p95 (kw 'any') and p50 (kw 'all'), the query vector given, once the keyword leg's compiled kernels are loaded
  (the store's 'auto' loads them in a thread, from `keyword.KW_COMPILED_FROM` rows, when numba is installed).
- bytes on disk per chunk: every file of the store (SQLite, WAL, saved arrays, HNSW), beyond the chunks' text, and at the
  largest size by component (SQLite's tables and indexes, the snapshot's vectors and postings, the HNSW index).
- recall@10 of the HNSW index against exact search, on the vectors `doc_search` searches (heading path + text), its depth-50
  candidates scored exactly as the store scores them (`hnsw_top`): the store's
  own index above `exact_below`, one built the same way (`vectors._hnsw`) below it. Above `exact_below`, side by side, indexes
  built as the store builds its own (`HNSW_DTYPE`, `HNSW_ADD`), keeping float32, and inserting with a narrower search (usearch's
  `expansion_add` 64 and 32, not 128): build time, size, search time and recall (`index_variants`). The same indexes over as many vectors none of which is a copy
  (drawn like the corpus's distinct vectors, `corpus_like`): a replicated corpus's copies make the graph cheap to build, which a corpus of that size would not. A replicated chunk's copies tie, so a
  returned vector counts as found when it scores at least the 10th best exact score. Above `exact_below`, the same at wider
  search widths (usearch's `expansion_search`: 64, its default, 256 and 1024, and the store's `HNSW_WIDTH`), with each search's time.
With `--million`: 1M synthetic vectors with the corpus vectors' mean and covariance (embedding a million texts is too slow
here), an HNSW index as the store builds it but with a narrower insertion search (expansion_add 16, not usearch's 128: the
store's build would take the better part of an hour on two shared cores), kept in `data/cache` once built; the vector leg's
search (depth 50) timed per query at the same search widths, with its recall@10 against exact search for
the real queries' vectors. Gaussian vectors have no clusters, so their nearest neighbours nearly tie: a hard case for HNSW.
With numba installed (the `fast` extra), the keyword leg's two kernels side by side (`keyword.KW_KERNEL`: numpy, compiled): each store's
doc_search, and the 1M-row keyword leg, timed with each, alternating, with the queries whose answers are the same.
A search on one thread and on two (`keyword.PARALLEL_FROM`: the legs at once, the compiled keyword leg's later terms beside its first),
side by side: each store's doc_search, and at 1M the keyword leg with the 1M-vector search as its vector leg.
Each prefix's postings read summed (`postings.PREFIX_POSTINGS`) and every prefix summed at search, side by side: each store's doc_search, and the 1M-row keyword leg.
At the end, for the disk decision, the stored vectors' precision (`stored_precision`): exact vector search over the corpus's chunks with
their vectors kept as float32, float16 and 8 bits, what changes in the top 10 and in the gold's ranks (`score_text`, paired by `compare`).
The "before" numbers are the issue's, measured before saved snapshots."""
from __future__ import annotations
import hashlib, importlib.util, inspect, re, statistics, tempfile, time
from pathlib import Path
import numpy as np
from litebench.treestore import TreeStore
import litebench.store as lstore   # its names read when used: an older checkout's scale benchmark side (`scale_paired`) imports this module too


def room(name: str):
    "The module of litebench that defines `name` (a setting or function of the store): one of the store's rooms, or, in an older checkout, the store itself."
    for m in ('vectors', 'keyword', 'postings', 'legs', 'snapshot', 'terms', 'store'):
        try: mod = importlib.import_module(f'litebench.{m}')
        except ImportError: continue
        if name in vars(mod) and getattr(vars(mod)[name], '__module__', mod.__name__) == mod.__name__: return mod   # defined there, not imported
    return lstore


lvectors, lkeyword, lpostings, llegs = (room(n) for n in ('HNSW_WIDTH', 'KW_KERNEL', 'PREFIX_POSTINGS', '_legs'))   # a setting set on another module would do nothing
from stores import store_inputs, in_fresh_process
from timing import time_calls, ms_stats, words_forgotten
from ingest import machine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

BEFORE = {1: (1449, 0.3, 0.4, 0.53, 0.69, 0.76, 10), 4: (5796, 1.7, 1.4, 0.87, 1.35, 1.25, 40), 16: (23184, 11.3, 6.1, 1.66, 2.63, 3.33, 209),
          64: (92736, 106, 31, 4.67, 8.20, 13.1, 835)}   # chunks, build s, open+first s, p50, p95, kw all p50 ms, MB on disk
TYPES_UP_TO = 200_000   # rows up to which HNSW index variants are compared (`index_variants`: sixteen more builds of the index, too long at 1M rows here)
TARGETS = dict(open_s=1.0, build_s_per_100k=20.0, disk_kb=2.0, p50_100k_ms=2.0, p50_1m_ms=10.0)


def copy_name(doc: str, i: int) -> str:
    "The name of the `i`-th copy of the document `doc` (`name~i.pdf`; the first copy, 0, keeps its name)."
    return f'{doc[:-4]}~{i}.pdf' if i else doc


def original(doc: str) -> str:
    "The document a copy's name (`copy_name`) was made from."
    return re.sub(r'~\d+\.pdf$', '.pdf', doc)


def replicas(docs, k: int) -> list:
    "The documents (`Pages`) `k` times, each copy's pages under a distinct name (`copy_name`), with its outline."
    from litebench.pdf import Pages
    named = lambda d, i: copy_name(d[0].doc, i)
    return [Pages([p._replace(doc=named(d, i)) for p in d], named(d, i), getattr(d, 'outline', ()), getattr(d, 'warnings', ())) for i in range(k) for d in docs]


PHASES = {'tree': ('litebench.treestore', 'build_tree'), 'chunks': ('litebench.treestore', 'node_chunks'),   # a build's phases: where each one's function is found
          'sync': ('litebench.store', 'FlatStore.sync'), 'postings': (room('Snapshot').__name__, 'postings_arrays'),   # where the snapshot calls it
          'hnsw': (lvectors.__name__, '_hnsw') if lvectors is not lstore else ('litebench.store', 'FlatStore._hnsw')}


def build(docs, enc, path) -> dict:
    "Build the store at `path` from `docs` and close it: seconds, and of them each of `PHASES`' (None where the checkout lacks it), the seconds the HNSW index was made beside another phase (on its own thread), chunks, texts embedded."
    import importlib
    before, spent, undo, spans = enc.misses, {k: None for k in PHASES}, [], {k: [] for k in PHASES}
    for k, (mod, name) in PHASES.items():                                    # each phase's function, timed while the store is built
        *up, attr = name.split('.'); owner = importlib.import_module(mod)
        for u in up: owner = getattr(owner, u)
        f = getattr(owner, attr, None)
        if f is None: continue                                                # (a checkout from before HNSW indexes has none)
        def timed(*a, _f=f, _k=k, **kw):
            t = time.perf_counter()
            try: return _f(*a, **kw)
            finally: spent[_k] += time.perf_counter() - t; spans[_k].append((t, time.perf_counter()))
        spent[k] = 0.0; setattr(owner, attr, timed); undo.append((owner, attr, f))
    try:
        import litebench.treestore as lts
        forked = hasattr(lts, 'forks') and lts.forks(len(docs)) > 0   # the documents' trees and chunks made in another process, beside the writes (`add_docs`' own decision)
        t0 = time.perf_counter(); s = TreeStore(path, enc)
        if hasattr(s, 'add_docs'): s.add_docs(docs)
        else:
            for d in docs: s.add_doc(d)                                        # (a checkout from before `add_docs`)
        n = len(s); s.close()
    finally:
        for owner, attr, f in undo: setattr(owner, attr, f)
    beside = sum(max(0.0, min(b, d) - max(a, c)) for a, b in spans['hnsw'] for k in PHASES if k != 'hnsw' for c, d in spans[k])   # phases other than the index's never overlap each other
    if forked: spent['tree'] = spent['chunks'] = None                          # timed in the other process, where this one cannot see
    return dict(build_s=time.perf_counter() - t0, phases=spent, beside=beside, forked=forked, chunks=n, embedded=enc.misses - before)


def recall_at(got, s: np.ndarray, k: int = 10) -> float:
    "Share of the first `k` of `got` (positions) whose exact score `s` is at least the `k`-th best: ties with it count as found."
    kth = np.partition(s, len(s) - k)[len(s) - k] if len(s) > k else s.min(initial=0)
    return float(np.sum(s[np.asarray(got[:k], np.int64)] >= kth - 1e-5)) / min(k, len(s))


def hnsw_recall(s, qvecs, k: int = 10, depth: int = 50, widths=(64, 256, 1024)) -> dict:
    "recall@`k` of the first `k` of an HNSW search of `depth`, its candidates scored exactly (`hnsw_top`, as the vector leg searches), against exact search, on the heading-path vectors; below `exact_below` an index built as the store builds it. Above it, also each of `widths`' recall and time."
    m = s.mem; forced = m.hnsw is None
    idx = (lvectors._hnsw if lvectors is not lstore else type(s)._hnsw)(s, 'ctx', m.C) if forced else m.hnsw['ctx']
    Q = [np.asarray(v, np.float32) for v in qvecs]; S = [m.C @ q for q in Q]; out = {}
    own = idx.expansion_search
    for ef in sorted({own, *(() if forced else widths)}):
        idx.expansion_search = ef
        ms = ms_stats(time_calls(lambda q: lvectors.hnsw_top(idx, m.C, q, depth), [(q,) for q in Q], 5))
        out[ef] = dict(search=ms, recall10=float(np.mean([recall_at(lvectors.hnsw_top(idx, m.C, q, depth)[0], sc, k) for q, sc in zip(Q, S)])))
    idx.expansion_search = own
    return dict(recall10=out[own]['recall10'], forced=forced, by_width=out, width=own)


def hnsw_variants() -> dict:
    "The HNSW indexes compared side by side: {label: usearch settings}, the store's own (`HNSW_DTYPE`, `HNSW_ADD`) among them; float32, and narrower insertion searches (`expansion_add`)."
    own = dict(dtype=lvectors.HNSW_DTYPE, expansion_add=lvectors.HNSW_ADD)
    out = {'f32': dict(own, dtype='f32'), f"{own['dtype']} (the store's)": own}
    out.update({f"{own['dtype']}, add {a}": dict(own, expansion_add=a) for a in (64, 32) if a < own['expansion_add']})
    return out


def index_variants(M: np.ndarray, qvecs, k: int = 10, depth: int = 50, variants: dict | None = None, repeats: int = 3) -> dict:
    "Side by side, an HNSW index over `M` as each of `variants` ({label: usearch settings}; default `hnsw_variants`) builds it, searched `HNSW_WIDTH` wide: median build seconds over `repeats` (the variants alternating), bytes per vector saved, the depth-`depth` search's p50 with its candidates scored exactly (`hnsw_top`), and recall@`k` against exact search."
    Index, variants = lvectors.usearch_index(), variants or hnsw_variants()
    make = lambda v: Index(ndim=M.shape[1], metric='cos', expansion_search=lvectors.HNSW_WIDTH, **v)
    Q = [np.asarray(v, np.float32) for v in qvecs]; S = [M @ q for q in Q]; builds, out = {t: [] for t in variants}, {}
    for _ in range(repeats):
        for t, v in variants.items():
            idx = make(v); t0 = time.perf_counter(); idx.add(np.arange(len(M), dtype=np.uint64), M); builds[t].append(time.perf_counter() - t0)
    for t, v in variants.items():                              # one more index of each, measured
        idx = make(v); idx.add(np.arange(len(M), dtype=np.uint64), M)
        with tempfile.TemporaryDirectory() as d: f = Path(d) / 'x.usearch'; idx.save(str(f)); size = f.stat().st_size
        out[t] = dict(settings=v, build_s=statistics.median(builds[t]), bytes_per_vector=size / len(M), search=ms_stats(time_calls(lambda q: lvectors.hnsw_top(idx, M, q, depth), [(q,) for q in Q], 5)),
                      recall10=float(np.mean([recall_at(lvectors.hnsw_top(idx, M, q, depth)[0], sc, k) for q, sc in zip(Q, S)])))
    return dict(types=out, repeats=repeats, n=len(M))


def open_first(path, q: str, qvec) -> tuple:
    "(the store at `path`, opened read-only; seconds to open it and answer `doc_search` for `q`, together)."
    t0 = time.perf_counter(); s = TreeStore(path, readonly=True); s.doc_search(q, qvec=qvec)
    return s, time.perf_counter() - t0


def setting_sides(call, args, cold, name: str, values: dict, rounds: int = 3) -> dict:
    "`call(*a)` timed for each `a` of `args` with the store's setting `name` (on the module that defines it: `room`) at each of `values` ({label: value}), alternating `rounds` times, each pass after `cold()`: the median over rounds of each's p50 and p95, and for how many of `args` the answer is the same with every value."
    mod = room(name); keep, runs, said = getattr(mod, name), {k: [] for k in values}, {}
    try:
        for _ in range(rounds):
            for k, v in values.items(): setattr(mod, name, v); cold(); runs[k].append(ms_stats(time_calls(call, args, 0)))
        for k, v in values.items(): setattr(mod, name, v); cold(); said[k] = [call(*a) for a in args]
    finally: setattr(mod, name, keep)
    med = lambda k, f: statistics.median(x[f] for x in runs[k])
    first = said[next(iter(values))]
    return dict(rounds=rounds, **{k: dict(median_ms=med(k, 'median_ms'), p95_ms=med(k, 'p95_ms')) for k in runs},
                same=sum(all(said[k][i] == first[i] for k in said) for i in range(len(args))), n=len(args))


def kernel_sides(call, args, cold, rounds: int = 3) -> dict | None:
    "`setting_sides` for the keyword leg's kernels (`keyword.KW_KERNEL`): numpy's and the compiled one, the compiled one loaded before any timing, both on one thread (`keyword.PARALLEL_FROM` off: the kernels alone compared). None without numba."
    if importlib.util.find_spec('numba') is None: return None
    keep, par = lkeyword.KW_KERNEL, lkeyword.PARALLEL_FROM; lkeyword.KW_KERNEL = 'numba'; lkeyword.kernels(1); lkeyword.KW_KERNEL = keep   # compiled (or read from numba's cache) before any timing
    try: lkeyword.PARALLEL_FROM = None; return setting_sides(call, args, cold, 'KW_KERNEL', {'numpy': 'numpy', 'numba': 'numba'}, rounds)
    finally: lkeyword.PARALLEL_FROM = par


def kernels_loaded():
    "Wait until the store's compiled keyword kernels are loaded, if a search started loading them ('auto' does, in a thread): search is timed as it runs from then on."
    import threading
    for t in threading.enumerate():
        if t.name == getattr(lkeyword, 'KERNEL_THREAD', None): t.join()


def spinning(n: int = 2) -> list:
    "`n` other processes, each busy on a core (a Python loop), started now: stop them with `stopped`."
    import subprocess, sys
    return [subprocess.Popen([sys.executable, '-c', 'while True: pass']) for _ in range(n)]


def stopped(ps):
    "End the processes `ps` (from `spinning`), each by its own handle, and wait for them."
    for p in ps: p.kill()
    for p in ps: p.wait()


def busy_sides(call, args, cold, rounds: int = 3, others: int = 2) -> dict:
    "`call(*a)` timed for each `a` of `args` with the machine as it is ('idle') and with `others` processes busy on the cores ('busy', `spinning`), alternating `rounds` times, each pass after `cold()`: the median over rounds of each's p50 and p95."
    runs = {'idle': [], 'busy': []}
    for _ in range(rounds):
        for k in runs:
            ps = spinning(others) if k == 'busy' else []
            try: time.sleep(0.3 if ps else 0); cold(); runs[k].append(ms_stats(time_calls(call, args, 0)))
            finally: stopped(ps)
    med = lambda k, f: statistics.median(x[f] for x in runs[k])
    return dict(rounds=rounds, others=others, **{k: dict(median_ms=med(k, 'median_ms'), p95_ms=med(k, 'p95_ms')) for k in runs})


def verify_sides(path, q: str, qvec, rounds: int = 5) -> dict | None:
    "Open + first query (`open_first`) with each saved file's checksum checked when the snapshot is opened (`snapshot.VERIFY`, the default) and unchecked, alternating `rounds` times (the files in the page cache for both): the median seconds of each. None in a checkout without checksums."
    mod = room('VERIFY')
    if not hasattr(mod, 'VERIFY'): return None
    keep, runs = mod.VERIFY, {True: [], False: []}
    try:
        for _ in range(rounds):
            for v in runs: mod.VERIFY = v; s, t = open_first(path, q, qvec); s.close(); runs[v].append(t)
    finally: mod.VERIFY = keep
    return dict(rounds=rounds, checked_s=statistics.median(runs[True]), unchecked_s=statistics.median(runs[False]))


def open_and_search(path, queries, qvecs, warmup: int = 5) -> dict:
    "Open the store, answer the first query (timed together), then each query's doc_search time, kw 'any' and kw 'all', the store's leg cache off (`LEG_CACHE` = 0: every query's legs computed, the warm-up's too); the HNSW index's recall@10; the keyword kernels, the legs one after the other and at once, and the machine idle and busy, side by side, each pass on the store opened afresh."
    if hasattr(llegs, 'LEG_CACHE'): llegs.LEG_CACHE = 0       # (a checkout from before the leg cache has none)
    s, first = open_first(path, queries[0], qvecs[0]); kernels_loaded()
    args = list(zip(queries, qvecs))
    out = dict(open_first_s=first, any=ms_stats(time_calls(lambda q, v: s.doc_search(q, qvec=v), args, warmup)),
               all=ms_stats(time_calls(lambda q, v: s.doc_search(q, qvec=v, kw='all'), args, warmup)), text_bytes=sum(len(c.text.encode()) for c in s.mem.chunks),
               hnsw=hnsw_recall(s, qvecs))
    if s.mem.hnsw is not None and s.mem.n <= TYPES_UP_TO:
        C = np.asarray(s.mem.C, np.float32); out['types'] = index_variants(C, qvecs)
        out['distinct'] = index_variants(corpus_like(np.unique(C, axis=0), len(C)), qvecs, repeats=1)   # as many vectors, none a copy: what a corpus of this size that is not replicated asks of HNSW
    s.close(); box = {}
    def reopen():
        "The store opened afresh, its snapshot read, the process's tokenized words forgotten: the next pass is its first (no record, node, word, term's parts or leg read before; the kernels stay loaded)."
        if 's' in box: box['s'].close()
        words_forgotten()
        box['s'] = TreeStore(path, readonly=True); box['s'].mem
    search = lambda q, v: box['s'].doc_search(q, qvec=v)
    out['kernels'] = kernel_sides(search, args, reopen)
    out['legs'] = setting_sides(search, args, reopen, 'PARALLEL_FROM', {'one': None, 'two': 0})   # one thread, or two (the legs at once, the keyword leg's terms beside each other)
    out['busy'] = busy_sides(search, args, reopen)                                       # hybrid doc_search, two other processes busy on the cores or not
    out['verify'] = verify_sides(path, queries[0], qvecs[0])                              # the snapshot's checksums checked at open, or not
    if hasattr(lpostings, 'PREFIX_POSTINGS'): out['prefixes'] = setting_sides(search, args, reopen, 'PREFIX_POSTINGS', {'summed': False, 'read': True})   # every prefix summed at search, or its postings read summed
    box['s'].close(); return out


def disk_bytes(folder) -> int:
    "Bytes of every file under `folder`."
    return sum(f.stat().st_size for f in Path(folder).rglob('*') if f.is_file())


def disk_parts(folder, path) -> dict:
    "Bytes of the store under `folder` by component: SQLite's tables and indexes (its `dbstat` table), the saved snapshot's vectors, postings and rest, the HNSW indexes, anything else."
    import sqlite3
    db = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    out = {f'SQLite {n}': b for n, b in db.execute('SELECT name, sum(pgsize) FROM dbstat GROUP BY name')}; db.close()
    part = lambda f: ('snapshot vectors' if f.stem in ('V', 'C') else 'snapshot postings' if f.stem in ('idx', 'tt', 'tc', 'off', 'dl') else
                      'snapshot prefixes\' postings' if f.stem in ('pre', 'poff', 'pidx', 'ptt', 'ptc') else 'snapshot, rest') if f.parent.name.endswith('.snapshot') else \
                     'HNSW index' if f.suffix == '.usearch' else None if f == Path(path) else f'other ({f.name.split(".")[-1]})'
    for f in Path(folder).rglob('*'):
        if f.is_file() and part(f): out[part(f)] = out.get(part(f), 0) + f.stat().st_size
    return out


def one_size(docs, enc, k: int, queries, qvecs) -> dict:
    "Build the `k`× store and measure it (the search side in a fresh process)."
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / 'scale.sqlite'
        b = build(replicas(docs, k), enc, path)
        r = in_fresh_process(open_and_search, path=str(path), queries=queries, qvecs=qvecs)
        total, parts = disk_bytes(d), disk_parts(d, path)
    return dict(k=k, **b, **r, disk_bytes=total, parts=parts)


def corpus_like(X: np.ndarray, n: int, seed: int = 0, block: int = 100_000) -> np.ndarray:
    "`n` unit vectors drawn from a Gaussian with the mean and covariance of the rows of `X` (float32)."
    rng, mu = np.random.default_rng(seed), X.mean(0)
    _, sv, Vt = np.linalg.svd(X - mu, full_matrices=False); B = (sv[:, None] / np.sqrt(len(X))) * Vt
    out = np.empty((n, X.shape[1]), np.float32)
    for i in range(0, n, block):
        Z = rng.standard_normal((min(block, n - i), len(sv))) @ B + mu
        out[i:i + len(Z)] = Z / np.linalg.norm(Z, axis=1, keepdims=True)
    return out


def exact_scores(M: np.ndarray, Q: np.ndarray, block: int = 100_000) -> np.ndarray:
    "Every query's exact cosine score of every row of `M` (unit vectors), computed in blocks of rows: queries × rows, float32."
    S = np.empty((len(Q), len(M)), np.float32)
    for i in range(0, len(M), block): S[:, i:i + block] = Q @ M[i:i + block].T
    return S


def million(X: np.ndarray, qvecs, n: int = 1_000_000, n_queries: int = 100, depth: int = 50, seed: int = 0,
            expansion_add: int = 16, widths=(64, 256, 1024), cache=None, keep=None) -> dict:
    "HNSW search over `n` vectors like the rows of `X` (`corpus_like`), the index kept in `cache` once built: per-query ms of a `depth` search, its candidates scored exactly (`hnsw_top`), and its recall@10 against exact search, at the store's search width (`HNSW_WIDTH`) and at each of `widths`. With `keep` (a dict), the vector leg at the store's width is left in it (`keep['vector']`: a query vector -> its leg)."
    Index = lvectors.usearch_index()
    M = corpus_like(np.asarray(X, np.float32), n, seed)
    key = hashlib.sha1(M[:: max(n // 1000, 1)].tobytes()).hexdigest()[:12]
    f = Path(cache or ROOT / 'data' / 'cache') / f'million-{n}-{M.shape[1]}-{lvectors.HNSW_DTYPE}-ea{expansion_add}-{key}.usearch'
    idx, add_s = Index(ndim=M.shape[1], metric='cos', dtype=lvectors.HNSW_DTYPE, expansion_add=expansion_add), None   # the store's index, built with a narrower search
    if f.exists(): idx.load(str(f))
    if len(idx) != n:
        idx = Index(ndim=M.shape[1], metric='cos', dtype=lvectors.HNSW_DTYPE, expansion_add=expansion_add)
        t0 = time.perf_counter(); idx.add(np.arange(n, dtype=np.uint64), M); add_s = time.perf_counter() - t0
        f.parent.mkdir(parents=True, exist_ok=True); idx.save(str(f))
    Q = np.asarray(qvecs[:n_queries], np.float32); S = exact_scores(M, Q); out = {}
    for ef in sorted({lvectors.HNSW_WIDTH, *widths}):
        idx.expansion_search = ef
        ms = time_calls(lambda q: lvectors.hnsw_top(idx, M, q, depth), [(q,) for q in Q], warmup=10)
        out[ef] = dict(search=ms_stats(ms), recall10=float(np.mean([recall_at(lvectors.hnsw_top(idx, M, q, depth)[0], S[i], 10) for i, q in enumerate(Q)])))
    idx.expansion_search = lvectors.HNSW_WIDTH
    if keep is not None: keep['vector'] = lambda q: lvectors.hnsw_top(idx, M, q, depth)
    return dict(n=n, dim=M.shape[1], add_s=add_s, expansion_add=expansion_add, index=f.name, by_width=out, width=lvectors.HNSW_WIDTH, queries=len(Q), depth=depth)


def replicated(off, idx, tt, tc, n: int, k: int) -> tuple:
    "Postings `off, idx, tt, tc` over `n` rows as they would be for the rows `k` times over (each copy's rows after the last copy's): (off, idx, tt, tc)."
    off = np.asarray(off, np.int64); ln = np.diff(off); shift = (np.arange(k, dtype=np.int64) * n)[:, None]
    i2, t2, c2 = np.empty(len(idx) * k, np.int32), np.empty(len(idx) * k, np.float32), np.empty(len(idx) * k, np.float32)
    for j in np.flatnonzero(ln):                                    # each list's rows, copy after copy: still ascending
        a, b = off[j], off[j + 1]; o = a * k
        i2[o:o + (b - a) * k] = (np.asarray(idx[a:b], np.int64)[None, :] + shift).ravel()
        t2[o:o + (b - a) * k], c2[o:o + (b - a) * k] = np.tile(tt[a:b], k), np.tile(tc[a:b], k)
    return off * k, i2, t2, c2


def replicated_postings(P, k: int):
    "The postings `P` of a store as they would be for its chunks `k` times over: a `Postings` of `k` × `P.n` rows, with its prefixes' postings (`prefix_postings`)."
    Postings = lpostings.Postings
    a = dict(zip(('off', 'idx', 'tt', 'tc'), replicated(P.off, P.idx, P.tt, P.tc, P.n, k)), vocab=P.vocab, dl=np.tile(P.dl, k))
    a.update(zip(('poff', 'pidx', 'ptt', 'ptc'), replicated(P.poff, P.pidx, P.ptt, P.ptc, P.n, k)), pre=P.pre)
    return Postings(None, None, P.n * k, a)


def both_legs(kw, vector, args, cold, rounds: int = 2) -> dict:
    "A search's two legs, `kw(q)` and `vector(v)` for each (q, v) of `args`, on one thread and on two as `search` makes them from `keyword.PARALLEL_FROM` rows (the legs at once, `legs._legs`, and the keyword leg's later terms beside its first), alternating `rounds` times, each pass after `cold()`: the median over rounds of each's p50 and p95."
    from types import SimpleNamespace
    call = lambda q, v, together: llegs._legs(SimpleNamespace(), [('kw', lambda: kw(q)), ('vec', lambda: vector(v))], together)   # a new namespace: no leg kept
    runs, par = {'one': [], 'two': []}, lkeyword.PARALLEL_FROM
    try:
        for _ in range(rounds):
            for k in runs: lkeyword.PARALLEL_FROM = par if k == 'two' else None; cold(); runs[k].append(ms_stats(time_calls(call, [(q, v, k == 'two') for q, v in args], 0)))
    finally: lkeyword.PARALLEL_FROM = par
    return dict(rounds=rounds, **{k: dict(median_ms=statistics.median(x['median_ms'] for x in r), p95_ms=statistics.median(x['p95_ms'] for x in r)) for k, r in runs.items()})


def million_keyword(docs, enc, queries, n: int = 1_000_000, warmup: int = 5, vector=None, qvecs=None) -> dict:
    "The keyword leg of `doc_search` (kw 'any', depth 50, the store's defaults) over the corpus's postings replicated to at least `n` rows, per query; given the 1M vector leg (`vector`, from `million`) and the queries' vectors, the two legs one after the other and at once (`both_legs`)."
    from types import SimpleNamespace
    _kw_memory = room('_kw_memory')._kw_memory
    with tempfile.TemporaryDirectory() as d:
        s = TreeStore(Path(d) / 'one.sqlite', enc)
        for x in docs: s.add_doc(x)
        k = -(-n // len(s)); P = s.mem.postings
        t0 = time.perf_counter(); R = replicated_postings(P, k); make_s = time.perf_counter() - t0
        m = SimpleNamespace(postings=R, n=R.n, df={t: c * k for t, c in s.mem.df.items()})
        leg = lambda q: _kw_memory(m, q, 'any', True, 50, None, 0.2, 3)
        ms = time_calls(leg, [(q,) for q in queries], warmup)
        kernels = kernel_sides(leg, [(q,) for q in queries], R.forget_terms, rounds=2)
        prefixes = setting_sides(leg, [(q,) for q in queries], R.forget_terms, 'PREFIX_POSTINGS', {'summed': False, 'read': True}, rounds=2)
        legs = both_legs(leg, vector, list(zip(queries, np.asarray(qvecs, np.float32))), R.forget_terms) if vector is not None else None
        s.close()
    return dict(rows=R.n, copies=k, postings=len(R.idx), make_s=make_s, search=ms_stats(ms), queries=len(queries), kernels=kernels, prefixes=prefixes, legs=legs)


def stored_precision(docs, enc, queries, qvecs, k: int = 10) -> dict:
    "Exact vector search over the corpus's chunks (heading path + text) with their vectors kept as float32 (as the store keeps them), float16, and 8-bit integers with one scale per vector: against float32, the share of queries whose top `k` is the same in order, the same as a set, and the same first; each one's `score_text` over the returned chunks (the project's relevance rule); and its reciprocal ranks compared with float32's, paired (`compare`)."
    from litebench.metrics import score_text
    from litebench.stats import compare
    s = TreeStore(':memory:', enc)
    for d in docs: s.add_doc(d)
    m = s.mem; M, Q = np.asarray(m.C, np.float32), np.asarray(qvecs, np.float32)
    scale = np.abs(M).max(1, keepdims=True) / 127
    kept = {'float32': M, 'float16': M.astype(np.float16).astype(np.float32), '8-bit': np.round(M / scale).astype(np.int8).astype(np.float32) * scale}
    top = {t: np.argsort(-(Q @ V.T), 1, kind='stable')[:, :k] for t, V in kept.items()}
    texts = [c.text for c in m.chunks]; s.close()
    got = {t: score_text([(q, [texts[j] for j in top[t][i]]) for i, q in enumerate(queries)], k) for t in kept}
    rr = {t: [1 / x if x else 0.0 for x in g['ranks']] for t, g in got.items()}
    same = lambda t: dict(order=float(np.mean((top[t] == top['float32']).all(1))), members=float(np.mean([len(set(a) & set(b)) / k for a, b in zip(top[t], top['float32'])])),
                          first=float(np.mean(top[t][:, 0] == top['float32'][:, 0])), moved=sum(a != b for a, b in zip(got[t]['ranks'], got['float32']['ranks'])))
    return dict(rows=len(M), dim=M.shape[1], queries=len(Q), k=k, by_type={t: dict(score={x: got[t][x] for x in ('r1', 'r10', 'mrr', 'n')}, **(same(t) if t != 'float32' else {}),
                compare=compare(rr['float32'], rr[t], ('float32', t)) if t != 'float32' else None) for t in kept})


def worst_ids(X: np.ndarray, docs, enc, copies: int = 16) -> dict:
    "The local intrinsic dimension (`texts.intrinsic_dim`) of the worst cases' vectors: the corpus's chunks' vectors (heading path + text) `copies` times over, as the replicated stores hold them, and as many drawn like them (`corpus_like`)."
    from texts import intrinsic_dim
    X = np.asarray(X, np.float32); R = np.tile(X, (copies, 1))
    return dict(replicated=dict(intrinsic_dim(R), rows=len(R)), synthetic=dict(intrinsic_dim(corpus_like(np.unique(X, axis=0), len(R))), rows=len(R)))


def scale_speed(files, sizes=(1, 4, 16, 64), n_queries: int = 900, do_million: bool = False, text=()) -> dict:
    "Every size's build, open and search numbers; HNSW's recall and time over as many distinct real texts' vectors as each size's chunks, and as each of `text` (`texts.text_rows`); and (with `do_million`) the 1M synthetic-vector search row."
    inp = store_inputs(files, max(n_queries // 2, 1))   # verbatim queries and their short variants
    queries, qvecs = inp['queries'][:n_queries], inp['qvecs'][:n_queries]
    X = np.stack(list(inp['enc'].vecs.values())) if do_million else None        # the corpus texts' LSA vectors (chunks, heading path + chunk), before replicas add theirs
    rows = [one_size(inp['docs'], inp['enc'], k, queries, qvecs) for k in sizes]
    from texts import text_rows
    texts = text_rows(inp['docs'], sorted({x['chunks'] for x in rows} | set(text)), queries)
    keep = {}
    m = million(X, qvecs, keep=keep) if do_million else None
    return dict(rows=rows, queries=len(queries), dim=inp['enc'].dim, million=m, texts=texts, ids=worst_ids(X if X is not None else np.stack(list(inp['enc'].vecs.values())), inp['docs'], inp['enc']), precision=stored_precision(inp['docs'], inp['enc'], queries, qvecs),
                million_kw=million_keyword(inp['docs'], inp['enc'], queries, vector=keep.get('vector'), qvecs=qvecs) if do_million else None, machine=machine())


def text_section(r: dict) -> list:
    "The report's recall rows on distinct real texts (`texts.text_rows`), with each set's local intrinsic dimension and the worst cases' (`worst_ids`)."
    tt = r.get('texts')
    if not tt: return []
    ws = sorted({w for x in tt for w in x['by_width']})
    exact = inspect.signature(lstore.FlatStore.__init__).parameters['exact_below'].default   # the store's default: exact vector search below it
    srcs = ', '.join(f"{k} {v:,}" for k, v in max(tt, key=lambda x: x['rows'])['sources'].items())
    L = ['', f"**HNSW on distinct real texts, as the store builds and searches it** (`texts.text_rows`): the corpus's chunks and sentences first, then paragraphs and sentences of other real text on this machine "
             f"(at the largest set: {srcs}), none equal to another once lower-cased, no vector equal to another or zero; embedded by LSA (256 dimensions, fitted on {max(x['fit'] or 0 for x in tt):,} of the texts, as a store of them fits its own) and by MiniLM (up to {max((x['rows'] for x in tt if x['encoder'] == 'minilm'), default=0):,} texts). "
             f"Each index built as the store builds its own (`vectors._hnsw`: {tt[0]['dtype']}, connectivity {tt[0]['connectivity']}, expansion_add {tt[0]['expansion_add']}) and searched as the vector leg searches (`hnsw_top`: depth 50, candidates scored exactly). "
             "recall@10 against exact search for held-out texts of the set / the benchmark's queries, and the search's p50 per query; the store's width for the size (`vectors.hnsw_width`) in bold where the store searches an HNSW index. "
             f"Below `exact_below` ({exact:,} rows, the store's default) the store searches its vectors exactly, so its recall@10 there is 1.000: those rows' indexes are built for this table only, and none of their cells is bold. "
             "Local intrinsic dimension: Levina–Bickel's maximum-likelihood estimate over 20 nearest neighbours (and TwoNN's), 1,000 points.", '',
         '| vectors | rows | the store searches | intrinsic dim (MLE / TwoNN) | build (s) | ' + ' | '.join(f'width {w}' for w in ws) + ' |', '|---|---|---|---|---|' + '---|' * len(ws)]
    cell = lambda x, w: ('–' if w not in x['by_width'] else (lambda y, t: f"{t}{y['recall10']['held']:.3f} / {y['recall10']['queries']:.3f}, {y['search']['median_ms']:.2f} ms{t}")(x['by_width'][w], '**' if w == x['width'] and x['rows'] >= exact else ''))
    L += [f"| {x['encoder']} | {x['rows']:,} | {'HNSW' if x['rows'] >= exact else 'exactly (recall 1.000)'} | {x['id']['mle']:.1f} / {x['id']['twonn']:.1f} | {x['build_s']:.1f} | " + ' | '.join(cell(x, w) for w in ws) + ' |' for x in tt]
    ids = r.get('ids')
    if ids:
        L += ['', f"The worst cases' vectors, for comparison: the corpus's chunk vectors 16 times over ({ids['replicated']['rows']:,} rows, as the replicated stores hold them): for {ids['replicated']['copies']:.0%} of the points the nearest neighbour is a copy at distance 0, so no dimension can be estimated there"
                  + (f" (the rest: MLE {ids['replicated']['mle']:.1f})" if ids['replicated']['sample'] else '')
                  + f"; as many synthetic vectors drawn from a Gaussian with the corpus's mean and covariance (`corpus_like`): MLE {ids['synthetic']['mle']:.1f} / TwoNN {ids['synthetic']['twonn']:.1f}."]
    return L


def scale_report(r: dict) -> str:
    "The markdown report: after beside before, per size; the targets; the 1M row."
    L = ["doc_search and every search time below: the store's leg cache off (`legs.LEG_CACHE` = 0), so every query's legs are computed, none answered from the cache (which answers a repeated query's legs, and would make a loop over the same queries measure it).", '',
         '| size | chunks | build (s) | build s per 100k | open + first query (s) | doc_search p50 / p95 (ms) | kw all p50 (ms) | on disk (MB) | beyond text (KB/chunk) | before: chunks, build, open+first, p50/p95, kw all p50, MB |',
         '|---|---|---|---|---|---|---|---|---|---|']
    for x in r['rows']:
        b = BEFORE.get(x['k']); beyond = (x['disk_bytes'] - x['text_bytes']) / x['chunks'] / 1024
        L.append(f"| {x['k']}× | {x['chunks']:,} | {x['build_s']:.1f} | {x['build_s'] / x['chunks'] * 1e5:.1f} | {x['open_first_s']:.2f} | "
                 f"{x['any']['median_ms']:.2f} / {x['any']['p95_ms']:.2f} | {x['all']['median_ms']:.2f} | {x['disk_bytes'] / 1e6:.0f} | {beyond:.1f} | "
                 + (f"{b[0]:,}, {b[1]} s, {b[2]} s, {b[3]}/{b[4]} ms, {b[5]} ms, {b[6]} MB |" if b else '– |'))
    rows = r['rows']
    if all(x.get('phases') for x in rows):
        L += ['', "The build by phase, seconds per 100k chunks (each phase's function timed while the store is built): the tree (`build_tree`), the chunks (`node_chunks`) "
                  "(both made in another process, beside the writes, where `add_docs` forks one: not timed here, –, and the writer's waits for them counted in the rest), "
                  "the sync (`FlatStore.sync`: SQLite's rows and the tree's nodes, the FTS5 index and its commit), reading the postings back from FTS5 at close (`postings_arrays`), "
                  "the HNSW index (made on a thread of its own while the postings are read: how much of it ran beside them is given apart), and the rest (opening the store, each document's text and heading paths, reading the snapshot and saving its arrays at close):", '',
              '| size | chunks | tree | chunks | sync | postings | HNSW | of it beside the postings | rest | build |', '|---|---|---|---|---|---|---|---|---|---|']
        per = lambda x, v: f"{v / x['chunks'] * 1e5:.1f}"
        L += [f"| {x['k']}× | {x['chunks']:,} | " + ' | '.join('–' if x['phases'][k] is None and x.get('forked') else per(x, x['phases'][k] or 0.0) for k in PHASES)
              + f" | {per(x, x.get('beside', 0.0))} | {per(x, x['build_s'] - sum(v or 0.0 for v in x['phases'].values()) + x.get('beside', 0.0))} | {per(x, x['build_s'])} |" for x in rows]
    if len(rows) > 1:
        a, z = rows[0], rows[-1]
        L += ['', f"Build growth from {a['chunks']:,} to {z['chunks']:,} chunks: {z['build_s'] / a['build_s']:.1f}× the time for {z['chunks'] / a['chunks']:.1f}× the chunks "
                  f"(linear within 2×: {'met' if z['build_s'] / a['build_s'] <= 2 * z['chunks'] / a['chunks'] else '**not met**'})."]
    kk = [x for x in rows if x.get('kernels')]
    if kk:
        L += ['', f"The keyword leg's kernels (`keyword.KW_KERNEL`), side by side on each store: `doc_search` (kw 'any') with numpy's and with the compiled one (numba, the `fast` extra), "
                  f"on one thread (`keyword.PARALLEL_FROM` off), the kernels alternating {kk[0]['kernels']['rounds']} times over the queries, each pass the first on the store opened afresh (no record, node, word, term's parts or leg read before it; the kernels loaded); medians over the rounds. "
                  "The tables above use the store's default, 'auto': numpy below `KW_COMPILED_FROM` rows, the compiled kernel from there (its search times taken once it is loaded):", '',
              '| size | chunks | numpy p50 / p95 (ms) | compiled p50 / p95 (ms) | p50 ratio | same hits |', '|---|---|---|---|---|---|']
        L += [f"| {x['k']}× | {x['chunks']:,} | {x['kernels']['numpy']['median_ms']:.2f} / {x['kernels']['numpy']['p95_ms']:.2f} | {x['kernels']['numba']['median_ms']:.2f} / {x['kernels']['numba']['p95_ms']:.2f} | "
              f"{x['kernels']['numba']['median_ms'] / x['kernels']['numpy']['median_ms']:.2f}× | {x['kernels']['same']} of {x['kernels']['n']} |" for x in kk]
    elif rows: L += ['', "The keyword leg's compiled kernel: not measured (numba is not installed: the `fast` extra)."]
    ll = [x for x in rows if x.get('legs')]
    if ll:
        L += ['', f"A search on one thread, and on two (`keyword.PARALLEL_FROM`: from {lkeyword.PARALLEL_FROM:,} rows the store makes its two legs at once, and the compiled keyword leg its later terms' parts beside its first; the tables above but the kernels' use that default), "
                  f"side by side on each store: `doc_search` (kw 'any'), the two alternating {ll[0]['legs']['rounds']} times over the queries, each pass the first on the store opened afresh, as above; medians over the rounds:", '',
              '| size | chunks | one thread p50 / p95 (ms) | two threads p50 / p95 (ms) | p50 ratio | same hits |', '|---|---|---|---|---|---|']
        L += [f"| {x['k']}× | {x['chunks']:,} | {x['legs']['one']['median_ms']:.2f} / {x['legs']['one']['p95_ms']:.2f} | {x['legs']['two']['median_ms']:.2f} / {x['legs']['two']['p95_ms']:.2f} | "
              f"{x['legs']['two']['median_ms'] / x['legs']['one']['median_ms']:.2f}× | {x['legs']['same']} of {x['legs']['n']} |" for x in ll]
    bb = [x for x in rows if x.get('busy')]
    if bb:
        b0 = bb[0]['busy']
        L += ['', f"A busy machine: hybrid `doc_search` (kw 'any') with the machine as it is ('idle': no process of this benchmark's but the search) and with {b0['others']} other processes busy on the cores (each a Python loop), side by side on each store, "
                  f"alternating {b0['rounds']} times over the queries, each pass the first on the store opened afresh; medians over the rounds (the store's query-time vector product runs on one BLAS thread, `encode.one_thread`). Target: busy within 1.5× of idle:", '',
              '| size | chunks | idle p50 / p95 (ms) | busy p50 / p95 (ms) | p50 ratio | within 1.5× |', '|---|---|---|---|---|---|']
        L += [f"| {x['k']}× | {x['chunks']:,} | {x['busy']['idle']['median_ms']:.2f} / {x['busy']['idle']['p95_ms']:.2f} | {x['busy']['busy']['median_ms']:.2f} / {x['busy']['busy']['p95_ms']:.2f} | "
              f"{(ratio := x['busy']['busy']['median_ms'] / x['busy']['idle']['median_ms']):.2f}× | {'yes' if ratio <= 1.5 else '**no**'} |" for x in bb]
    vv = [x for x in rows if x.get('verify')]
    if vv:
        L += ['', f"The snapshot's checksums: a new store object opening the saved snapshot and answering its first query with each file's CRC-32 checked (`snapshot.VERIFY`, the default: a damaged file is caught before it answers) and unchecked, "
                  f"alternating {vv[0]['verify']['rounds']} times in one process (the files in the page cache for both); medians:", '',
              '| size | chunks | checked (s) | unchecked (s) | cost (s) | ratio |', '|---|---|---|---|---|---|']
        L += [f"| {x['k']}× | {x['chunks']:,} | {x['verify']['checked_s']:.3f} | {x['verify']['unchecked_s']:.3f} | {x['verify']['checked_s'] - x['verify']['unchecked_s']:+.3f} | "
              f"{x['verify']['checked_s'] / x['verify']['unchecked_s']:.2f}× |" for x in vv]
    pp = [x for x in rows if x.get('prefixes')]
    if pp:
        L += ['', "Each prefix's postings read summed (`postings.PREFIX_POSTINGS`, the default: a query word that is an indexed term beginning others reads the postings of all it begins, summed per row when the store was built) "
                  f"and every prefix summed at search (off), side by side on each store: `doc_search` (kw 'any'), the two alternating {pp[0]['prefixes']['rounds']} times over the queries, each pass the first on the store opened afresh, as above; medians over the rounds:", '',
              '| size | chunks | summed at search p50 / p95 (ms) | read summed p50 / p95 (ms) | p50 ratio | same hits |', '|---|---|---|---|---|---|']
        L += [f"| {x['k']}× | {x['chunks']:,} | {x['prefixes']['summed']['median_ms']:.2f} / {x['prefixes']['summed']['p95_ms']:.2f} | {x['prefixes']['read']['median_ms']:.2f} / {x['prefixes']['read']['p95_ms']:.2f} | "
              f"{x['prefixes']['read']['median_ms'] / x['prefixes']['summed']['median_ms']:.2f}× | {x['prefixes']['same']} of {x['prefixes']['n']} |" for x in pp]
    L += ['', f"Targets: open + first query < {TARGETS['open_s']} s at 100k chunks; build linear, ≲{TARGETS['build_s_per_100k']:.0f} s per 100k chunks; "
              f"≲{TARGETS['disk_kb']} KB per chunk on disk beyond the text; doc_search p50 < {TARGETS['p50_100k_ms']} ms at 100k and < {TARGETS['p50_1m_ms']} ms at 1M."]
    z = rows[-1]
    if 'parts' in z:
        L += ['', f"Bytes per chunk on disk by component at {z['chunks']:,} chunks (the chunks' text is {z['text_bytes'] / z['chunks']:.0f} B per chunk, in `SQLite chunks`):", '',
              '| component | B per chunk |', '|---|---|']
        L += [f"| {n} | {b / z['chunks']:.0f} |" for n, b in sorted(z['parts'].items(), key=lambda t: -t[1]) if b >= z['chunks']]
    L += text_section(r)
    L += ['', "**Worst cases, not the store's recall on text.** The replicated stores' own vectors: every chunk's vector has its copies, so HNSW recall@10 against exact search on them "
              "(heading-path vectors, the first 10 of a depth-50 search whose candidates are scored exactly, as the store searches, ties counted as found) measures a graph over identical copies: "
              + '; '.join(f"{x['k']}× {x['hnsw']['recall10']:.3f}{' (index built for this check: the store searches exactly below exact_below)' if x['hnsw']['forced'] else ''}"
                          for x in rows if 'hnsw' in x) + '.']
    wide = [x for x in rows if len(x.get('hnsw', {}).get('by_width', {})) > 1]
    if wide:
        L += ['', 'HNSW search width (usearch `expansion_search`; the store’s is `vectors.HNSW_WIDTH`) against recall@10 and the depth-50 search’s p50, at each size above `exact_below`:', '',
              '| size | chunks | ' + ' | '.join(f"width {ef}{' (the store’s)' if ef == wide[0]['hnsw'].get('width') else ''}" for ef in wide[0]['hnsw']['by_width']) + ' |', '|---|---|' + '---|' * len(wide[0]['hnsw']['by_width'])]
        L += [f"| {x['k']}× | {x['chunks']:,} | " + ' | '.join(f"{y['recall10']:.3f}, {y['search']['median_ms']:.2f} ms" for y in x['hnsw']['by_width'].values()) + ' |' for x in wide]
    for key, on in (('types', "on the same vectors (replicated copies: a worst case)"), ('distinct', "on as many vectors none of which is a copy, drawn from a Gaussian with the corpus's distinct vectors' mean and covariance (`corpus_like`: a synthetic worst case, its intrinsic dimension given above)")):
        tt = [x for x in rows if key in x]
        if not tt: continue
        ts = list(tt[0][key]['types'])
        L += ['', f"HNSW indexes built in other ways, side by side {on}, at each size above `exact_below`: the store's own (`vectors.HNSW_DTYPE` {lvectors.HNSW_DTYPE}, `vectors.HNSW_ADD` {lvectors.HNSW_ADD}, usearch's `expansion_add`: how wide the search that inserts each vector is), one keeping float32, and ones inserting with a narrower search. Each: build (median of {tt[0][key]['repeats']}, the variants alternating), bytes per vector on disk, the depth-50 search's p50 with its candidates scored exactly (`hnsw_top`), recall@10:", '',
              '| size | chunks | ' + ' | '.join(ts) + ' |', '|---|---|' + '---|' * len(ts)]
        L += [f"| {x['k']}× | {x['chunks']:,} | " + ' | '.join(f"{y['build_s']:.1f} s, {y['bytes_per_vector']:.0f} B, {y['search']['median_ms']:.2f} ms, {y['recall10']:.3f}" for y in x[key]['types'].values()) + ' |' for x in tt]
    m = r['million']
    if m:
        w = '; '.join(f"width {ef}{' (the store’s)' if ef == m.get('width') else ''}: p50 / p95 {x['search']['median_ms']:.2f} / {x['search']['p95_ms']:.2f} ms, recall@10 {x['recall10']:.3f}"
                      for ef, x in m['by_width'].items())
        built = f"built in {m['add_s']:.0f} s" if m['add_s'] is not None else 'loaded from data/cache (built by an earlier run)'
        L += ['', f"1M-vector search, **a synthetic worst case, not the store's recall** ({m['n']:,} synthetic unit vectors with the corpus vectors' mean and covariance, dim {m['dim']}; HNSW as the store builds it "
                  f"but with expansion_add {m['expansion_add']} (the store's is {lvectors.HNSW_ADD}), {built}; depth-{m['depth']} searches for {m['queries']} real query vectors): {w}."]
    else: L += ['', '1M-vector search: not run (`--million`).']
    k = r.get('million_kw')
    if k:
        L += ['', f"1M-chunk keyword leg (the corpus's postings {k['copies']}× over: {k['rows']:,} rows, {k['postings']:,} postings; `doc_search`'s keyword leg alone, kw 'any', depth 50, "
                  f"{k['queries']} queries): p50 / p95 {k['search']['median_ms']:.2f} / {k['search']['p95_ms']:.2f} ms. "
                  + (f"The {big['k']}× store above is a 1M-chunk store built whole ({big['chunks']:,} chunks): its `doc_search` row is the 1M target's measure, and this leg the better part of it."
                     if (big := max(rows, key=lambda x: x['chunks'], default=None)) and big['chunks'] >= 1_000_000 else
                     "A 1M-chunk store was not built here (`--sizes 691` builds one): with the vector leg's time above and fusion and spans (about 1 ms at every size above), this is the better part of what `doc_search` would take at 1M chunks.")]
        c = k.get('kernels')
        if c: L[-1] += (f" Its kernels side by side (alternating {c['rounds']} times, each pass with no term's parts kept at its start; medians): numpy p50 / p95 {c['numpy']['median_ms']:.2f} / {c['numpy']['p95_ms']:.2f} ms, "
                        f"compiled {c['numba']['median_ms']:.2f} / {c['numba']['p95_ms']:.2f} ms ({c['numba']['median_ms'] / c['numpy']['median_ms']:.2f}×), the same leg for {c['same']} of {c['n']} queries.")
        p = k.get('prefixes')
        if p: L[-1] += (f" Its prefixes' postings read summed (the default) and every prefix summed at search, side by side (alternating {p['rounds']} times, each pass with no term's parts kept at its start; medians): summed at search p50 / p95 {p['summed']['median_ms']:.2f} / {p['summed']['p95_ms']:.2f} ms, "
                        f"read summed {p['read']['median_ms']:.2f} / {p['read']['p95_ms']:.2f} ms ({p['read']['median_ms'] / p['summed']['median_ms']:.2f}×), the same leg for {p['same']} of {p['n']} queries.")
        b = k.get('legs')
        if b: L[-1] += (f" With the 1M-vector search above at the store's width as its vector leg (other rows than the keyword leg's, which does not matter for time), the two legs of each query on one thread, and on two as `search` makes them from `PARALLEL_FROM` rows (the legs at once, and the keyword leg's later terms' parts beside its first) "
                        f"(alternating {b['rounds']} times, each pass with no term's parts kept at its start; medians): one thread p50 / p95 {b['one']['median_ms']:.2f} / {b['one']['p95_ms']:.2f} ms, two threads {b['two']['median_ms']:.2f} / {b['two']['p95_ms']:.2f} ms ({b['two']['median_ms'] / b['one']['median_ms']:.2f}×).")
    v = r.get('precision')
    if v:
        L += ['', f"The stored vectors' precision, for the disk decision (each chunk keeps two float32 vectors of {v['dim']} numbers twice, in SQLite's row and in the snapshot): exact vector search over the corpus's {v['rows']:,} chunks (heading path + text) with the vectors kept as float32, as float16, and as 8-bit integers with one scale per vector, {v['queries']} queries; against float32, the share of queries whose top {v['k']} is the same in order, the same chunks in any order, and the same first chunk, and the gold (`score_text`: a returned chunk holding the query's text) found at the same rank or not; r@1, r@10 and MRR@{v['k']} over all {v['queries']} queries, and MRR's difference from float32's, paired (`compare`: 95% interval):", '',
              '| vectors kept as | same top 10, in order | same top 10, any order | same first | gold rank moved | r@1 | r@10 | MRR | MRR − float32 [95% interval] |', '|---|---|---|---|---|---|---|---|---|']
        for t, x in v['by_type'].items():
            c, sc = x['compare'], x['score']
            L.append(f"| {t} | " + (f"{x['order']:.3f} | {x['members']:.3f} | {x['first']:.3f} | {x['moved']} of {v['queries']} | " if c else '– | – | – | – | ')
                     + f"{sc['r1']:.3f} | {sc['r10']:.3f} | {sc['mrr']:.4f} | " + (f"{c['delta']:+.4f} [{c['lo']:+.4f}, {c['hi']:+.4f}] |" if c else '– |'))
    L += ['', f"{r['queries']} queries (verbatim sentences and their short variants), query vectors given. Machine: {r['machine']}."]
    return '\n'.join(L)
