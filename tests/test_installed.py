"A stranger's install: the wheel built from this checkout, installed into a fresh virtual environment, each main command run from an empty folder."
from pathlib import Path
import os, subprocess, sys, sysconfig, venv
import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / 'shared'
QUESTIONS = '''
- id: mine0001
  question: "Where is the place of supply of goods that are not dispatched or transported?"
  suite: mine
  answerable: true
  gold:
    - file: dir_2006_112_2022-07-01_eng.pdf
      quote: "the place where the goods are located at the time when the supply takes place"
- id: mine0002
  question: "What does multi-head attention allow the model to do?"
  suite: mine
  answerable: true
  gold:
    - file: attention_is_all_you_need.pdf
      heading: ["Model Architecture"]
'''

@pytest.fixture(scope='module')
def stranger(tmp_path_factory):
    "(run, home): `run(*args)` runs a command of the installed wheel's environment in an empty folder outside any checkout."
    tmp = tmp_path_factory.mktemp('stranger')
    subprocess.run([sys.executable, '-m', 'pip', 'wheel', '-q', '--no-deps', '--no-build-isolation', '--disable-pip-version-check', '-w', str(tmp / 'dist'), str(ROOT)],
                   check=True, cwd=tmp)
    venv.create(tmp / 'venv', with_pip=True)
    py = tmp / 'venv' / 'bin' / 'python'
    site = subprocess.run([str(py), '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], capture_output=True, text=True, check=True).stdout.strip()
    Path(site, 'reuse_deps.pth').write_text(sysconfig.get_paths()['purelib'] + '\n')   # the dependencies this environment already has; litebench itself only from the wheel
    wheel = next((tmp / 'dist').glob('litebench-*.whl'))
    subprocess.run([str(py), '-m', 'pip', 'install', '-q', '--no-deps', '--disable-pip-version-check', str(wheel)], check=True)
    home, empty = tmp / 'home', tmp / 'empty'; empty.mkdir(); home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(('LITEBENCH_', 'PYTHON', 'VIRTUAL_ENV', 'CONDA'))}   # nothing the tests before set
    env |= dict(XDG_DATA_HOME=str(home), LITEBENCH_MIRROR=str(SHARED / 'pdfs'), LITEBENCH_CODE_MIRROR=str(SHARED / 'code'), PATH=f"{tmp / 'venv' / 'bin'}:{env['PATH']}")
    def run(cmd, *args, ok=(0,)):
        p = subprocess.run([str(tmp / 'venv' / 'bin' / cmd), *args], cwd=empty, env=env, capture_output=True, text=True, timeout=1200)
        assert p.returncode in ok, f'{cmd} {args} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}'
        return p
    return run, home / 'litebench', empty

def test_imports_the_wheel(stranger):
    run, data, empty = stranger
    where = run('python', '-c', 'import litebench, litebench.core as c; print(litebench.__file__); print(c.shipped("recall/queries.tsv")); print(c.data_dir())').stdout.split()
    assert 'site-packages' in where[0] and not where[0].startswith(str(ROOT)), where
    assert '_shipped' in where[1] and Path(where[2]) == data, where

def test_fetch(stranger):
    run, data, empty = stranger
    out = run('litebench', 'fetch').stdout
    assert '9 files verified' in out and len(list((data / 'pdfs').glob('*.pdf'))) == 9, out

def test_eval_doc(stranger):
    run, data, empty = stranger
    before = set((ROOT / 'data' / 'runs').glob('*')) if (ROOT / 'data' / 'runs').exists() else set()
    out = run('litebench', 'eval', 'doc', '--n', '10', '--quiet').stdout
    folder = Path(out.strip().splitlines()[-1].removeprefix('run folder: '))
    assert folder.parent == data / 'runs' and (folder / 'summary.json').exists(), out[-2000:]
    assert (set((ROOT / 'data' / 'runs').glob('*')) if (ROOT / 'data' / 'runs').exists() else set()) == before   # nothing written into the checkout
    assert list(empty.iterdir()) == []

def test_bench_questions(stranger):
    run, data, empty = stranger
    q = empty.parent / 'mine.yaml'; q.write_text(QUESTIONS)
    assert run('litebench', 'bench', 'validate', '--questions', str(q)).returncode == 0
    out = run('litebench', 'bench', 'run', '--questions', str(q), '--split', 'all', '--quiet').stdout
    assert 'run folder: ' + str(data / 'runs') in out, out[-2000:]

def test_recall(stranger):
    run, data, empty = stranger
    out = run('litebench', 'recall', '--limit', '15', '--quiet').stdout
    assert out.startswith('# recall: pdfs, code') and '## Per type: code, new' in out, out[:2000]
