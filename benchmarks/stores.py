"""The store benchmark: litebench's `TreeStore` against litesearch (the peer), on the same pages, LSA model and query vectors.

What is timed:
- build: a fresh store file and `add_doc` for every document, the median of `repeats` builds after an untimed one.
  Embedding is excluded: every text is embedded once with LSA beforehand (`Precomputed`).
- search: each operation on every query, in `rounds` passes after `warmup` untimed queries, each query's best pass
  kept; median and 95th percentile over the queries, in ms, with the query's vector precomputed.
Each side runs in a fresh process, so each peak memory is its own."""
from __future__ import annotations
import copy, pickle, statistics, subprocess, sys, tempfile, time
from pathlib import Path
import numpy as np
from litebench.core import words
from litebench.encode import LSA
from litebench.pdf import pdf_pages
from litebench.queries import verbatim_queries, derive, term_df
try: from litebench.terms import common_terms
except ImportError: from litebench.store import common_terms   # an older checkout (the scale benchmark's paired side)
from litebench.tree import build_tree, node_chunks
from litebench.treestore import TreeStore
import peer
from ingest import machine, tree_and_chunks
from peer_run import peer_speed, INSTALL
from timing import time_calls, ms_stats, rss_mib

HERE = Path(__file__).resolve().parent
TARGETS = dict(build=3.0, doc_search=4.0, doc_search_ms=1.0, aim=10.0)   # the issue's: build ≥3×, doc_search ≥4× and < 1 ms, aim 10×


class Precomputed:
    "An encoder that answers from vectors computed once, so a timed build measures the store, not the model."
    def __init__(self, encoder):   # the real encoder (name, fingerprint, dim, encode)
        self.encoder, self.name, self.fingerprint, self.dim = encoder, encoder.name, encoder.fingerprint, encoder.dim
        self.vecs, self.misses = {}, 0

    def encode(self, texts: list) -> np.ndarray:
        "The vectors of `texts`, embedding (and counting) only those not seen before."
        new = [t for t in dict.fromkeys(texts) if t not in self.vecs]
        if new and self.encoder is None: raise KeyError(f'{len(new)} texts have no precomputed vector, e.g. {new[0][:60]!r}')
        if new: self.vecs.update(zip(new, self.encoder.encode(new))); self.misses += len(new)
        return np.stack([self.vecs[t] for t in texts]) if len(texts) else np.zeros((0, self.dim), np.float32)

    def frozen(self):
        "A copy without the model: lookups only, an unseen text raises `KeyError`."
        f = copy.copy(self); f.encoder, f.vecs = None, dict(self.vecs)
        return f


def bench_queries(docs,          # the documents' `Pages`
                  texts,         # the chunk texts, for the word frequencies of the short variants
                  n: int = 100,  # verbatim sentences sampled
                  seed: int = 0  # seed of the sampling
                 ) -> list:
    "`n` verbatim sentences of the corpus and their short (degraded: commonest half of the words) variants."
    qs = verbatim_queries(docs, n, seed)
    return [q.text for q in qs + derive(qs, df=term_df(texts))]


def store_inputs(files,                 # PDF files
                 n_queries: int = 100,  # verbatim queries (each also gives a short variant)
                 dim: int = 256,        # LSA dimensions
                 seed: int = 0) -> dict:  # seed of LSA and of the query sampling
    "Pages, an LSA fitted on the tree's chunks (timed) behind `Precomputed` (filled by one build), queries and their vectors."
    docs = [pdf_pages(f) for f in files]
    texts = [c.text for d in docs for c in node_chunks(d, build_tree(d))]
    LSA(dim=2).fit(['one two', 'three four', 'five six'])   # untimed: the first fit imports scikit-learn
    t0 = time.perf_counter(); lsa = LSA(dim=dim, seed=seed).fit(texts); fit_s = time.perf_counter() - t0
    queries, enc = bench_queries(docs, texts, n_queries, seed), Precomputed(lsa)
    warm = TreeStore(':memory:', enc)
    for d in docs: warm.add_doc(d)
    warm.close()
    return dict(docs=docs, enc=enc, queries=queries, qvecs=lsa.encode(queries), lsa_fit=dict(s=fit_s, texts=len(texts)))


def store_ops(s: TreeStore) -> dict:
    "litebench's timed operations on a built tree store, each `f(q, qv)`, with their defaults."
    return {'keyword (any)': lambda q, v: s.search(q, mode='keyword', kw='any', qvec=v),
            'keyword (all)': lambda q, v: s.search(q, mode='keyword', kw='all', qvec=v),
            'vector': lambda q, v: s.search(q, mode='vector', qvec=v),
            'hybrid': lambda q, v: s.search(q, mode='hybrid', qvec=v),
            'doc_search': lambda q, v: s.doc_search(q, spans=True, qvec=v),
            'sections': lambda q, v: s.sections(q, qvec=v)}


