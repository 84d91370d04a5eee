"""Every result list the store gives on the default corpus, written to JSON, and two such records compared.

    python tools/same_results.py record OUT.json     # the tree store and a flat store over its chunks (LSA), searched every way
    python tools/same_results.py compare A.json B.json   # the first differences, then `N of N lists equal`; exit 1 on a difference
    python tools/same_results.py rows RUN_A RUN_B        # two bench runs' rows (`per_query.jsonl`), field by field but their times

A record holds, per call, each hit's chunk, ranks and scores (floats as `repr`, so equal means equal to the last bit): `search` in
every mode × keyword mode × engine × fusion, with `docs`/`pages` filters, `rerank`, `held_first`, `adapt`, the compiled keyword
kernels and two threads, `keyword_mode`, the tree store's `doc_search` and `sections`, the same stores reopened from their saved
snapshots, and a copy searched through HNSW (`exact_below=1`, built on one thread so that the graph is the same every build).
"""
from __future__ import annotations
import importlib, json, random, re, shutil, sys, tempfile
from pathlib import Path

EVIL = ['', ' ', '"', '""', "'", '-', ':', '*', '^', 'NEAR', 'NEAR(a b)', 'AND', 'OR', 'NOT', 'a OR', '(', ')', '[x]', '{text}: a',
        'text:database', '^database', 'data*', '-database', '"unterminated', 'a\x00b', '\x1f\x7f', 'ß Ǆ ﬁ', '数据库', '🙂', 'é' * 300,
        'x ' * 2000, '\ud800', 'a\udfffb', '\ud83d\ude42', 'file_name', '＊', '²', 'pre-\nfinancing', 'Member States shall', 'the of and']


def setting(name: str, value):
    "Set the store's setting `name` on the module that defines it (a setting set on another module would do nothing)."
    for m in ('litebench.vectors', 'litebench.keyword', 'litebench.postings', 'litebench.legs', 'litebench.store'):
        try: mod = importlib.import_module(m)
        except ImportError: continue
        if name in vars(mod) and not name.startswith('__'):
            old = getattr(mod, name); setattr(mod, name, value); return mod, old
    raise SystemExit(f'no module defines {name}')


def queries(chunks: list, n: int = 240, seed: int = 0) -> list:
    "`n` queries drawn from the chunks' sentences (seeded): whole sentences, their first words, and a few of their words; then `EVIL`."
    rng, out = random.Random(seed), []
    for c in rng.sample(chunks, n):
        sents = [s for s in re.split(r'(?<=[.;:])\s+', c.text) if len(s.split()) >= 3] or [c.text]
        ws = rng.choice(sents).split()
        kind = len(out) % 3
        out.append(' '.join(ws[:20]) if kind == 0 else ' '.join(ws[:6]) if kind == 1 else ' '.join(rng.sample(ws, min(3, len(ws)))))
    return out + EVIL


def hit(h) -> list:
    "A hit as plain values: its chunk, ranks, scores (repr), terms held, node."
    c = h.chunk
    return [c.doc, list(c.pages), c.start, c.end, c.node, h.rank, repr(h.score), h.kw_rank, h.vec_rank,
            repr(h.kw_score), repr(h.vec_score), h.kw_held, None if h.node is None else h.node.id]


def section(s) -> list:
    return [s.node.id, s.rank, repr(s.score), [hit(h) for h in s.hits]]


def calls(s, tree: bool, qs: list, docs: list) -> dict:
    "Every call on store `s` for queries `qs`: {name: result list}."
    out = {}
    def put(name, f):
        try: out[name] = f()
        except Exception as e: out[name] = f'error {type(e).__name__}: {e}'
    for i, q in enumerate(qs):
        for mode in ('keyword', 'vector', 'hybrid'):
            for kw in ('any', 'all', 'relax'):
                for engine in ('memory', 'fts5'):
                    if mode == 'vector' and (kw, engine) != ('any', 'memory'): continue
                    for fuse in ('rrf', 'minmax'):
                        put(f'{i}/search/{mode}/{kw}/{engine}/{fuse}', lambda: [hit(h) for h in s.search(q, mode=mode, kw=kw, engine=engine, fuse=fuse)])
        d = docs[i % len(docs)]
        for engine in ('memory', 'fts5'):
            put(f'{i}/docs/{engine}', lambda: [hit(h) for h in s.search(q, docs=[d], engine=engine)])
            put(f'{i}/pages/{engine}', lambda: [hit(h) for h in s.search(q, kw='relax', pages=(2, 6), engine=engine)])
            put(f'{i}/docs+pages/{engine}', lambda: [hit(h) for h in s.search(q, mode='keyword', docs=[d], pages=(1, 3), engine=engine)])
        put(f'{i}/vector/docs', lambda: [hit(h) for h in s.search(q, mode='vector', docs=[d], with_ctx=False)])
        put(f'{i}/rerank', lambda: [hit(h) for h in s.search(q, rerank=20)])
        put(f'{i}/held_first', lambda: [hit(h) for h in s.search(q, fuse='minmax', held_first=0.5, kw='relax')])
        put(f'{i}/adapt', lambda: [hit(h) for h in s.search(q, adapt=True, weights=(1.0, 0.5), k=10, depth=20, limit=15)])
        put(f'{i}/no_ctx', lambda: [hit(h) for h in s.search(q, with_ctx=False, kw_ctx=True, max_df=0.05, min_terms=1)])
        put(f'{i}/keyword_mode', lambda: s.keyword_mode(q))
        if tree:
            put(f'{i}/doc_search', lambda: [hit(h) for h in s.doc_search(q)])
            put(f'{i}/doc_search/nospans', lambda: [hit(h) for h in s.doc_search(q, spans=False, kw='all', limit=20)])
            put(f'{i}/doc_search/rrf', lambda: [hit(h) for h in s.doc_search(q, fuse='rrf', held_first=None, docs=[d])])
            put(f'{i}/sections', lambda: [section(x) for x in s.sections(q)])
            put(f'{i}/sections/sum', lambda: [section(x) for x in s.sections(q, score='sum', per=2, mode='keyword')])
    return out


