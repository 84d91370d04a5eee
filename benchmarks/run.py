"""The benchmarks' command: `python benchmarks/run.py ingest|store|latency|import|factorial|dask-ingest|scale [--repeats N] [--pdfs DIR] [--queries N] [--no-hnsw] [--before REV] [--no-cli] [--files N] [--workers 1,2] [--sizes 1,4,16,64] [--text 100000,1000000] [--million] [--out FILE]`.

Runs from any folder. Prints what it will do, then the report, and writes the report (by default to
`benchmarks/reports/speed_<what>.md`, or `import.md`) under a header naming the command that made it. A mistake in the command
(a bad argument, a missing folder) prints one `ERROR:` line and exits 2."""
from __future__ import annotations
import argparse, os, shlex, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
BLAS_VARS = ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS')
REPEATS = {'ingest': 5, 'store': 5, 'latency': 1, 'import': 5, 'factorial': 3, 'dask-ingest': 1, 'scale': 1}   # default repeats: ingests or store builds; the latency benchmark's warm commands; the import benchmark's processes per command
QUERIES = {'store': 100, 'latency': 100, 'import': 10_000, 'factorial': 1000, 'scale': 900}   # default --queries (factorial: at most this many dev questions, so all)
FILES = 10_000                                                     # dask-ingest: default synthetic PDFs
BEFORE = {'latency': '5d65926', 'import': '682ee73'}              # default --before (scale: none, unless paired)
PAIRED_REPEATS = 3                                                 # scale --before: default repeats, each side building and searching each size


def one_core():
    "The ingest and store reports are on one core, for both sides: set before numpy loads (the peer inherits it)."
    for v in BLAS_VARS: os.environ.setdefault(v, '1')


class UsageError(Exception):
    "A mistake in the command: reported as one `ERROR:` line, exit 2."


class _Parser(argparse.ArgumentParser):
    def error(self, message): raise UsageError(f'{message} (see: python benchmarks/run.py --help)')


def parser() -> argparse.ArgumentParser:
    "The command's arguments."
    p = _Parser(prog='python benchmarks/run.py', description='litebench benchmarks: ingest speed, the stores against litesearch, the latency a user feels before and after a change, what scoring and importing cost a process, and the factorial against the ladder')
    p.add_argument('what', choices=['ingest', 'store', 'latency', 'import', 'factorial', 'dask-ingest', 'scale'], help='which benchmark')
    p.add_argument('--repeats', type=int, help='timed runs (ingests, store builds: default 5; latency: warm runs of each command, default 1; import: fresh processes per command, default 5); medians are reported')
    p.add_argument('--pdfs', help='folder of PDFs (default: the default corpus, fetched into data/pdfs)')
    p.add_argument('--queries', type=int, help='store, latency: verbatim queries sampled, each also giving a short variant (default 100); import: queries of the synthetic run scored (default 10,000); factorial: at most this many dev questions (default: all)')
    p.add_argument('--no-hnsw', action='store_true', help="store: switch litesearch's HNSW index off (it is on as litesearch ships)")
    p.add_argument('--before', help='latency, import: the commit (or checkout folder) measured as before (default: 5d65926; import: 682ee73); scale: measure this checkout against it, paired (default repeats 3; report speed_scale_paired.md)')
    p.add_argument('--no-cli', action='store_true', help='latency: skip timing the eval doc and bench run commands')
    p.add_argument('--files', type=int, default=FILES, help='dask-ingest: synthetic PDFs made and ingested (default %(default)s)')
    p.add_argument('--workers', default='1,2', help='dask-ingest: worker counts to time, comma-separated (default %(default)s)')
    p.add_argument('--sizes', default='1,4,16,64', help='scale: how many times the corpus is replicated, per size (default 1,4,16,64)')
    p.add_argument('--text', default='', help="scale: HNSW's recall and time also over this many distinct real texts' vectors, comma-separated (always: as many as each size's chunks)")
    p.add_argument('--million', action='store_true', help='scale: also time HNSW search over 1M synthetic vectors (the index is kept in data/cache once built), with its recall@10 against exact search')
    p.add_argument('--out', help='report file (default: benchmarks/reports/speed_<what>.md; import: benchmarks/reports/import.md)')
    return p


