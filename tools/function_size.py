"""How long the package's functions are, beside an anchor's: syntax nodes per function (`ast.walk`), median and largest.

    python tools/function_size.py                 # litebench beside fastcore (issue 36's measure: fastcore's median is about 35)
    python tools/function_size.py --top 30        # the 30 largest functions
    python tools/function_size.py --anchor fastlite       # an installed package, or a folder: --anchor /tmp/fastlite
    python tools/function_size.py --over 300       # litebench's functions over 300 nodes, and exit 1 if there are any

A function's size is the number of nodes `ast.walk` visits in it (its nested functions included); `_modidx.py` is left out.
"""
from __future__ import annotations
import argparse, ast, importlib.util, statistics, sys
import numpy as np
from pathlib import Path

def fail(message: str):
    "One `ERROR:` line on stderr, and exit 2."
    print(f'ERROR: {message}', file=sys.stderr); sys.exit(2)

def sizes(folder: Path) -> list:
    "(nodes, module, function) of every function under `folder` (`_modidx.py` aside)."
    out = []
    for p in sorted(folder.rglob('*.py')):
        if p.name == '_modidx.py': continue
        out += [(sum(1 for _ in ast.walk(n)), p.stem, n.name) for n in ast.walk(ast.parse(p.read_text()))
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return out

def folder_of(package: str) -> Path:
    "The folder a package is installed in (or `package` itself, a folder); an `ERROR:` line and exit 2 when it is neither."
    if Path(package).is_dir(): return Path(package)
    try: spec = importlib.util.find_spec(package)
    except (ImportError, ValueError): spec = None
    if spec is None or not spec.submodule_search_locations: fail(f'no installed package or folder {package!r} to measure')
    return Path(next(iter(spec.submodule_search_locations)))

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--anchor', default='fastcore', help='the package to compare with (default: %(default)s)')
    ap.add_argument('--top', type=int, default=15, help='largest functions listed (default: %(default)s)')
    ap.add_argument('--over', type=int, help='list every litebench function over this many nodes (default for the counts: 300); '
                    'exit 1 if there is one')
    a = ap.parse_args(argv)
    line = 300 if a.over is None else a.over
    ours, theirs = sizes(Path(__file__).resolve().parent.parent / 'litebench'), sizes(folder_of(a.anchor))
    for name, s in (('litebench', ours), (Path(a.anchor).name, theirs)):
        if not s: fail(f'no functions to measure in {name}')
        q = np.percentile([x[0] for x in s], [50, 75, 90, 99])
        print(f'{name}: {len(s)} functions, syntax nodes median {q[0]:g}, p75 {q[1]:g}, p90 {q[2]:g}, p99 {q[3]:g}, '
              f'max {max(x[0] for x in s)}; over {line}: {sum(x[0] > line for x in s)}')
    by = {}
    for n, m, _ in ours: by.setdefault(m, []).append(n)
    print('modules by median: ' + ', '.join(f'{m} {statistics.median(v):g}' for m, v in
                                            sorted(by.items(), key=lambda kv: -statistics.median(kv[1]))[:10]))
    print('largest: ' + ', '.join(f'{m}.{f} {n}' for n, m, f in sorted(ours, reverse=True)[:a.top]))
    if a.over is None: return 0
    over = [f'{m}.{f} {n}' for n, m, f in sorted(ours, reverse=True) if n > line]
    print(f'over {line}: {len(over)}' + (': ' + ', '.join(over) if over else ''))
    return 1 if over else 0

if __name__ == '__main__': sys.exit(main())
