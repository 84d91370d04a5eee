"""The latency benchmark: what a user waits for, before and after, measured in one run.

Two sides, each run in fresh processes with its own litebench first on the path: 'before', another commit of this
repository (5d65926 by default, unpacked with `git archive`), and 'after', this checkout. BLAS is left as a user has it
(no `*_NUM_THREADS` variable unless the caller set one): what it does with its threads is one of the things measured.

On each side:
- queries on a tree store of the corpus, each query timed once (a user asks once) after `warmup` untimed ones:
  `doc_search` and `sections` with the query's vector given (the store alone), with LSA embedding the query, and with
  MiniLM embedding it (its chunk vectors computed beforehand, from the embedding cache); the SQL statements one call
  runs; the LSA fit;
- commands, warm (after an untimed run that fills the stores and the embedding cache): `litebench eval doc` (LSA) and
  `litebench bench run --encoder minilm`, wall and CPU seconds, and whether torch was imported.
On the after side alone, each change by itself on the same data: the exact vector product on BLAS's default threads
and on one; the exact (Gram) SVD of the LSA fit against scikit-learn's randomized one (the fit before) and ARPACK's;
a warm `bench run` with MiniLM loaded up front, as 5d65926 loaded it."""
from __future__ import annotations
import io, json, os, pickle, resource, statistics, subprocess, sys, tarfile, tempfile, time
from pathlib import Path
import numpy as np
from timing import time_calls, ms_stats

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BEFORE = '5d65926'                                                       # the commit before the latency work
BLAS_VARS = ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS')


def loadavg() -> float:
    "The machine's 1-minute load average (Linux), or NaN where it cannot be read."
    try: return float(Path('/proc/loadavg').read_text().split()[0])
    except (OSError, ValueError, IndexError): return float('nan')


def git(*args) -> subprocess.CompletedProcess:
    return subprocess.run(['git', '-C', str(ROOT), *args], capture_output=True)


def before_ok(rev: str) -> str | None:
    "None when `rev` names a commit of this repository or a litebench checkout folder; otherwise what is wrong."
    if (Path(rev) / 'litebench' / '__init__.py').exists(): return None
    if git('rev-parse', '--verify', '--quiet', f'{rev}^{{commit}}').returncode: return f'{rev}: neither a commit of {ROOT} nor a litebench checkout folder'
    return None


def checkout(rev: str, into: Path) -> Path:
    "The litebench checkout `rev` names: a folder as given, or the commit unpacked by `git archive` into `into`."
    if (Path(rev) / 'litebench' / '__init__.py').exists(): return Path(rev).resolve()
    r = git('archive', '--format=tar', rev)
    if r.returncode: raise RuntimeError(f'git archive {rev} failed: {r.stderr.decode(errors="replace").strip()}')
    into.mkdir(parents=True, exist_ok=True)
    tarfile.open(fileobj=io.BytesIO(r.stdout)).extractall(into, filter='data')
    return into


def described(path: Path) -> str:
    "The commit a side runs: this checkout's HEAD (and whether it has uncommitted changes), or the archived commit."
    if path.resolve() != ROOT: return path.name
    head = git('rev-parse', '--short', 'HEAD').stdout.decode().strip()
    dirty = bool(git('status', '--porcelain', '--', 'litebench', 'benchmarks', ':!benchmarks/reports').stdout.strip())   # a report being rewritten is not a change
    return f'{head}{" with uncommitted changes" if dirty else ""}'


def side_env(path: Path, data: Path | None = None) -> dict:
    "The environment of a side's process: its checkout first on the path; its own data folder, when given."
    env = {**os.environ, 'PYTHONPATH': str(path)}
    return {**env, 'LITEBENCH_DATA': str(data)} if data else env


_SIDE = ('import importlib, pickle, sys; sys.path.insert(1, sys.argv[3]); kw = pickle.load(open(sys.argv[1], "rb")); '
         'pickle.dump(getattr(importlib.import_module(kw.pop("module")), kw.pop("fn"))(**kw), open(sys.argv[2], "wb"))')


class SideError(RuntimeError):
    "A side's process failed (e.g. a commit too old for the benchmark's code): reported as one `ERROR:` line, the process's last words in it."


