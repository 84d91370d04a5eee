"The project's own measuring tools, run as a developer runs them: `tools/function_size.py` on a small package made in the test."
from pathlib import Path
import subprocess, sys

ROOT = Path(__file__).resolve().parent.parent
SIZE = ROOT / 'tools' / 'function_size.py'


def test_function_size(tmp_path, monkeypatch):
    "Sizes are `ast.walk` counts worked out by hand; the anchor may be a folder; `--over` lists and fails; a missing anchor is one ERROR line."
    monkeypatch.syspath_prepend(str(SIZE.parent))
    from function_size import sizes
    pkg = tmp_path / 'pkg'; pkg.mkdir()
    (pkg / 'a.py').write_text('def f(x): return x\n')          # FunctionDef, arguments, arg, Return, Name, Load: 6
    (pkg / '_modidx.py').write_text('def g(): pass\n')          # left out
    assert sizes(pkg) == [(6, 'a', 'f')]
    for line in (5, 300):                                                     # the counts follow --over's line
        r = subprocess.run([sys.executable, SIZE, '--anchor', pkg, '--over', str(line)], capture_output=True, text=True)
        assert f'pkg: 1 functions, syntax nodes median 6, p75 6, p90 6, p99 6, max 6; over {line}: {int(line < 6)}' in r.stdout, r.stdout
        over = int(r.stdout.split(f'over {line}: ')[1].split()[0])           # litebench's own, on its first line
        assert r.returncode == (1 if over else 0) and r.stdout.count(f'over {line}') == 3, r.stdout
    for anchor in (tmp_path / 'nowhere', 'no.such.package'):
        r = subprocess.run([sys.executable, SIZE, '--anchor', anchor], capture_output=True, text=True)
        assert r.returncode == 2 and r.stderr.startswith('ERROR:') and str(anchor) in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
