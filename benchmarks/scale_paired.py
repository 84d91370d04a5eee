"""The scale benchmark, paired: this checkout's tree store against another commit's, at the same sizes, in one run.

`python benchmarks/run.py scale --before REV` measures what a change did at scale, side by side, so that two numbers
measured an hour apart on a machine whose speed drifts are never compared. Each side is a checkout: 'before', the commit
`REV` (unpacked with `git archive`; a checkout folder works too), and 'after', this one. For every size and repeat, each
side, in its own fresh processes with its own litebench first on the path:
- builds the `k`× store from the PDFs it reads itself (its own `pdf_pages` and tree), with the same precomputed LSA
  vectors (`stores.Precomputed`, the embedding excluded), timed as `scale.build` times it (the HNSW index apart);
- opens it in a new process, answers the first query (timed together), then times `doc_search` (kw 'any', the query's
  vector given) once per query after `warmup` untimed ones, and keeps a digest of each query's hits (documents, offsets,
  nodes, ranks and every score, exactly), and one where any replica of a document counts as the document.
The sides alternate: the before side first in odd repeats, the after side first in even ones. The report gives each
side's median over the repeats and the after/before ratios, every repeat's numbers, and how many queries' hits are the
same: before against after in each repeat, and each side against its own first repeat (a store above `exact_below`
searches an HNSW graph built on every core, which differs from build to build: that is the floor of the comparison)."""
from __future__ import annotations
import hashlib, shutil, statistics, tempfile
from pathlib import Path
import numpy as np
from timing import time_calls, ms_stats, leg_cache_off
from latency import checkout, described, git, on_side, own_litebench, read_docs, ROOT
from scale import original


def digest(hits, copies: bool = False) -> str:
    "A digest of a result list: each hit's document, offsets, node, rank and scores, exactly; with `copies`, any copy of a document as good as another (its name without the replica's `~i`, no node)."
    doc = (lambda h: original(h.chunk.doc)) if copies else (lambda h: h.chunk.doc)
    key = [(doc(h), h.chunk.start, h.chunk.end, None if copies else h.chunk.node, h.rank, repr(h.score), repr(h.kw_score), repr(h.vec_score)) for h in hits]
    return hashlib.sha1(repr(key).encode()).hexdigest()


def side_build(root: str, files: list, k: int, enc, path: str) -> dict:
    "One side's `k`× build at `path` (in a fresh process of the checkout `root`): `scale.build`'s numbers."
    own_litebench(root)
    from scale import build, replicas
    return build(replicas(read_docs(files), k), enc, path)


def side_search(root: str, path: str, queries: list, qvecs, warmup: int = 5) -> dict:
    "One side's search numbers on the store at `path` (in a fresh process of the checkout `root`): open + first query, doc_search ms per query, each query's hits' digest."
    own_litebench(root); leg_cache_off()                                     # every timed query's legs computed
    from scale import open_first, kernels_loaded
    s, first = open_first(path, queries[0], qvecs[0]); kernels_loaded()
    args = list(zip(queries, qvecs))
    ms = time_calls(lambda q, v: s.doc_search(q, qvec=v), args, warmup)
    if hasattr(s, 'forget_legs'): s.forget_legs()                            # the digests from fresh legs, as timed
    hits = [s.doc_search(q, qvec=v) for q, v in args]
    out = dict(open_first_s=first, search=ms_stats(ms), digests=[digest(h) for h in hits], copies=[digest(h, True) for h in hits])
    s.close(); return out


def one_pass(side: Path, name: str, tmp: Path, files: list, k: int, enc, queries: list, qvecs) -> dict:
    "Build, then search, the `k`× store with the checkout `side`'s code (`name`: the commit it is); the store is removed after."
    d = Path(tempfile.mkdtemp(dir=tmp)); path = d / 'scale.sqlite'
    try:
        b = on_side(side, 'side_build', module='scale_paired', named=name, root=str(side), files=files, k=k, enc=enc, path=str(path))
        return b | on_side(side, 'side_search', module='scale_paired', named=name, root=str(side), path=str(path), queries=queries, qvecs=qvecs)
    finally: shutil.rmtree(d, ignore_errors=True)