def default_out(what: str, paired: bool = False) -> Path:
    "Where a benchmark's report goes unless `--out` says otherwise (`paired`: the scale benchmark against another commit)."
    return HERE / 'reports' / ('speed_scale_paired.md' if what == 'scale' and paired else {'import': 'import.md', 'dask-ingest': 'speed_dask.md'}.get(what, f'speed_{what}.md'))


def shown(path: Path) -> str:
    "`path` relative to the checkout when it is inside it, else absolute."
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def check(a) -> argparse.Namespace:
    "The arguments with paths made absolute; a `UsageError` for values no benchmark can run with."
    a.paired = a.what == 'scale' and a.before is not None              # the scale benchmark against another commit
    a.repeats = (PAIRED_REPEATS if a.paired else REPEATS[a.what]) if a.repeats is None else a.repeats
    a.queries = QUERIES.get(a.what, 100) if a.queries is None else a.queries
    a.before = BEFORE.get(a.what) if a.before is None else a.before
    if a.repeats < 1: raise UsageError(f'--repeats must be at least 1, got {a.repeats}')
    if a.queries < 1: raise UsageError(f'--queries must be at least 1, got {a.queries}')
    if a.files < 1: raise UsageError(f'--files must be at least 1, got {a.files}')
    try: a.workers = [int(w) for w in str(a.workers).split(',')]
    except ValueError: raise UsageError(f'--workers {a.workers}: expected worker counts such as 1,2') from None
    if not a.workers or min(a.workers) < 1: raise UsageError(f'--workers {a.workers}: each worker count must be at least 1')
    try: a.sizes = [int(x) for x in a.sizes.split(',')]
    except ValueError: raise UsageError(f'--sizes must be whole numbers separated by commas, got {a.sizes!r}') from None
    if not a.sizes or min(a.sizes) < 1: raise UsageError(f'--sizes must be numbers >= 1, got {a.sizes!r}')
    try: a.text = [int(x) for x in a.text.split(',') if x.strip()]
    except ValueError: raise UsageError(f'--text must be whole numbers separated by commas, got {a.text!r}') from None
    if a.text and min(a.text) < 100: raise UsageError(f'--text must be numbers >= 100, got {a.text!r}')
    if a.pdfs and not Path(a.pdfs).is_dir(): raise UsageError(f'--pdfs {a.pdfs}: no such folder')
    a.pdfs = Path(a.pdfs).resolve() if a.pdfs else None
    a.out = Path(a.out).resolve() if a.out else default_out(a.what, a.paired)
    if a.out.is_dir(): raise UsageError(f'--out {a.out}: is a folder, not a file')
    if a.paired and a.million: raise UsageError('--million measures this checkout alone: not with --before')
    if a.what in ('latency', 'import') or a.paired:
        from latency import before_ok
        if why := before_ok(a.before): raise UsageError(f'--before {why}')
    return a


def command(a) -> str:
    "The command line that reproduces this run, as the report's header records it."
    parts = ['python benchmarks/run.py', a.what, '--repeats', str(a.repeats)]
    if a.pdfs: parts += ['--pdfs', shown(a.pdfs)]
    if a.what in QUERIES and a.queries != QUERIES[a.what]: parts += ['--queries', str(a.queries)]
    if a.what == 'store' and a.no_hnsw: parts += ['--no-hnsw']
    if (a.what in BEFORE and a.before != BEFORE[a.what]) or a.paired: parts += ['--before', a.before]
    if a.what == 'latency' and a.no_cli: parts += ['--no-cli']
    if a.what == 'dask-ingest' and a.files != FILES: parts += ['--files', str(a.files)]
    if a.what == 'dask-ingest' and a.workers != [1, 2]: parts += ['--workers', ','.join(map(str, a.workers))]
    if a.what == 'scale' and a.sizes != [1, 4, 16, 64]: parts += ['--sizes', ','.join(map(str, a.sizes))]
    if a.what == 'scale' and a.text: parts += ['--text', ','.join(map(str, a.text))]
    if a.what == 'scale' and a.million: parts += ['--million']
    if a.out != default_out(a.what, a.paired): parts += ['--out', shown(a.out)]
    return ' '.join(shlex.quote(p) if i else p for i, p in enumerate(parts))


