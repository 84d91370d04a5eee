"The project's own measuring tools, run as a developer runs them: `tools/function_size.py` on a small package made in the test."
from pathlib import Path
import ast, subprocess, sys

ROOT = Path(__file__).resolve().parent.parent
SIZE = ROOT / 'tools' / 'function_size.py'


def test_function_size(tmp_path):
    "Sizes are `ast.walk` counts worked out by hand; the anchor may be a folder; `--over` lists and fails; a missing anchor is one ERROR line."
    sys.path.insert(0, str(SIZE.parent))
    from function_size import sizes
    pkg = tmp_path / 'pkg'; pkg.mkdir()
    (pkg / 'a.py').write_text('def f(x): return x\n')          # FunctionDef, arguments, arg, Return, Name, Load: 6
    (pkg / '_modidx.py').write_text('def g(): pass\n')          # left out
    assert sizes(pkg) == [(6, 'a', 'f')]
    assert sum(1 for _ in ast.walk(ast.parse('def f(x): return x').body[0])) == 6
    r = subprocess.run([sys.executable, SIZE, '--anchor', pkg, '--over', '300'], capture_output=True, text=True)
    assert 'pkg: 1 functions, syntax nodes median 6' in r.stdout, r.stdout
    over = int(r.stdout.split('over 300: ')[1].split()[0])                    # litebench's own, on its first line
    assert r.returncode == (1 if over else 0) and r.stdout.count('over 300') == 3, r.stdout
    r = subprocess.run([sys.executable, SIZE, '--anchor', tmp_path / 'nowhere'], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip().startswith('ERROR:') and 'nowhere' in r.stderr and len(r.stderr.splitlines()) == 1