def on_side(path: Path, fn: str, /, module: str = 'latency', named: str | None = None, **kw):
    "Run the function `fn(**kw)` of `module` (a module of this folder) in a fresh process importing the litebench of the checkout `path` (`named` so in an error; default: the path); its result."
    with tempfile.TemporaryDirectory() as d:
        a, b = Path(d) / 'in.pkl', Path(d) / 'out.pkl'
        a.write_bytes(pickle.dumps(dict(fn=fn, module=module, **kw)))
        r = subprocess.run([sys.executable, '-c', _SIDE, str(a), str(b), str(HERE)], capture_output=True, text=True, env=side_env(path), cwd=path)
        if r.returncode:
            last = next((l.strip() for l in reversed(r.stderr.splitlines()) if l.strip()), f'exit status {r.returncode}')
            raise SideError(f'{fn} failed with the litebench of {named or path}: {last}')
        return pickle.loads(b.read_bytes())


def own_litebench(path) -> str:
    "The litebench this process imported, checked to be the checkout `path`'s."
    import litebench
    got = Path(litebench.__file__).resolve()
    if not got.is_relative_to(Path(path).resolve()): raise RuntimeError(f'imported litebench from {got}, not from {path}')
    return str(got)


def minilm():
    "The side's `MiniLM` class: in `models`, or in `encode` in a checkout from before the encoders' rooms."
    import importlib, litebench                      # (by file: an editable install's finder answers for any litebench.* name)
    rooms = (Path(litebench.__file__).parent / 'models.py').exists()
    return importlib.import_module('litebench.models' if rooms else 'litebench.encode').MiniLM


class Prefilled:
    "A real encoder whose vectors for the store's texts were computed beforehand; other texts (queries) go to the model, made on first need."
    name = 'minilm'
    def __init__(self, vecs: dict, fingerprint: str, dim: int):
        self.vecs, self.fingerprint, self.dim, self.model, self.misses = vecs, fingerprint, dim, None, 0

    def encode(self, texts: list) -> np.ndarray:
        "Rows for `texts`: stored ones from the table, all of them from the model when any is missing."
        if all(t in self.vecs for t in texts): return np.stack([self.vecs[t] for t in texts]) if texts else np.zeros((0, self.dim), np.float32)
        if self.model is None:
            self.model = minilm()()
        self.misses += sum(t not in self.vecs for t in texts)
        return self.model.encode(list(texts))


def read_docs(files) -> list:
    from litebench.pdf import pdf_pages
    return [pdf_pages(Path(f)) for f in files]


def built(path, encoder, docs):
    "A tree store at `path` holding `docs`, embedded by `encoder`."
    from litebench.treestore import TreeStore
    s = TreeStore(path, encoder)
    for d in docs: s.add_doc(d)
    return s


def real_vectors(files) -> dict:
    "MiniLM's vectors of every text a tree store of `files` embeds (from the project's embedding cache where it has them)."
    from litebench.encode import cached
    from stores import Precomputed
    MiniLM = minilm()
    own_litebench(ROOT)
    enc = Precomputed(cached(MiniLM()))
    built(':memory:', enc, read_docs(files)).close()
    return dict(vecs=enc.vecs, fingerprint=enc.fingerprint, dim=enc.dim)


def statements(s, f) -> dict:
    "The SQL statements one call `f()` runs on the store `s` (SQLite's trace callback): all of them, and the reads of the store's version."
    seen = []; s.db.set_trace_callback(seen.append)
    try: f()
    finally: s.db.set_trace_callback(None)
    return dict(all=len(seen), version=sum('FROM meta' in x for x in seen))


def timed_ops(s, enc: str, args: list, warmup: int) -> dict:
    "`doc_search` and `sections` on store `s` over `args` (query, vector): with the vector given (each query once, and its best of 3), and with the store embedding the query."
    given = {'doc_search': lambda q, v: s.doc_search(q, qvec=v), 'sections': lambda q, v: s.sections(q, qvec=v)}
    embeds = {'doc_search': lambda q, v: s.doc_search(q), 'sections': lambda q, v: s.sections(q)}
    out = {f'{k}, {enc} vector given': ms_stats(time_calls(f, args, warmup)) for k, f in given.items()}
    out |= {f'{k}, {enc} vector given, best of 3': ms_stats(time_calls(f, args, warmup, rounds=3)) for k, f in given.items()}
    return out | {f'{k}, {enc} embeds the query': ms_stats(time_calls(f, args, warmup)) for k, f in embeds.items()}