def plan(a, files) -> str:
    "What the run will do, said before it starts."
    if a.what == 'dask-ingest':
        return f"dask-ingest benchmark: {a.files} synthetic PDFs, workers {','.join(map(str, a.workers))}; report: {shown(a.out)}"
    if a.what == 'import':
        from imports import version
        cmp = ', '.join(f"{t} {version(t) or 'not installed'}" for t in ('pytrec_eval', 'ranx'))
        return (f'import benchmark: {a.queries} queries × 100 results, {a.repeats} repeat{"s" if a.repeats != 1 else ""}; '
                f'comparators: {cmp}; before: {a.before}, after: this checkout; report: {shown(a.out)}')
    src = shown(a.pdfs) if a.pdfs else 'the default corpus'
    line = f'{a.what} benchmark: {len(files)} PDFs from {src}, {a.repeats} repeat{"s" if a.repeats != 1 else ""}'
    if a.what == 'store':
        from peer_run import bench_python, peer_ready
        py = bench_python(); why = peer_ready(py)
        line += f", {a.queries} queries and their short variants; peer: {'litesearch in ' + shown(py) if why is None else 'not run: ' + why}"
    if a.what == 'factorial':
        line += f"; the dev questions (at most {a.queries}), ladder (7 configurations) and factorial (128), the leg cache on and off, encoder lsa"
    if a.what == 'scale':
        line += f", sizes {'/'.join(f'{k}×' for k in a.sizes)}, {a.queries} queries{', distinct texts ' + '/'.join(f'{n:,}' for n in a.text) if a.text else ''}{', and 1M vectors' if a.million else ''}"
        if a.paired: line += f'; paired: before: {a.before}, after: this checkout, the sides alternating'
    if a.what == 'latency':
        line += f", {a.queries} queries and their short variants; before: {a.before}, after: this checkout{'; commands not timed' if a.no_cli else ''}"
    return f'{line}; report: {shown(a.out)}'


def report(a, files) -> str:
    "Run the benchmark and return its markdown report."
    if a.what == 'ingest':
        from ingest import ingest_speed, ingest_report
        return ingest_report(ingest_speed(files, a.repeats))
    if a.what == 'dask-ingest':
        from dask_ingest import dask_ingest_speed, dask_ingest_report
        return dask_ingest_report(dask_ingest_speed(a.files, a.workers))
    if a.what == 'import':
        from imports import import_bench, import_report
        return import_report(import_bench(a.queries, a.repeats, before=a.before))
    if a.what == 'factorial':
        from factorial import factorial_speed, factorial_report
        return factorial_report(factorial_speed(a.pdfs, a.repeats, a.queries))
    if a.what == 'latency':
        from latency import latency_speed, latency_report
        return latency_report(latency_speed(files, a.repeats, n_queries=a.queries, before=a.before, cli=not a.no_cli))
    if a.paired:
        from scale_paired import scale_paired, paired_report
        return paired_report(scale_paired(files, a.sizes, a.queries, a.before, a.repeats))
    if a.what == 'scale':
        from scale import scale_speed, scale_report
        return scale_report(scale_speed(files, a.sizes, a.queries, a.million, a.text))
    from stores import store_speed, store_report
    return store_report(store_speed(files, a.repeats, n_queries=a.queries, hnsw=not a.no_hnsw))


def main(argv=None) -> int:
    "Parse, say what will run, run it, print and write the report."
    try: a = check(parser().parse_args(argv))   # the user's paths, made absolute first
    except UsageError as e: print(f'ERROR: {e}', file=sys.stderr); return 2
    if a.what not in ('latency', 'import'): one_core()   # before numpy loads; latency, import: BLAS as the user has it, which is what they measure
    os.chdir(ROOT)                               # then litebench's defaults (corpus, mirror, data folder) are the checkout's
    files = None
    if a.what not in ('import', 'dask-ingest'):  # the import benchmark reads no PDF; dask-ingest makes its own
        from litebench.corpus import corpus_files, FetchError
        try: files = corpus_files(a.pdfs)
        except (FetchError, FileNotFoundError) as e:
            print(f'ERROR: {e}', file=sys.stderr); return 2
    print(plan(a, files), flush=True)
    from latency import SideError
    try: rep = report(a, files)
    except SideError as e: print(f'ERROR: {e}', file=sys.stderr); return 1   # a side's process failed: its last words, not a traceback
    print(rep)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    title = f'{a.what.capitalize().replace("-", " ")} benchmark' + (', paired' if a.paired else '')
    a.out.write_text(f'# {title}\n\nMade by `{command(a)}`.\n\n{rep}\n')
    print(f'wrote {shown(a.out)}')
    return 0


if __name__ == '__main__': sys.exit(main())