def leg_ops(s: TreeStore, depth: int = 50, max_df: float = 0.2) -> dict:
    "The legs of a hybrid search, timed alone with the arguments `search` gives them (the store's internal leg methods)."
    return {'keyword leg': lambda q, v: s._keyword(q, 'any', True, depth, None, None, max_df),
            'keyword leg, max_df=1': lambda q, v: s._keyword(q, 'any', True, depth, None, None, 1.0),
            'keyword leg, SQLite bm25': lambda q, v: s._keyword(q, 'any', True, depth, None, None, max_df, engine='fts5'),
            'vector leg': lambda q, v: s._vector(np.asarray(v, np.float32), True, depth, None, None)}


def shares(ops: dict) -> dict:
    "Each part's share of a `doc_search`'s mean time (means add up, medians do not): legs, fusion and hits, spans."
    kw, vec = ops['keyword leg']['mean_ms'], ops['vector leg']['mean_ms']
    hyb, ds = ops['hybrid']['mean_ms'], ops['doc_search']['mean_ms']
    parts = {'keyword leg': kw, 'vector leg': vec, 'fusion and hits': hyb - kw - vec, 'spans': ds - hyb}
    parts = {k: max(v, 0.0) for k, v in parts.items()}
    tot = sum(parts.values()) or 1.0
    return {k: v / tot for k, v in parts.items()}


def _top(s, q, v, mode, max_df, limit):
    return {(h.chunk.doc, h.chunk.start, h.chunk.end, h.chunk.node) for h in s.search(q, mode=mode, kw='any', max_df=max_df, qvec=v, limit=limit)}


def max_df_effect(s: TreeStore, queries, qvecs, lo: float = 0.2, hi: float = 1.0, limit: int = 10, min_terms: int = 3) -> dict:
    "How often the top-`limit` changes between `max_df=lo` and `max_df=hi` ('any' mode), and how often common terms are spared."
    out = {}
    for mode in ('keyword', 'hybrid'):
        pairs = [(_top(s, q, v, mode, lo, limit), _top(s, q, v, mode, hi, limit)) for q, v in zip(queries, qvecs)]
        out[mode] = dict(changed=float(np.mean([a != b for a, b in pairs])), overlap=float(np.mean([len(a & b) / max(len(b), 1) for a, b in pairs])))
    m = s.mem
    spared = [common_terms(q, m.df, m.n, lo, min_terms) != {t for t in words(q) if m.df.get(t, 0) > lo * m.n} for q in queries]
    return dict(out, spared=float(np.mean(spared)), n=len(queries))


def build_parts(docs, repeats: int = 5) -> dict:
    "Median seconds of `build_tree` and of `node_chunks` over every document: the parts of a build before the store."
    runs = [tree_and_chunks(docs)[:2] for _ in range(repeats)]
    return dict(tree_s=statistics.median(r[0] for r in runs), chunks_s=statistics.median(r[1] for r in runs))


def _builds(docs, enc, folder, repeats) -> tuple:
    "`repeats + 1` builds into fresh files: (seconds of each, the last store, texts embedded after the first)."
    secs, seen = [], None
    for i in range(repeats + 1):
        if i == 1: seen = enc.misses
        t0 = time.perf_counter(); s = TreeStore(Path(folder) / f'tree{i}.sqlite', enc)
        for p in docs: s.add_doc(p)
        secs.append(time.perf_counter() - t0)
        if i < repeats: s.close()
    return secs, s, enc.misses - (seen or 0)


def store_side(docs, enc, queries, qvecs, repeats: int = 5, warmup: int = 20, rounds: int = 3) -> dict:
    "litebench's side: median build of `repeats` (after one untimed build), then each operation timed over `queries`."
    base = rss_mib()
    with tempfile.TemporaryDirectory() as d:
        builds, s, embedded = _builds(docs, enc, d, repeats)
        t0 = time.perf_counter(); s.mem, s.tmem, s.mem.postings; load = time.perf_counter() - t0
        args = list(zip(queries, qvecs))
        ops = {k: ms_stats(time_calls(f, args, warmup, rounds)) for k, f in {**store_ops(s), **leg_ops(s)}.items()}
        out = dict(chunks=len(s), nodes=len(s.tmem.nodes), embedded_when_timed=embedded, build_s=float(np.median(builds[1:])),
                   builds=builds[1:], **build_parts(docs, repeats), load_s=load, ops=ops, shares=shares(ops), max_df=max_df_effect(s, queries, qvecs),
                   rss_base_mib=base['now'], peak_rss_mib=rss_mib()['peak'])
        s.close()
    return out


