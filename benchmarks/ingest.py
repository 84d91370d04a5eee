"""The ingest benchmark: read every PDF, build its tree, cut its chunks; medians per stage over repeats."""
from __future__ import annotations
import os, platform, statistics, time
from pathlib import Path
from litebench.pdf import pdf_pages
from litebench.tree import build_tree, node_chunks
from timing import rss_mib


def machine() -> str:
    "The machine (processor, CPU count) and Python the numbers were taken on."
    info = Path('/proc/cpuinfo').read_text() if Path('/proc/cpuinfo').exists() else ''
    cpu = next((l.split(':', 1)[1].strip() for l in info.splitlines() if l.startswith('model name')), platform.processor() or '?')
    return f'{platform.machine()} {cpu}, {os.cpu_count()} CPUs; {platform.python_implementation()} {platform.python_version()}'


def tree_and_chunks(docs) -> tuple:
    "One timed pass of `build_tree` then `node_chunks` over `docs`: (tree seconds, chunks seconds, trees, chunks)."
    t0 = time.perf_counter(); trees = [build_tree(d) for d in docs]
    t1 = time.perf_counter(); chunks = [node_chunks(d, n) for d, n in zip(docs, trees)]
    return t1 - t0, time.perf_counter() - t1, trees, chunks


def ingest_speed(files, repeats: int = 5) -> dict:
    "Median seconds per stage (parse, tree, chunks) over `repeats` full ingests of `files`."
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter(); docs = [pdf_pages(f) for f in files]; tp = time.perf_counter() - t0
        tt, tc, trees, chunks = tree_and_chunks(docs)
        runs.append((tp, tt, tc, tp + tt + tc))
    med = [statistics.median(r[i] for r in runs) for i in range(4)]
    pages = sum(len(d) for d in docs)
    return dict(files=len(files), pages=pages, nodes=sum(map(len, trees)), chunks=sum(map(len, chunks)), repeats=repeats,
                parse_s=med[0], tree_s=med[1], chunks_s=med[2], total_s=med[3], pages_per_s=pages / med[3],
                share={k: v / med[3] for k, v in zip(('parse', 'tree', 'chunks'), med)}, peak_rss_mib=rss_mib()['peak'],
                machine=machine())


def ingest_report(r: dict, target_s: float = 2.0) -> str:
    "A short markdown report of an `ingest_speed` result: one row per stage with its median and share."
    return '\n'.join([
        f"Ingest of {r['files']} PDFs, {r['pages']} pages → {r['nodes']} nodes, {r['chunks']} chunks; median of {r['repeats']} runs, one core ({r['machine']}).", '',
        '| stage | median s | share |', '|---|---|---|',
        *[f"| {k} | {r[k + '_s']:.3f} | {r['share'][k]:.0%} |" for k in ('parse', 'tree', 'chunks')],
        f"| **total** | **{r['total_s']:.3f}** | {r['pages_per_s']:.0f} pages/s |", '',
        f"Target: all pages in under {target_s:g} s: {'met' if r['total_s'] < target_s else 'NOT met'} ({r['total_s'] / target_s:.0%} of the budget). Peak resident memory {r['peak_rss_mib']:.0f} MiB."])