def some(s, qs: list, prefix: str) -> dict:
    "A shorter round of calls (hybrid and each leg, two keyword modes): for the stores reopened, and under other settings."
    out = {}
    for i, q in enumerate(qs):
        for mode in ('keyword', 'vector', 'hybrid'):
            for kw in ('any', 'relax'):
                if mode == 'vector' and kw != 'any': continue
                try: out[f'{prefix}/{i}/{mode}/{kw}'] = [hit(h) for h in s.search(q, mode=mode, kw=kw)]
                except Exception as e: out[f'{prefix}/{i}/{mode}/{kw}'] = f'error {type(e).__name__}: {e}'
    return out


def record(out: str):
    "Build the default corpus's stores in a new folder and write every result list to `out`."
    from litebench.systems import Stack
    from litebench.store import FlatStore
    from litebench.treestore import TreeStore
    setting('HNSW_THREADS', 1)
    tmp = Path(tempfile.mkdtemp(prefix='same-results-'))
    try:
        st = Stack('lsa', store_dir=tmp / 'stores')
        chunks = list(st.tree.mem.chunks)
        qs, docs = queries(chunks), sorted({c.doc for c in chunks})
        got = {'meta': [len(st.tree), len(st.flat), len(qs)]}
        for name, s, tree in (('tree', st.tree, True), ('flat', st.flat, False)):
            got |= {f'{name}/{k}': v for k, v in calls(s, tree, qs, docs).items()}
        for name, value in (('KW_KERNEL', 'numba'), ('PARALLEL_FROM', 1)):   # the compiled keyword leg, and two threads
            mod, old = setting(name, value)
            for s in (st.tree, st.flat): s.forget_legs()
            try: got |= some(st.tree, qs[::2], f'tree/{name}')
            finally: setattr(mod, name, old)
        paths = {n: Path(s.path) for n, s in (('tree', st.tree), ('flat', st.flat))}
        for s in (st.page, st.flat, st.tree): s.close()                       # closing saves the snapshots beside the files
        tree, flat = TreeStore(paths['tree'], st.encoder, readonly=True), FlatStore(paths['flat'], st.encoder)
        got |= some(tree, qs, 'tree/reopened') | some(flat, qs, 'flat/reopened')
        got |= {f'tree/reopened/{i}/doc_search': [hit(h) for h in tree.doc_search(q)] for i, q in enumerate(qs[::3])}
        shutil.copy(paths['flat'], tmp / 'hnsw.sqlite')
        hn = FlatStore(tmp / 'hnsw.sqlite', st.encoder, exact_below=1)
        got |= some(hn, qs, 'hnsw') | {f'hnsw/{i}/docs': [hit(h) for h in hn.search(q, docs=[docs[i % len(docs)]], mode='vector')] for i, q in enumerate(qs)}
        for s in (tree, flat, hn): s.close()
    finally: shutil.rmtree(tmp, ignore_errors=True)
    Path(out).write_text(json.dumps(got))
    print(f'{len(got) - 1} lists written to {out}')


def compare(a: str, b: str, show: int = 10) -> int:
    "Print the first `show` differences of two records and `N of N lists equal`; 1 when any differs."
    A, B = json.loads(Path(a).read_text()), json.loads(Path(b).read_text())
    keys = sorted(set(A) | set(B)); bad = [k for k in keys if A.get(k, 'missing') != B.get(k, 'missing')]
    for k in bad[:show]:
        x, y = A.get(k, 'missing'), B.get(k, 'missing')
        if isinstance(x, list) and isinstance(y, list):
            i = next((i for i, (u, v) in enumerate(zip(x, y)) if u != v), min(len(x), len(y)))
            print(f'{k}: item {i}: {x[i] if i < len(x) else "(none)"} != {y[i] if i < len(y) else "(none)"}')
        else: print(f'{k}: {str(x)[:200]} != {str(y)[:200]}')
    print(f'{len(keys) - len(bad)} of {len(keys)} lists equal')
    return 1 if bad else 0


TIMES = ('ms', 'run', 'run_id', 'started', 'seconds')   # what differs from run to run by nature: times and run ids


def bare(x):
    "`x` without its times and run ids, at any depth."
    if isinstance(x, dict): return {k: bare(v) for k, v in x.items() if k not in TIMES}
    return [bare(v) for v in x] if isinstance(x, list) else x


def rows(a: str, b: str, show: int = 10) -> int:
    "Compare two bench runs' rows field by field (times and run ids aside): the first `show` differences and `N of N rows equal`."
    read = lambda d: [bare(json.loads(l)) for l in (Path(d) / 'per_query.jsonl').read_text().splitlines() if l.strip()]
    A, B = read(a), read(b)
    bad = [i for i in range(max(len(A), len(B))) if i >= len(A) or i >= len(B) or A[i] != B[i]]
    for i in bad[:show]:
        x, y = (A[i] if i < len(A) else {}), (B[i] if i < len(B) else {})
        print(f'row {i}: ' + '; '.join(f'{k}: {str(x.get(k))[:150]} != {str(y.get(k))[:150]}' for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k)))
    print(f'{max(len(A), len(B)) - len(bad)} of {max(len(A), len(B))} rows equal')
    return 1 if bad else 0


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'record': record(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == 'compare': sys.exit(compare(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == 'rows': sys.exit(rows(sys.argv[2], sys.argv[3]))
    else: sys.exit(__doc__)