_CHILD = ('import importlib, pickle, sys; sys.path.insert(0, sys.argv[3]); m, f, kw = pickle.load(open(sys.argv[1], "rb")); '
          'pickle.dump(getattr(importlib.import_module(m), f)(**kw), open(sys.argv[2], "wb"))')


def in_fresh_process(fn, **kw):
    "Run the module-level function `fn(**kw)` of a module in this folder in a fresh Python process; return its result."
    with tempfile.TemporaryDirectory() as d:
        a, b = Path(d) / 'in.pkl', Path(d) / 'out.pkl'
        a.write_bytes(pickle.dumps((fn.__module__, fn.__name__, kw)))
        r = subprocess.run([sys.executable, '-c', _CHILD, str(a), str(b), str(HERE)], capture_output=True, text=True)
        if r.returncode: raise RuntimeError(f'{fn.__name__} failed in a fresh process:\n{r.stderr[-3000:]}')
        return pickle.loads(b.read_bytes())


def store_speed(files,                  # PDF files
                repeats: int = 5,       # timed builds (after one untimed)
                warmup: int = 20,       # untimed queries before each operation is timed
                rounds: int = 3,        # timed passes over the queries; each query's best is kept
                n_queries: int = 100,   # verbatim queries sampled (each also gives a short variant)
                dim: int = 256,         # LSA dimensions
                seed: int = 0,          # seed of LSA and of the query sampling
                python=None,            # the benchmark venv's Python (default: `peer_run.bench_python()`)
                hnsw: bool = True       # litesearch's HNSW index on, as it ships
               ) -> dict:
    "Build and search times of litebench's tree store (in a fresh process) and, on the same inputs, of litesearch's."
    inp = store_inputs(files, n_queries, dim, seed)
    kw = dict(docs=inp['docs'], queries=inp['queries'], qvecs=inp['qvecs'], repeats=repeats, warmup=warmup, rounds=rounds)
    lite = in_fresh_process(store_side, enc=inp['enc'].frozen(), **kw)
    other = peer_speed(enc=inp['enc'], python=python, hnsw=hnsw, **kw)
    return dict(files=len(files), pages=sum(len(d) for d in inp['docs']), queries=len(inp['queries']), repeats=repeats, warmup=warmup,
                rounds=rounds, dim=inp['enc'].dim, lsa_fit=inp['lsa_fit'], lite=lite, peer=other, machine=machine())


def _ms(o, k) -> str: return f"{o[k]['median_ms']:.3f} | {o[k]['p95_ms']:.3f}" if k in o else '– | –'
def _met(ok: bool) -> str: return 'met' if ok else '**not met**'


def ratio_table(L: dict, P: dict | None) -> list:
    "The table's lines: build and every operation, litebench's median | p95, litesearch's, and the ratio of the medians."
    po, bl, bp = (P or {}).get('ops', {}), L['build_s'], (P or {}).get('build_s')
    rows = ['| operation | litebench median | p95 | litesearch median | p95 | ratio |', '|---|---|---|---|---|---|',
            f"| build (s) | {bl:.3f} | – | {f'{bp:.3f}' if bp else '–'} | – | {f'{bp / bl:.1f}×' if bp else '–'} |"]
    for k, v in L['ops'].items():
        ratio = f"{po[k]['median_ms'] / v['median_ms']:.1f}×" if k in po else '–'
        rows.append(f'| {k} | {_ms(L["ops"], k)} | {_ms(po, k)} | {ratio} |')
    return rows