def scale_paired(files, sizes=(64,), n_queries: int = 300, before: str = 'HEAD', repeats: int = 3) -> dict:
    "Every size's build and search numbers on both sides, `repeats` times, the sides alternating."
    from stores import store_inputs
    from ingest import machine
    inp = store_inputs(files, max(n_queries // 2, 1))
    queries, qvecs, enc, files = inp['queries'][:n_queries], np.asarray(inp['qvecs'][:n_queries]), inp['enc'].frozen(), [str(f) for f in files]
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t); sides = {'before': checkout(before, tmp / 'before'), 'after': ROOT}
        names = {'before': named(before), 'after': described(ROOT)}
        runs = {k: [] for k in sizes}
        for k in sizes:
            for r in range(repeats):
                order = ('before', 'after') if r % 2 == 0 else ('after', 'before')
                runs[k].append({side: one_pass(sides[side], names[side], tmp, files, k, enc, queries, qvecs) for side in order})
    return dict(sizes=list(sizes), repeats=repeats, queries=len(queries), sides=names, runs=runs, machine=machine())


def named(rev: str) -> str:
    "A commit as given and the commit it names ('HEAD (27891ea)'), or a checkout folder as given."
    r = git('rev-parse', '--short', '--verify', '--quiet', f'{rev}^{{commit}}')
    sha = r.stdout.decode().strip() if not r.returncode else ''
    return rev if not sha or sha.startswith(rev) else f'{rev} ({sha})'


def _same(x: dict, y: dict, n: int) -> str:
    "How many queries get the same hits on two runs: exactly, and with any copy of a document as good as another."
    same = lambda k: sum(a == b for a, b in zip(x[k], y[k]))
    return f"{same('digests')} ({same('copies')}) / {n}"


def paired_report(r: dict) -> str:
    "The markdown report: per size, each side's medians and the ratios; every repeat; how many queries' hits are the same."
    n, reps = r['queries'], r['repeats']
    med = lambda runs, side, f: statistics.median(f(x[side]) for x in runs)
    cols = [('build (s)', lambda x: x['build_s'], 1), ('HNSW of it (s)', lambda x: x['phases']['hnsw'] or 0.0, 1), ('open + first query (s)', lambda x: x['open_first_s'], 2),
            ('doc_search p50 (ms)', lambda x: x['search']['median_ms'], 2), ('p95 (ms)', lambda x: x['search']['p95_ms'], 2), ('mean (ms)', lambda x: x['search']['mean_ms'], 2)]
    L = [f"Before: `{r['sides']['before']}`; after: this checkout, `{r['sides']['after']}`. {reps} repeat{'s' if reps != 1 else ''} per size, the sides alternating; "
         f"medians over the repeats, and after / before (below 1: the after side is faster or smaller).", '',
         '| size | chunks | ' + ' | '.join(f'{c}: before / after / ratio' for c, _, _ in cols) + ' |', '|---|---|' + '---|' * len(cols)]
    for k in r['sizes']:
        runs = r['runs'][k]; chunks = runs[0]['after']['chunks']
        cells = []
        for _, f, d in cols:
            b, a = med(runs, 'before', f), med(runs, 'after', f)
            cells.append(f"{b:.{d}f} / {a:.{d}f} / {a / b:.2f}" if b else f"{b:.{d}f} / {a:.{d}f} / –")
        L.append(f"| {k}× | {chunks:,} | " + ' | '.join(cells) + ' |')
    L += ['', 'Every repeat (which side ran first, in brackets), for each side: build s, open + first s and doc_search p50 / p95 ms; then how many of the '
              f'{n} queries get the same hits (documents, offsets, nodes, ranks, scores) before and after, and on each side as in its first repeat:', '',
          '| size | repeat | before | after | same hits (up to copies), before and after | before as in repeat 1 | after as in repeat 1 |', '|---|---|---|---|---|---|---|']
    for k in r['sizes']:
        runs = r['runs'][k]
        for i, x in enumerate(runs, 1):
            one = lambda y: f"{y['build_s']:.1f} s, {y['open_first_s']:.2f} s, {y['search']['median_ms']:.2f} / {y['search']['p95_ms']:.2f} ms"
            L.append(f"| {k}× | {i}{' (before first)' if next(iter(x)) == 'before' else ' (after first)'} | {one(x['before'])} | {one(x['after'])} | "
                     f"{_same(x['before'], x['after'], n)} | {_same(runs[0]['before'], x['before'], n)} | {_same(runs[0]['after'], x['after'], n)} |")
    L += ['', "Above `exact_below`, the vector leg searches an HNSW graph, which usearch builds on every core: two builds of the same vectors differ, so a side "
              "against its own first repeat shows how far rebuilding alone moves the hits. Each replica of a document is a copy, so its chunks tie with the "
              "original's; in brackets, the queries whose hits are the same when any copy counts as the document (its name without `~i`, its nodes aside).",
          '', f"{n} queries (verbatim sentences and their short variants), query vectors given, each timed once after 5 untimed, the leg cache off (`legs.LEG_CACHE` = 0: no query answered from it). Machine: {r['machine']}."]
    return '\n'.join(L)
