"""The peer's side of the store benchmark: litesearch's `add_doc`, `doc_search` and `sections`, timed on pages, vectors
and queries handed over as files.

litesearch 0.1.61 needs fastcore 2 and nbdev 2.4.14 needs fastcore below 1.13, so this runs in its own venv, as a script:

    python3 -m venv .venv-bench && .venv-bench/bin/pip install "litesearch==0.1.61" numpy
    .venv-bench/bin/python benchmarks/peer.py texts --docs D --out T
    .venv-bench/bin/python benchmarks/peer.py bench --docs D --texts T --vectors V --queries Q --qvectors QV --out R

It imports nothing from litebench: only the standard library, numpy, `timing` beside it and, inside the functions that
need it, litesearch. `peer_run.py` runs it; both sides are timed by the same `timing.time_calls`."""
from __future__ import annotations
import argparse, json, os, sys, tempfile, time
from pathlib import Path
import numpy as np
from timing import time_calls, ms_stats, rss_mib

PEER_VERSION = '0.1.61'
_COLS = ['rowid', 'content', 'node_id', 'page', 'heading', 'doc_id']


def save_docs(docs,    # `[(name, [(page, text), ...]), ...]`
              path):   # JSON file to write
    "Write documents as the peer reads them: `[[name, [[page, text], ...]], ...]`."
    Path(path).write_text(json.dumps([[n, [[p, t] for p, t in pages]] for n, pages in docs]))


def load_docs(path) -> list:
    "Documents written by `save_docs`: `[(name, [(page, text), ...]), ...]`."
    return [(n, [(p, t) for p, t in pages]) for n, pages in json.loads(Path(path).read_text())]


def peer_title(name: str) -> str:
    "The title litesearch's `add_file` gives a file called `name` (the stem, `_` and `-` as spaces)."
    return Path(name).stem.replace('_', ' ').replace('-', ' ').strip()


def peer_db(path):
    "A litesearch database at `path` with its tree tables, storing float32 vectors (its default, float16, would garble LSA's)."
    from litesearch import database
    db = database(str(path)); db.get_tree(dtype=np.float32)
    return db


def _add_all(db, docs, emb_fn):
    for name, pages in docs: db.add_doc(pages, title=peer_title(name), emb_fn=emb_fn)


def peer_texts(docs) -> list:
    "The texts litesearch's `add_doc` embeds for `docs`, in order, learnt by building once with a recording `emb_fn`."
    seen = []
    def record(ts): seen.extend(ts); return np.zeros((len(ts), 4), np.float32)
    with tempfile.TemporaryDirectory() as d: _add_all(peer_db(Path(d) / 'texts.db'), docs, record)
    return seen


def peer_build(docs, lookup, path) -> tuple:
    "Build litesearch's tree store at `path` with `lookup` as its `emb_fn`: (seconds, database)."
    t0 = time.perf_counter(); db = peer_db(path); _add_all(db, docs, lookup)
    return time.perf_counter() - t0, db


def peer_ops(db) -> dict:
    "litesearch's timed operations on a built store, each `f(q, qvec_bytes)`: its defaults, and its two legs alone."
    from litesearch import pre
    t = db.t['store']
    return {'doc_search': lambda q, e: db.doc_search(q, e, dtype=np.float32),
            'sections': lambda q, e: db.sections(q, e, dtype=np.float32),
            'keyword leg': lambda q, e: t.fts_search(fq, _COLS, 'rank', 30) if (fq := pre(q)) else [],
            'vector leg': lambda q, e: t.vec_search(e, _COLS, dtype=np.float32, limit=30)}


def _lookup(texts, V):
    at = {t: i for i, t in enumerate(texts)}
    return lambda ts: V[[at[t] for t in ts]]


def _builds(docs, lookup, folder, repeats):
    out, db = [], None
    for i in range(repeats + 1):
        s, db = peer_build(docs, lookup, Path(tempfile.mkdtemp(dir=folder)) / 'ls.db')
        if i: out.append(s)
    return out, db


def peer_bench(docs, texts, V, queries, QV, repeats: int = 5, warmup: int = 20, rounds: int = 3) -> dict:
    "Time litesearch's build (median of `repeats` after an untimed one) and each operation over `queries`."
    import litesearch
    from litesearch.postfix import usearch_ok
    base, lookup = rss_mib(), _lookup(texts, np.asarray(V, np.float32))
    with tempfile.TemporaryDirectory() as d:
        builds, db = _builds(docs, lookup, d, repeats)
        args = [(q, np.asarray(v, np.float32).tobytes()) for q, v in zip(queries, QV)]
        ops = {k: ms_stats(time_calls(f, args, warmup, rounds)) for k, f in peer_ops(db).items()}
        out = dict(version=litesearch.__version__, chunks=db.t['store'].count, nodes=db.t['nodes'].count, hnsw=usearch_ok('index'),
                   build_s=float(np.median(builds)), builds=builds, ops=ops, rss_base_mib=base['now'], peak_rss_mib=rss_mib()['peak'])
        if out['hnsw']:   # its HNSW index is built at ingest but not read by `doc_search`: time the build without it too
            os.environ['LITESEARCH_USEARCH'] = '0'
            out['build_s_no_hnsw'] = float(np.median(_builds(docs, lookup, d, repeats)[0]))
    return out


def main(argv=None) -> int:
    "`peer.py texts --docs D --out T` or `peer.py bench --docs D --texts T --vectors V --queries Q --qvectors QV --out R`."
    p = argparse.ArgumentParser(prog='peer.py', description='litesearch side of the litebench store benchmark')
    sub = p.add_subparsers(dest='cmd', required=True)
    t = sub.add_parser('texts'); t.add_argument('--docs', required=True); t.add_argument('--out', required=True)
    b = sub.add_parser('bench')
    for a in ('docs', 'texts', 'vectors', 'queries', 'qvectors', 'out'): b.add_argument(f'--{a}', required=True)
    for a, v in (('repeats', 5), ('warmup', 20), ('rounds', 3)): b.add_argument(f'--{a}', type=int, default=v)
    a = p.parse_args(argv)
    if a.cmd == 'texts': Path(a.out).write_text(json.dumps(peer_texts(load_docs(a.docs)))); return 0
    r = peer_bench(load_docs(a.docs), json.loads(Path(a.texts).read_text()), np.load(a.vectors), json.loads(Path(a.queries).read_text()),
                   np.load(a.qvectors), a.repeats, a.warmup, a.rounds)
    Path(a.out).write_text(json.dumps(r)); return 0


if __name__ == '__main__': sys.exit(main())