def peer_lines(L: dict, P: dict, targets: dict = TARGETS) -> list:
    "What the report says of the peer: its builds, its HNSW index and the targets; or why it was not run."
    mine = f"Builds: litebench best {min(L['builds']):.3f} s of {len(L['builds'])}"
    if 'not_run' in P: return [mine + '.', '', f"litesearch: not run: {P['not_run']}."]
    bl, lo = L['build_s'], L['ops']['doc_search']['median_ms']
    rb, rd = P['build_s'] / bl, P['ops']['doc_search']['median_ms'] / lo
    hn = (f"litesearch builds a usearch HNSW index at ingest{'' if P['hnsw'] else ' (switched off here)'}; its `doc_search` searches vectors exactly."
          + (f" Without that index its build takes {P['build_s_no_hnsw']:.3f} s ({P['build_s_no_hnsw'] / bl:.1f}× litebench's)." if P.get('build_s_no_hnsw') else ''))
    return [f"{mine}, litesearch best {min(P['builds']):.3f} s ({min(P['builds']) / min(L['builds']):.1f}× litebench's best).",
            '', hn, '', f"Targets: ingest ≥ {targets['build']:g}× faster: {_met(rb >= targets['build'])} ({rb:.1f}×). "
            f"Hybrid doc_search ≥ {targets['doc_search']:g}× faster: {_met(rd >= targets['doc_search'])} ({rd:.1f}×); "
            f"median under {targets['doc_search_ms']:g} ms: {_met(lo < targets['doc_search_ms'])} ({lo:.3f} ms). "
            f"Aim {targets['aim']:g}×: build {_met(rb >= targets['aim'])}, doc_search {_met(rd >= targets['aim'])}."]


def lite_lines(L: dict) -> list:
    "What the report says of litebench's side: the parts of a build, of a `doc_search`, the keyword leg's variants, `max_df`."
    sh, mx, o, bl = L['shares'], L['max_df'], L['ops'], L['build_s']
    leg = lambda k: f"{o[k]['median_ms']:.3f} ms ({o[k]['p95_ms']:.3f} p95)"
    return [f"A litebench build: tree {L['tree_s'] / bl:.0%}, chunks {L['chunks_s'] / bl:.0%}, store writes (hashing, SQLite rows, FTS5) {(bl - L['tree_s'] - L['chunks_s']) / bl:.0%}.",
            '', "Where a litebench `doc_search` spends its time (share of the mean): " + ', '.join(f'{k} {v:.0%}' for k, v in sh.items()) + '. '
            f"The keyword leg takes {leg('keyword leg')} with terms in more than 20% of chunks dropped, {leg('keyword leg, max_df=1')} with every term OR-ed, "
            f"{leg('keyword leg, SQLite bm25')} when SQLite ranks (engine='fts5', the reference); 'all' mode {o['keyword (all)']['median_ms']:.3f} ms; "
            f"the vector leg {o['vector leg']['median_ms']:.3f} ms. Loading the search state (vectors, chunks, keyword postings) into memory on first use takes {L['load_s']:.3f} s (not in the build).",
            '', f"max_df: dropping terms found in more than 20% of chunks changes the top 10 of {mx['keyword']['changed']:.0%} of keyword queries "
            f"(mean overlap {mx['keyword']['overlap']:.2f}) and of {mx['hybrid']['changed']:.0%} of hybrid queries (overlap {mx['hybrid']['overlap']:.2f}); "
            f"{mx['spared']:.0%} of the queries keep fewer than 3 terms after dropping, and then the 3 rarest are kept."]


def store_report(r: dict, targets: dict = TARGETS) -> str:
    "A short markdown report of a `store_speed` result: the setup, the ratio table, the peer's lines, litebench's lines, memory."
    L, P = r['lite'], r['peer']
    ran = 'not_run' not in P
    head = (f"Store benchmark: {r['files']} PDFs, {r['pages']} pages; litebench's tree store holds {L['chunks']} chunks ({L['nodes']} nodes)"
            + (f", litesearch {P['version']}'s {P['chunks']} chunks ({P['nodes']} nodes)." if ran else '.')
            + f" {r['queries']} queries (verbatim sentences and their short variants), LSA {r['dim']}-d vectors precomputed for both sides."
            + f" Build: median of {r['repeats']} builds after an untimed one, embedding excluded. Search: each query's best of {r['rounds']} passes after {r['warmup']} untimed queries, query vector precomputed; median | p95 over the queries in ms. One core ({r['machine']}).")
    mem = (f"Peak resident memory: litebench {L['peak_rss_mib']:.0f} MiB ({L['rss_base_mib']:.0f} after imports)"
           + (f"; litesearch {P['peak_rss_mib']:.0f} MiB ({P['rss_base_mib']:.0f} after imports)." if ran else '.'))
    fit = f"Fitting LSA ({r['dim']}-d) on litebench's {r['lsa_fit']['texts']} chunk texts takes {r['lsa_fit']['s']:.3f} s, once, before the builds (not in them)."
    note = f'litesearch needs fastcore 2, nbdev 2.4.14 fastcore < 1.13, so the peer runs in its own venv: `{INSTALL}`.'
    return '\n'.join([head, '', *ratio_table(L, P if ran else None), '', *peer_lines(L, P, targets), '', *lite_lines(L), '', fit, '', mem, '', note])