def query_side(root: str, files: list, queries: list, real: dict | None = None, warmup: int = 20, isolate: bool = False) -> dict:
    "One side's query latencies (ms, each query once), SQL statements per call and LSA fit; with `isolate`, each change alone."
    from litebench.encode import LSA
    from litebench.tree import build_tree, node_chunks
    lib, load0 = own_litebench(root), loadavg()
    docs = read_docs(files)
    texts = [c.text for d in docs for c in node_chunks(d, build_tree(d))]
    LSA(dim=2).fit(['one two', 'three four', 'five six'])           # untimed: the first fit imports scikit-learn and scipy
    t0 = time.perf_counter(); lsa = LSA(dim=256, seed=0).fit(texts); fit_s = time.perf_counter() - t0
    out = dict(litebench=lib, chunks=len(texts), fit_s=fit_s, lsa_fingerprint=lsa.fingerprint)
    with tempfile.TemporaryDirectory() as d:
        s = built(Path(d) / 'lsa.sqlite', lsa, docs)
        qv = lsa.encode(queries); args = list(zip(queries, qv))
        out['ops'] = timed_ops(s, 'LSA', args, warmup)
        out['sql'] = {k: statements(s, lambda: getattr(s, k)(queries[0], qvec=qv[0])) for k in ('doc_search', 'sections')}
        if real:
            r = built(Path(d) / 'real.sqlite', Prefilled(**real), docs)
            out['real_misses'] = r.encoder.misses                       # store texts the table lacked (0: the same chunks on both sides)
            rv = r.encoder.encode(queries); rargs = list(zip(queries, rv))
            out['ops'] |= timed_ops(r, 'MiniLM', rargs, warmup)
        if isolate: out['alone'] = alone(s, lsa, texts, queries, qv, r if real else None, rv if real else None)
    out['load'] = (load0, loadavg())
    return out


def _between(M, vs, s, queries, limit: bool) -> dict:
    "The exact vector product `M @ v` for each query vector, timed once each, with a keyword search before it as inside a hybrid search."
    from litebench.encode import one_thread
    ms = []
    for q, v in zip(queries, vs):
        s.search(q, mode='keyword')
        t0 = time.perf_counter()
        if limit:
            with one_thread(): M @ v
        else: M @ v
        ms.append((time.perf_counter() - t0) * 1e3)
    return ms_stats(ms)


def _top10(D, Q) -> list:
    return [tuple(np.argsort(-row, kind='stable')[:10]) for row in Q @ D.T]


def svd_compare(lsa, texts, queries) -> dict:
    "The exact Gram fit against scikit-learn's randomized SVD (the fit before, on BLAS's default threads) and ARPACK's: times, singular values, top-10 lists."
    from sklearn.decomposition import TruncatedSVD
    from litebench.encode import gram_svd, l2norm
    X, Xq, k = lsa.tfidf.transform(texts), lsa.tfidf.transform(queries), lsa.dim
    t0 = time.perf_counter(); s, Vt = gram_svd(X, k); gram_s = time.perf_counter() - t0
    t0 = time.perf_counter(); rnd = TruncatedSVD(k, random_state=0).fit(X); rand_s = time.perf_counter() - t0
    t0 = time.perf_counter(); arp = TruncatedSVD(k, algorithm='arpack', random_state=0).fit(X); arpack_s = time.perf_counter() - t0
    fits = {'gram': (s, Vt), 'rand': (rnd.singular_values_, rnd.components_), 'arpack': (arp.singular_values_, arp.components_)}
    emb = {n: (l2norm(X @ V.T), l2norm(Xq @ V.T)) for n, (_, V) in fits.items()}
    top = {n: _top10(D, Q) for n, (D, Q) in emb.items()}
    same = lambda a, b: float(np.mean([x == y for x, y in zip(top[a], top[b])]))
    overlap = lambda a, b: float(np.mean([len(set(x) & set(y)) / 10 for x, y in zip(top[a], top[b])]))
    cos = lambda a: np.abs(np.sum(np.asarray(Vt, np.float64) * np.asarray(fits[a][1], np.float64), axis=1))
    D0, D1 = emb['gram'][0], emb['arpack'][0] * np.sign(np.sum(emb['gram'][0] * emb['arpack'][0], axis=0))   # ARPACK's columns signed as the Gram fit's
    return dict(k=k, gram_s=gram_s, rand_s=rand_s, arpack_s=arpack_s,
                sv_rel={n: float(np.max(np.abs(s - fits[n][0]) / s[0])) for n in ('rand', 'arpack')},
                min_cos={n: float(cos(n).min()) for n in ('rand', 'arpack')}, median_cos_rand=float(np.median(cos('rand'))),
                lead=min(50, k), min_cos_lead_rand=float(cos('rand')[:50].min()),
                max_dvec_arpack=float(np.abs(D0 - D1).max()),
                same_top10={n: same('gram', n) for n in ('rand', 'arpack')}, overlap_top10={n: overlap('gram', n) for n in ('rand', 'arpack')})


