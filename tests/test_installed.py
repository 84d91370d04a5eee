"A stranger's install: the wheel built from this checkout, installed into a fresh virtual environment, each main command run from an empty folder (tools/stranger.py)."
from pathlib import Path
import sys
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'tools'))
from stranger import Stranger   # noqa: E402

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
def s(tmp_path_factory): return Stranger(ROOT, tmp_path_factory.mktemp('stranger'))

def test_imports_the_wheel(s):
    where = s.run('python', '-c', 'import litebench, litebench.core as c; print(litebench.__file__); print(c.shipped("recall/queries.tsv")); print(c.data_dir())').stdout.split()
    assert 'site-packages' in where[0] and not where[0].startswith(str(ROOT)), where
    assert '_shipped' in where[1] and Path(where[2]) == s.data, where

def test_fetch(s):
    out = s.run('litebench', 'fetch').stdout
    assert '9 files verified' in out and len(list((s.data / 'pdfs').glob('*.pdf'))) == 9, out

def test_eval_doc(s):
    runs = lambda: set((ROOT / 'data' / 'runs').glob('*')) if (ROOT / 'data' / 'runs').exists() else set()
    before = runs()
    out = s.run('litebench', 'eval', 'doc', '--n', '10', '--quiet').stdout
    folder = Path(out.strip().splitlines()[-1].removeprefix('run folder: '))
    assert folder.parent == s.data / 'runs' and (folder / 'summary.json').exists(), out[-2000:]
    assert runs() == before and list(s.work.iterdir()) == []   # nothing written into the checkout, nor into the folder it ran in

def test_bench_questions(s):
    q = s.tmp / 'mine.yaml'; q.write_text(QUESTIONS)
    s.run('litebench', 'bench', 'validate', '--questions', q)
    out = s.run('litebench', 'bench', 'run', '--questions', q, '--split', 'all', '--quiet').stdout
    assert 'run folder: ' + str(s.data / 'runs') in out, out[-2000:]

def test_recall(s):
    out = s.run('litebench', 'recall', '--limit', '15', '--quiet').stdout
    assert out.startswith('# recall: pdfs, code') and '## Per type: code, new' in out, out[:2000]
