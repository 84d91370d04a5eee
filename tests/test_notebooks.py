"Every notebook is a test: run each top to bottom (nbdev's runner), one pytest case per notebook."
from pathlib import Path
import os, pytest
from nbdev.test import test_nb as run_nb

NBS = Path(__file__).resolve().parent.parent / 'nbs'
FLAGS = os.environ.get('LITEBENCH_TEST_FLAGS', '').split()   # cells flagged e.g. `#| slow` run only when named here
notebooks = sorted(p for p in NBS.rglob('*.ipynb') if not any(part.startswith(('_', '.')) for part in p.relative_to(NBS).parts))

@pytest.fixture(autouse=True, scope='session')
def own_seals(tmp_path_factory):
    "The tests' record of test questions met (`splits.seals_path`), never the user's."
    os.environ['LITEBENCH_SEALS'] = str(tmp_path_factory.mktemp('seals') / 'sealed_tests.tsv')

@pytest.mark.parametrize('nb', notebooks, ids=[str(p.relative_to(NBS)) for p in notebooks])
def test_notebook(nb):
    ok, secs = run_nb(nb, skip_flags=[], force_flags=FLAGS, basepath=NBS.parent)
    assert ok, f'{nb.name} failed after {secs:.1f}s (traceback above)'