def embed_alone(model, queries) -> dict:
    "One query embedded by the sentence-transformers model directly (torch's default threads) and by `encode` (one thread), alternating, each timed once."
    ms = {False: [], True: []}
    for q in queries:
        for one in (False, True):
            t0 = time.perf_counter()
            if one: model.encode([q])
            else: model.load().encode([q], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
            ms[one].append((time.perf_counter() - t0) * 1e3)
    return {k: ms_stats(v) for k, v in ms.items()}


def alone(s, lsa, texts, queries, qv, r=None, rv=None) -> dict:
    "Each change by itself, on the after side: the exact vector product and a query's embedding on default threads and on one, and the SVD fits compared."
    from threadpoolctl import threadpool_info
    blas = [(i['internal_api'], i['num_threads'], Path(i['filepath']).name) for i in threadpool_info() if i['user_api'] == 'blas']
    torch = sys.modules.get('torch')
    M = s.mem.C
    prod = {f'LSA {M.shape[0]}×{M.shape[1]}': {lim: _between(M, qv, s, queries, lim) for lim in (False, True)}}
    if r is not None: prod[f'MiniLM {r.mem.C.shape[0]}×{r.mem.C.shape[1]}'] = {lim: _between(r.mem.C, rv, s, queries, lim) for lim in (False, True)}
    emb = embed_alone(r.encoder.model, queries) if r is not None else None
    return dict(blas=blas, torch_threads=torch.get_num_threads() if torch else None, product=prod, embed=emb, svd=svd_compare(lsa, texts, queries))


_CLI = '''import json, sys
if sys.argv[2] == "minilm":                     # load the model up front, as 5d65926's MiniLM() did
    import litebench, pathlib
    rooms = (pathlib.Path(litebench.__file__).parent / "models.py").exists()   # (before the encoders' rooms: encode)
    mod = "litebench.models" if rooms else "litebench.encode"
    m = __import__(mod, fromlist=["MiniLM"]).MiniLM(); getattr(m, "load", lambda: None)()
from litebench.cli import main
rc = main(sys.argv[3:])
json.dump(dict(rc=rc, torch="torch" in sys.modules, st="sentence_transformers" in sys.modules), open(sys.argv[1], "w"))
sys.exit(rc)'''


def newest_rows(data: Path) -> int | None:
    "Rows of the newest run folder under `data/runs` (its `per_query.jsonl`)."
    runs = sorted((data / 'runs').glob('*/per_query.jsonl'))
    return sum(1 for _ in runs[-1].open()) if runs else None


def cli_time(path: Path, data: Path, args: list, preload: str = '') -> dict:
    "Wall and CPU seconds of `litebench ARGS` in a fresh process on the checkout `path`, its rows, and whether it imported torch."
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / 'out.json'
        r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        p = subprocess.run([sys.executable, '-c', _CLI, str(out), preload, *args], capture_output=True, text=True, env=side_env(path, data), cwd=path)
        wall, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
        info = json.loads(out.read_text()) if out.exists() else dict(rc=p.returncode)
    if info['rc']: info['error'] = (p.stderr.strip().splitlines() or ['?'])[-1][:300]
    return dict(wall_s=wall, cpu_s=r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, rows=newest_rows(data), **info)


def cache_dir() -> Path:
    "The project's embedding cache folder, which both sides share (vectors are keyed by encoder fingerprint and text)."
    env = os.environ.get('LITEBENCH_DATA')
    d = (Path(env) if env else ROOT / 'data') / 'cache'
    d.mkdir(parents=True, exist_ok=True)
    return d


def _median(runs: list) -> dict:
    ok = [r for r in runs if not r['rc']]
    if not ok: return dict(runs[-1], n=0)
    return dict(ok[-1], wall_s=statistics.median(r['wall_s'] for r in ok), cpu_s=statistics.median(r['cpu_s'] for r in ok), n=len(ok))


def cli_speed(sides: dict, folder: Path, tmp: Path, repeats: int = 1, real: bool = True) -> dict:
    "Warm `eval doc` and `bench run --encoder minilm` on each side: one untimed run, then `repeats` timed ones, sides alternating."
    data = {}
    for side in sides:
        data[side] = tmp / f'data-{side}'; data[side].mkdir(parents=True, exist_ok=True)
        (data[side] / 'cache').symlink_to(cache_dir(), target_is_directory=True)
    jobs = {'eval doc': (['eval', 'doc', '--quiet', '--pdfs', str(folder)], {s: '' for s in sides})}
    if real: jobs['bench run'] = (['bench', 'run', '--quiet', '--encoder', 'minilm', '--pdfs', str(folder)], {**{s: '' for s in sides}, 'after, MiniLM loaded up front': 'minilm'})
    out = {}
    for job, (args, variants) in jobs.items():
        for side in sides: cli_time(sides[side], data[side], args)                       # warm-up: stores and cache filled
        runs = {v: [] for v in variants}
        for _ in range(repeats):
            for v, pre in variants.items():
                side = v if v in sides else 'after'
                runs[v].append(cli_time(sides[side], data[side], args, pre))
        out[job] = {v: _median(r) for v, r in runs.items()}
    return out


def latency_speed(files,                 # PDF files
                  repeats: int = 1,      # timed runs of each command (after an untimed one)
                  n_queries: int = 100,  # verbatim queries sampled (each also gives a short variant)
                  warmup: int = 20,      # untimed queries before each operation is timed
                  before: str = BEFORE,  # the commit (or checkout folder) of the 'before' side
                  cli: bool = True,      # also time `eval doc` and a warm `bench run`
                  seed: int = 0) -> dict:
    "Query latencies, SQL statements per call, LSA fit and (with `cli`) warm command times, before and after."
    from litebench.encode import MissingExtra, have
    from litebench.tree import build_tree, node_chunks
    from stores import bench_queries
    from ingest import machine
    docs = read_docs(files)
    texts = [c.text for d in docs for c in node_chunks(d, build_tree(d))]
    queries = bench_queries(docs, texts, n_queries, seed)
    loads = [loadavg()]
    try: have('sentence_transformers', 'minilm'); real, why = on_side(ROOT, 'real_vectors', files=[str(f) for f in files]), None
    except MissingExtra as e: real, why = None, str(e)
    with tempfile.TemporaryDirectory() as tmp:
        sides = {'before': checkout(before, Path(tmp) / 'before'), 'after': ROOT}
        q = {side: on_side(p, 'query_side', root=str(p), files=[str(f) for f in files], queries=queries, real=real, warmup=warmup, isolate=side == 'after')
             for side, p in sides.items()}
        loads.append(loadavg())
        c = cli_speed(sides, Path(files[0]).parent, Path(tmp), repeats, real is not None) if cli else None
        names = {side: described(p) if side == 'after' else (before if p.is_relative_to(Path(tmp)) else str(p)) for side, p in sides.items()}
    loads.append(loadavg())
    user_blas = {v: os.environ[v] for v in BLAS_VARS if v in os.environ}
    return dict(files=len(files), pages=sum(len(d) for d in docs), queries=len(queries), warmup=warmup, repeats=repeats, sides=names,
                query=q, cli=c, real_not_run=why, loads=loads, user_blas=user_blas, machine=machine())


def ratio(a, b) -> str:
    "`a / b` as '12.3×' (how many times faster the after side is), or '–'."
    return f'{a / b:.1f}×' if a and b else '–'


def query_table(Q: dict) -> list:
    "One line per timed query operation: before and after p50 | p95 in ms, and the ratios."
    B, A = Q['before']['ops'], Q['after']['ops']
    rows = ['| query (ms) | before p50 | p95 | after p50 | p95 | ratio p50 | ratio p95 |', '|---|---|---|---|---|---|---|']
    for k in A:
        if k not in B: continue
        b, a = B[k], A[k]
        rows.append(f"| {k} | {b['median_ms']:.3f} | {b['p95_ms']:.3f} | {a['median_ms']:.3f} | {a['p95_ms']:.3f} | {ratio(b['median_ms'], a['median_ms'])} | {ratio(b['p95_ms'], a['p95_ms'])} |")
    return rows


def _cli_cell(r: dict) -> str:
    if r['rc']: return f"failed ({r.get('error', r['rc'])})"
    return f"{r['wall_s']:.1f} / {r['cpu_s']:.1f}"


def call_table(r: dict) -> list:
    "One line per whole-call figure: SQL statements per call, LSA fit, and the warm commands; before, after, ratio."
    Q, C = r['query'], r['cli'] or {}
    B, A = Q['before'], Q['after']
    rows = ['| per call | before | after | ratio |', '|---|---|---|---|']
    for k in ('doc_search', 'sections'):
        b, a = B['sql'][k], A['sql'][k]
        rows.append(f"| SQL statements per `{k}` (of which version reads) | {b['all']} ({b['version']}) | {a['all']} ({a['version']}) | {ratio(b['all'], a['all'])} |")
    rows.append(f"| LSA fit on {A['chunks']} chunks (s) | {B['fit_s']:.2f} | {A['fit_s']:.2f} | {ratio(B['fit_s'], A['fit_s'])} |")
    for job, v in C.items():
        b, a = v['before'], v['after']
        torch = lambda x: 'torch imported' if x.get('torch') else 'no torch'
        what = f"`{job}`{' --encoder minilm' if job == 'bench run' else ''}, warm: wall / CPU s ({b.get('rows')} and {a.get('rows')} rows; before {torch(b)}, after {torch(a)})"
        rows.append(f"| {what} | {_cli_cell(b)} | {_cli_cell(a)} | {ratio(b['wall_s'], a['wall_s']) if not (a['rc'] or b['rc']) else '–'} |")
    return rows


def alone_lines(r: dict) -> list:
    "Each change by itself, measured on the after side."
    A = r['query']['after']['alone']; sv = A['svd']; C = (r['cli'] or {}).get('bench run', {})
    rows = ['| change alone (after side) | without | with | ratio |', '|---|---|---|---|']
    for name, p in A['product'].items():
        d, o = p[False], p[True]
        rows.append(f"| exact vector product, {name}: p50 / p95 ms, default BLAS threads → one | {d['median_ms']:.3f} / {d['p95_ms']:.3f} | {o['median_ms']:.3f} / {o['p95_ms']:.3f} | {ratio(d['median_ms'], o['median_ms'])} / {ratio(d['p95_ms'], o['p95_ms'])} |")
    if A.get('embed'):
        d, o = A['embed'][False], A['embed'][True]
        rows.append(f"| MiniLM embedding one query: p50 / p95 ms, torch's default threads → one | {d['median_ms']:.1f} / {d['p95_ms']:.1f} | {o['median_ms']:.1f} / {o['p95_ms']:.1f} | {ratio(d['median_ms'], o['median_ms'])} / {ratio(d['p95_ms'], o['p95_ms'])} |")
    rows.append(f"| LSA SVD ({sv['k']} dimensions), s: randomized, default threads → exact Gram, one thread | {sv['rand_s']:.2f} | {sv['gram_s']:.2f} | {ratio(sv['rand_s'], sv['gram_s'])} |")
    up = C.get('after, MiniLM loaded up front')
    if up and not up['rc'] and not C['after']['rc']:
        rows.append(f"| warm `bench run --encoder minilm`, wall / CPU s: MiniLM loaded up front → on first uncached text | {_cli_cell(up)} | {_cli_cell(C['after'])} | {ratio(up['wall_s'], C['after']['wall_s'])} |")
    blas = ', '.join(f'{api} {n} threads ({f})' for api, n, f in A['blas']) + (f"; torch {A['torch_threads']} threads" if A.get('torch_threads') else '')
    svd = (f"The exact fit is ARPACK's: singular values within {sv['sv_rel']['arpack']:.1e} of the largest, every singular vector's |cos| with ARPACK's at least {sv['min_cos']['arpack']:.5f}, "
           f"normalised chunk vectors within {sv['max_dvec_arpack']:.1e} once ARPACK's columns are signed alike, and the same top 10 for {sv['same_top10']['arpack']:.0%} of the queries "
           f"(overlap {sv['overlap_top10']['arpack']:.3f}). The randomized fit used before was an approximation: singular values off by up to {sv['sv_rel']['rand']:.1e} of the largest, "
           f"|cos| of its singular vectors with the exact ones at least {sv['min_cos_lead_rand']:.4f} for the {sv['lead']} leading ones, {sv['median_cos_rand']:.2f} in the median over all {sv['k']}, "
           f"the same top 10 for {sv['same_top10']['rand']:.0%} of the queries (overlap {sv['overlap_top10']['rand']:.3f}). ARPACK took {sv['arpack_s']:.1f} s.")
    return rows + ['', f'BLAS in these processes: {blas}.', '', svd]


def latency_report(r: dict) -> str:
    "A markdown report of a `latency_speed` result: the setup, queries before/after, whole calls, and each change alone."
    Q, L = r['query'], r['loads'] + [x for s in r['query'].values() for x in s['load']]
    cli = r['cli'] or {}
    loads = [x for x in L if x == x]
    head = (f"Latency benchmark: before = {r['sides']['before']}, after = {r['sides']['after']}; {r['files']} PDFs, {r['pages']} pages, "
            f"a tree store of {Q['after']['chunks']} chunks; {r['queries']} queries (verbatim sentences and their short variants), each timed once after {r['warmup']} untimed, "
            f"p50 and p95 over the queries in ms. Each side runs in fresh processes with its own litebench; BLAS as a user has it "
            f"({'no *_NUM_THREADS variable set' if not r['user_blas'] else 'set by the caller: ' + ', '.join(f'{k}={v}' for k, v in r['user_blas'].items())}). "
            f"Machine: {r['machine']}; shared: its 1-minute load average ranged {min(loads):.1f} to {max(loads):.1f} during the run"
            + (f"; commands: median of {r['repeats']} warm run{'s' if r['repeats'] != 1 else ''} per side, after an untimed one, sides alternating." if cli else '; commands not timed (--no-cli).'))
    real = [] if not r['real_not_run'] else ['', f"MiniLM rows not run: {r['real_not_run']}."]
    misses = Q['before'].get('real_misses', 0) + Q['after'].get('real_misses', 0)
    notes = ['', "What the settings do: after, the exact vector search at query time, the embedding of a few texts (a query) by MiniLM and the LSA fit's eigendecomposition "
             "run inside `encode.one_thread`: threadpoolctl sets every loaded BLAS library, and torch (when loaded) is set, to one thread for that block, and the previous counts come back after, "
             "under a lock (the setting is process-wide). Before, OpenBLAS split a product of the store's size over every core, and torch a query's forward pass, and their idle threads "
             "had to be woken for each query; on a shared machine whose other core is busy that wait is milliseconds to hundreds of milliseconds. A store's snapshot is now read once per call (one version read, in one read transaction); before, every `.mem` / `.tmem` access read the version. "
             "The LSA basis is kept as one contiguous terms × dimensions array, so embedding a query reads only its terms' rows (before, scikit-learn's transform copied the whole basis per call). "
             "MiniLM loads its model on the first text the cache lacks, so a warm run never imports torch."]
    notes += ['', "Reading the tables: the first two compare the two commits whole, so each figure there holds every other change made between them too "
              "(`eval doc` and `bench run` ask the same rows on both sides, but the runner and its report were rewritten in between); the last table takes one change at a time, "
              "on the after side, with everything else equal. A query timed once is what a user waits for, scheduling delays of a shared machine included (they make most of a p95 "
              "of a few ms); each query's best of 3 is the code's own cost."]
    if misses: notes += ['', f'{misses} store texts were embedded by MiniLM on a side (its chunks differ from those whose vectors were computed beforehand).']
    onnx = ['', "ONNX: not done. onnxruntime is installed here, but the packaged MiniLM weights are safetensors only: an ONNX file would have to be exported with torch "
            "(the legacy exporter fails on this transformers' BertModel, the new one needs onnx and onnxscript, not installed), and would make a new encoder with its own fingerprint "
            "and equality checks. With the lazy load, a warm run already avoids torch; ONNX would only speed up cold embedding and query embedding."]
    return '\n'.join([head, '', *query_table(Q), '', *call_table(r), *real, '', *alone_lines(r), *notes, *onnx])
