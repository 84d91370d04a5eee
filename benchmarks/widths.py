"""HNSW search width against recall and time on many distinct real texts' vectors: `python benchmarks/widths.py 100000,1000000 [--log FILE]`.

For each size, an index over the first that many of `texts.text_set`'s 1M LSA vectors (the corpus's chunks and sentences first, then other real
text on this machine, shuffled), built and searched as the store does (`texts.text_recall`), at widths from 128 to 1536 beside the
store's own for the size (`vectors.hnsw_width`), queried by 500 held-out texts and by the scale benchmark's 900 queries (450 verbatim
sentences and their short variants), with the set's local intrinsic dimension. Each size's result is printed as one JSON line as soon as
it is measured (a 1M index takes tens of minutes to build here); the report (`reports/speed_scale_widths.md`) is written at the end,
or from such lines saved earlier (`--log FILE`)."""
from __future__ import annotations
import argparse, json, os, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
WIDTHS = (128, 256, 512, 768, 1024, 1536)
SET = 1_000_000   # the text set every size's index takes its first rows from (made once, kept in data/cache: minutes)


def measure(sizes) -> list:
    "Each size's `text_recall` over the LSA text set, with its intrinsic dimension, printed as it comes."
    import numpy as np
    from texts import text_set, intrinsic_dim, text_recall
    from stores import store_inputs
    from litebench.corpus import corpus_files
    inp = store_inputs(corpus_files(), 450)
    T = text_set(inp['docs'], max(SET, *sizes))
    Q = dict(held=T['held'], queries=np.asarray(T['encode'](list(inp['queries'])), np.float32))
    out = []
    for n in sizes:
        X = np.ascontiguousarray(T['X'][:n]); r = text_recall(X, Q, widths=WIDTHS); r['id'] = intrinsic_dim(X)
        print(json.dumps(r), flush=True); out.append(r)
    return out


def widths_report(rows: list) -> str:
    "The markdown table: per size, each width's recall@10 (held-out texts / queries) and p50 / p95 per query; the store's width in bold."
    ws = sorted({int(w) for r in rows for w in r['by_width']})
    L = ['| rows | intrinsic dim (MLE / TwoNN) | build (s) | ' + ' | '.join(f'width {w}' for w in ws) + ' |', '|---|---|---|' + '---|' * len(ws)]
    for r in rows:
        by = {int(w): y for w, y in r['by_width'].items()}
        cell = lambda w: '–' if w not in by else (lambda y, b: f"{b}{y['recall10']['held']:.3f} / {y['recall10']['queries']:.3f}, {y['search']['median_ms']:.2f} / {y['search']['p95_ms']:.2f} ms{b}")(by[w], '**' if w == r['width'] else '')
        L.append(f"| {r['n']:,} | {r['id']['mle']:.1f} / {r['id']['twonn']:.1f} | {r['build_s']:.0f} | " + ' | '.join(cell(w) for w in ws) + ' |')
    return '\n'.join(L)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog='python benchmarks/widths.py', description=__doc__.split('\n')[0])
    p.add_argument('sizes', help='rows of each index, comma-separated')
    p.add_argument('--log', help='render the report from JSON lines a run printed, instead of measuring')
    p.add_argument('--out', default=str(HERE / 'reports' / 'speed_scale_widths.md'))
    a = p.parse_args(argv)
    sizes = [int(x) for x in a.sizes.split(',')]
    if a.log: rows = [json.loads(l) for l in Path(a.log).read_text().splitlines() if l.startswith('{')]
    else:
        for v in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'): os.environ.setdefault(v, '1')
        os.chdir(HERE.parent); rows = measure(sizes)
    rows = sorted((r for r in rows if r['n'] in sizes), key=lambda r: r['n'])
    Path(a.out).write_text(f"# HNSW search width on distinct real texts\n\nMade by `python benchmarks/widths.py {a.sizes}`.\n\n{widths_report(rows)}\n")
    print(widths_report(rows)); return 0


if __name__ == '__main__': sys.exit(main())
