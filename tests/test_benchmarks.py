"The benchmarks' command, run as a user runs it: a subprocess on two small acts, one repeat; the reports' shape, never their times."
from pathlib import Path
import os, re, shutil, subprocess, sys
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / 'benchmarks' / 'run.py'
SMALL = ['dir_1993_13_2022-05-28_eng.pdf', 'dir_1996_9_2019-06-06_eng.pdf']   # two short directives, 15 pages


def run(*args, cwd, timeout=300, **env):
    "Run the benchmark command from `cwd`, with the checkout importable, and return the finished process (killed after `timeout` seconds)."
    e = {**os.environ, 'PYTHONPATH': os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')]), **env}
    return subprocess.run([sys.executable, str(RUN), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=e, timeout=timeout)


@pytest.fixture(scope='module')
def pdfs(tmp_path_factory):
    "A folder holding copies of two corpus PDFs."
    from litebench.corpus import fetch_pdfs
    src = ROOT / 'data' / 'pdfs'
    if not all((src / n).exists() for n in SMALL):
        cwd = os.getcwd(); os.chdir(ROOT)
        try: fetch_pdfs()
        finally: os.chdir(cwd)
    d = tmp_path_factory.mktemp('pdfs')
    for n in SMALL: shutil.copy(src / n, d / n)
    return d


def table(md: str) -> list:
    "The rows of the report's table, as lists of cells (header and rule left out)."
    rows = [[c.strip() for c in l.strip('|').split('|')] for l in md.splitlines() if l.startswith('| ')]
    return rows[1:]


def test_ingest(pdfs, tmp_path):
    out = tmp_path / 'ingest.md'
    r = run('ingest', '--repeats', 1, '--pdfs', pdfs, '--out', out, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith(f'ingest benchmark: 2 PDFs from {pdfs}, 1 repeat; report: {out}')
    md = out.read_text()
    assert md.startswith(f'# Ingest benchmark\n\nMade by `python benchmarks/run.py ingest --repeats 1 --pdfs {pdfs} --out {out}`.')
    assert 'Ingest of 2 PDFs, 15 pages' in md
    rows = table(md)
    assert [r[0] for r in rows] == ['parse', 'tree', 'chunks', '**total**']
    shares = [int(r[2].rstrip('%')) for r in rows[:3]]
    assert 98 <= sum(shares) <= 102 and re.fullmatch(r'\d+ pages/s', rows[3][2])


STORE_ROWS = ['build (s)', 'keyword (any)', 'keyword (all)', 'vector', 'hybrid', 'doc_search', 'sections',
              'keyword leg', 'keyword leg, max_df=1', 'keyword leg, SQLite bm25', 'vector leg']
COMPARED = ['build (s)', 'doc_search', 'sections', 'keyword leg', 'vector leg']   # what both stores do


def store_run(pdfs, tmp_path, **env) -> str:
    out = tmp_path / 'store.md'
    r = run('store', '--repeats', 1, '--pdfs', pdfs, '--queries', 5, '--no-hnsw', '--out', out, cwd=tmp_path, **env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith(f'store benchmark: 2 PDFs from {pdfs}, 1 repeat, 5 queries and their short variants; peer: ')
    md = out.read_text()
    assert md.startswith('# Store benchmark\n\nMade by `python benchmarks/run.py store --repeats 1 --pdfs')
    assert [r[0] for r in table(md)] == STORE_ROWS
    assert 'max_df: dropping terms' in md and 'Peak resident memory: litebench' in md and "Fitting LSA (" in md
    return md


def test_store_with_peer(pdfs, tmp_path):
    "With the benchmark venv, every operation both stores have carries a ratio; without it, the report says why."
    md = store_run(pdfs, tmp_path)
    rows = {r[0]: r for r in table(md)}
    if 'litesearch: not run: ' in md:
        assert all(r[5] == '–' for r in rows.values()) and 'Targets' not in md
    else:
        assert all(re.fullmatch(r'\d+\.\d×', rows[k][5]) for k in COMPARED), rows
        assert all(rows[k][5] == '–' for k in STORE_ROWS if k not in COMPARED)
        assert 'Targets: ingest ≥ 3× faster' in md


def test_store_without_peer(pdfs, tmp_path):
    md = store_run(pdfs, tmp_path, LITEBENCH_BENCH_PYTHON=str(tmp_path / 'no-venv' / 'python'))
    assert f'litesearch: not run: no benchmark venv: {tmp_path}/no-venv/python does not exist' in md
    assert all(r[5] == '–' for r in table(md)) and 'Targets' not in md


@pytest.mark.parametrize('args, says', [(['ingst'], "argument what: invalid choice: 'ingst'"),
                                        (['store', '--repeats', 'x'], "argument --repeats: invalid int value: 'x'"),
                                        (['ingest', '--repeats', '0'], '--repeats must be at least 1, got 0'),
                                        (['ingest', '--pdfs', '/nonexistent/pdfs'], '--pdfs /nonexistent/pdfs: no such folder')])
def test_mistakes(args, says, tmp_path):
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ''
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith('ERROR: ') and says in lines[0], r.stderr


def test_shares_by_hand(monkeypatch):
    "A `doc_search`'s parts, from means worked out by hand: legs 3 + 1, fusion 5 - 4 = 1, spans 6 - 5 = 1, of 6."
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from stores import shares
    got = shares({k: dict(mean_ms=v) for k, v in {'keyword leg': 3, 'vector leg': 1, 'hybrid': 5, 'doc_search': 6}.items()})
    assert got == pytest.approx({'keyword leg': 0.5, 'vector leg': 1 / 6, 'fusion and hits': 1 / 6, 'spans': 1 / 6})


LATENCY_ROWS = [f'{op}, {enc} {how}' for enc in ('LSA', 'MiniLM') for how in ('vector given', 'vector given, best of 3', 'embeds the query') for op in ('doc_search', 'sections')]


def test_latency(pdfs, tmp_path):
    "Before (5d65926) and after on two small acts, commands not timed: every query row carries both sides and two ratios; one version read per call after."
    out = tmp_path / 'latency.md'
    r = run('latency', '--pdfs', pdfs, '--queries', 3, '--no-cli', '--out', out, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith(f'latency benchmark: 2 PDFs from {pdfs}, 1 repeat, 3 queries and their short variants; before: 5d65926, after: this checkout; commands not timed')
    md = out.read_text()
    assert md.startswith(f'# Latency benchmark\n\nMade by `python benchmarks/run.py latency --repeats 1 --pdfs {pdfs} --queries 3 --no-cli --out {out}`.')
    assert [r[0] for r in table(md)][:len(LATENCY_ROWS)] == LATENCY_ROWS
    rows = {r[0]: r for r in table(md)}
    assert all(re.fullmatch(r'\d+\.\d×', rows[k][c]) for k in LATENCY_ROWS for c in (5, 6)), rows
    sql = rows['SQL statements per `doc_search` (of which version reads)']
    assert re.fullmatch(r'\d+ \(\d+\)', sql[1]) and sql[2].endswith('(1)')
    assert 'The exact fit is ARPACK' in md and 'What the settings do' in md and 'commands not timed (--no-cli)' in md


def test_latency_mistakes(tmp_path):
    r = run('latency', '--before', 'no-such-commit', cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith('ERROR: --before no-such-commit: neither a commit of') and len(r.stderr.splitlines()) == 1


IMPORT_ROWS = ['`pass`', '`import litebench`', '`from litebench import score_text`', '`from litebench import score_text, compare, bootstrap_ci`', '`from litebench import TreeStore`']
SCORERS = ['data only', 'litebench, one query at a time', 'litebench, whole run as arrays', 'pytrec_eval', 'ranx']


def test_import(tmp_path):
    "Before (682ee73) and after, 200 queries, one repeat: every import row has both sides; every scorer gives the same means, or is reported as not installed."
    import importlib.util
    out = tmp_path / 'import.md'
    r = run('import', '--repeats', 1, '--queries', 200, '--out', out, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith('import benchmark: 200 queries × 100 results, 1 repeat; comparators: pytrec_eval ')
    md = out.read_text()
    assert md.startswith(f'# Import benchmark\n\nMade by `python benchmarks/run.py import --repeats 1 --queries 200 --out {out}`.')
    rows = table(md)
    imports, scores = rows[:len(IMPORT_ROWS)], rows[len(IMPORT_ROWS) + 1:]   # the second table's header row sits between
    assert [x[0] for x in imports] == IMPORT_ROWS and all(re.fullmatch(r'\d+', c) for x in imports for c in x[1:7]), imports
    light = dict((x[0], x[7]) for x in imports)['`from litebench import score_text`']
    assert light.endswith('→ none'), light
    tool_of = lambda name: next(t for t in SCORERS[::-1] if name == t or name.startswith(t + ' '))   # a comparator's name carries its version
    assert [tool_of(x[0]) for x in scores] == SCORERS, scores
    for x in scores:
        tool = tool_of(x[0])
        if tool in ('pytrec_eval', 'ranx') and importlib.util.find_spec(tool) is None: assert x[1] == 'not installed'; continue
        assert all(re.fullmatch(r'\d+(\.\d+)?', c) for c in x[1:4]), x
        if tool != 'data only': assert x[6:] == scores[1][6:], (x, scores[1])   # the same MRR@10, nDCG@10, R@100 to 4 digits
    assert "Largest difference of a mean from litebench's one-query functions" in md and 'Third-party packages loaded' in md


def test_import_mistakes(tmp_path):
    r = run('import', '--before', 'no-such-commit', cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith('ERROR: --before no-such-commit: neither a commit of') and len(r.stderr.splitlines()) == 1
    r = run('import', '--queries', '0', cwd=tmp_path)
    assert r.returncode == 2 and 'ERROR: --queries must be at least 1, got 0' in r.stderr


def test_factorial(tmp_path):
    "Three dev questions, one repeat: both designs with the cache on and off, and the factorial's rows the same both ways (never the times)."
    out = tmp_path / 'f.md'
    r = run('factorial', '--repeats', 1, '--queries', 3, '--out', out, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith('factorial benchmark: 9 PDFs from the default corpus, 1 repeat; the dev questions (at most 3)')
    md = out.read_text()
    rows = table(md)
    assert [x[:2] for x in rows] == [['ladder', '7'], ['factorial', '128']] and all(re.fullmatch(r'\d+\.\d+', c) for x in rows for c in x[2:]), rows
    assert "The factorial's rows with and without the cache are the same" in md and '(3 questions,' in md


def test_dask_ingest(tmp_path):
    "Four synthetic PDFs on one worker and on two: the report's rows and its paragraph on paper (never the times)."
    pytest.importorskip('distributed')
    out = tmp_path / 'd.md'
    r = run('dask-ingest', '--files', 4, '--workers', '1,2', '--out', out, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith(f'dask-ingest benchmark: 4 synthetic PDFs, workers 1,2; report: {out}')
    md = out.read_text()
    assert md.startswith(f'# Dask ingest benchmark\n\nMade by `python benchmarks/run.py dask-ingest --repeats 1 --files 4 --out {out}`.')
    assert 'of 4 synthetic PDFs, 12 pages, 24 chunks, as 4 Dask tasks' in md
    rows = table(md)
    assert [x[0] for x in rows] == ['1', '2'] and rows[0][-1] == '100%' and all(re.fullmatch(r'\d+%', x[-1]) for x in rows), rows
    assert '**A million pages, on paper.**' in md and re.search(r'about [\d.]+ h on 1 worker, [\d.]+ h on 8', md)


@pytest.mark.parametrize('args, says', [(['dask-ingest', '--files', '0'], '--files must be at least 1, got 0'),
                                        (['dask-ingest', '--workers', 'a,b'], '--workers a,b: expected worker counts such as 1,2'),
                                        (['dask-ingest', '--workers', '0'], 'each worker count must be at least 1')])
def test_dask_ingest_mistakes(args, says, tmp_path):
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == '' and says in r.stderr, r.stderr


def test_scale(tmp_path):
    "The smallest size, 5 queries: one row with every column, the before numbers beside it, the targets said (never the times); the keyword kernels side by side, and the legs one after the other and at once, answering alike."
    out = tmp_path / 'scale.md'
    r = run('scale', '--sizes', 1, '--queries', 5, '--out', out, cwd=tmp_path, timeout=900)   # (MiniLM embeds the text set's 2,000 texts)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith('scale benchmark: 9 PDFs from the default corpus, 1 repeat, sizes 1×, 5 queries; report: ')
    md = out.read_text()
    assert md.startswith(f'# Scale benchmark\n\nMade by `python benchmarks/run.py scale --repeats 1 --queries 5 --sizes 1 --out {out}`.')
    tables = [b for b in md.split('\n\n') if b.startswith('| ')]              # the sizes, the build by phase, the bytes by component
    rows, phases = table(tables[0]), table(tables[1])
    assert len(rows) == 1 and rows[0][0] == '1×' and len(rows[0]) == 10 and rows[0][9].startswith('1,449, 0.3 s'), rows
    assert tables[1].startswith('| size | chunks | tree | chunks | sync | postings | HNSW | of it beside the postings | rest | build |') and len(phases) == 1 and phases[0][:2] == ['1×', '1,449'], phases
    tree, chunks, sync, postings, hnsw, beside, rest, whole = [float(c) for c in phases[0][2:10]]
    assert phases[0][9] == rows[0][3] and abs(tree + chunks + sync + postings + hnsw - beside + rest - whole) < 0.5, phases   # the phases add up to the build, the index's time beside the postings once
    assert hnsw == beside == 0 and min(tree, chunks, sync, postings) > 0, phases                                           # no HNSW index below exact_below
    parts = dict(table('| component |' + md.split('\n\n| component |')[1].split('\n\n')[0]))
    assert {'SQLite chunks', 'snapshot vectors', 'snapshot postings'} <= set(parts) and all(int(v) > 0 for v in parts.values()), parts
    assert 'Targets: open + first query < 1.0 s at 100k chunks' in md and '1M-vector search: not run' in md and 'HNSW recall@10 against exact search' in md
    kernels = table('| size | chunks | numpy' + md.split('\n\n| size | chunks | numpy')[1].split('\n\n')[0])   # numba is in the dev install: both kernels timed
    assert len(kernels) == 1 and kernels[0][:2] == ['1×', '1,449'] and re.fullmatch(r'(\d+) of \1', kernels[0][5]), kernels          # the same hits with each
    legs = table('| size | chunks | one thread' + md.split('\n\n| size | chunks | one thread')[1].split('\n\n')[0])   # the legs one after the other, and at once
    assert len(legs) == 1 and legs[0][:2] == ['1×', '1,449'] and re.fullmatch(r'(\d+) of \1', legs[0][5]), legs
    kept = table('| vectors kept as' + md.split('\n\n| vectors kept as')[1].split('\n\n')[0])   # the stored vectors' precision: float32 against itself has no comparison
    assert [x[0] for x in kept] == ['float32', 'float16', '8-bit'] and kept[0][1:5] == ['–'] * 4 and kept[0][8] == '–', kept
    n = int(re.search(r'(\d+) queries \(verbatim sentences', md)[1])          # the queries searched (verbatim ones and their variants)
    for x in kept[1:]:
        order, members, first = map(float, x[1:4]); moved = re.fullmatch(r'(\d+) of (\d+)', x[4])
        assert 0 <= order <= members <= 1 and 0 <= first <= 1 and moved and int(moved[1]) <= int(moved[2]) == n and re.fullmatch(r'[+-]\d\.\d{4} \[[+-]\d\.\d{4}, [+-]\d\.\d{4}\]', x[8]), x
    assert all(float(x[5]) <= float(x[6]) for x in kept) and 'exact vector search over the corpus\'s 1,449 chunks' in md, kept   # r@1 never above r@10
    texts = table('| vectors | rows' + md.split('\n\n| vectors | rows')[1].split('\n\n')[0])   # HNSW on distinct real texts: each encoder's set as large as the store
    assert [x[:3] for x in texts] == [['lsa', '1,449', 'exactly (recall 1.000)'], ['minilm', '1,449', 'exactly (recall 1.000)']] and all(re.fullmatch(r'\d+\.\d / \d+\.\d', x[3]) for x in texts), texts
    assert all(re.fullmatch(r'[01]\.\d{3} / [01]\.\d{3}, \d+\.\d\d ms', c) for x in texts for c in x[5:]), texts   # below exact_below the store searches exactly: no width in bold
    busy = table('| size | chunks | idle' + md.split('\n\n| size | chunks | idle')[1].split('\n\n')[0])   # the machine idle and busy
    assert len(busy) == 1 and busy[0][:2] == ['1×', '1,449'] and busy[0][5] in ('yes', '**no**'), busy
    assert 'leg cache off' in md and "**Worst cases, not the store's recall on text.**" in md


def test_scale_paired(tmp_path):
    "Paired against HEAD at 1×, 3 queries, two repeats: a row of medians and ratios, each repeat with the sides in turn first; the same code gives the same hits."
    out = tmp_path / 'paired.md'
    r = run('scale', '--sizes', 1, '--queries', 3, '--repeats', 2, '--before', 'HEAD', '--out', out, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith('scale benchmark: 9 PDFs from the default corpus, 2 repeats, sizes 1×, 3 queries; paired: before: HEAD, after: this checkout, the sides alternating; report: ')
    md = out.read_text()
    assert md.startswith(f'# Scale benchmark, paired\n\nMade by `python benchmarks/run.py scale --repeats 2 --queries 3 --before HEAD --sizes 1 --out {out}`.\n\nBefore: `HEAD (')
    medians, repeats = table(md.split('\n\nEvery repeat')[0]), table(md.split('\n\nEvery repeat')[1])
    assert len(medians) == 1 and medians[0][:2] == ['1×', '1,449'] and all(re.fullmatch(r'[\d.]+ / [\d.]+ / ([\d.]+|–)', c) for c in medians[0][2:]), medians
    assert [x[1] for x in repeats] == ['1 (before first)', '2 (after first)'], repeats
    n = int(re.search(r'how many of the (\d+) queries', md)[1])
    assert n >= 2 and all(x[4:] == [f'{n} ({n}) / {n}'] * 3 for x in repeats), repeats     # below exact_below, the same code searches exactly: the same hits


def test_scale_paired_mistakes(tmp_path):
    for args, says in ((['--before', 'HEAD', '--million'], 'ERROR: --million measures this checkout alone: not with --before'),
                       (['--before', 'no-such-commit'], 'ERROR: --before no-such-commit: neither a commit of')):
        r = run('scale', *args, cwd=tmp_path)
        assert r.returncode == 2 and r.stderr.startswith(says) and len(r.stderr.splitlines()) == 1, r.stderr
    r = run('scale', '--sizes', 1, '--queries', 3, '--before', 'cedfef9', cwd=tmp_path)      # the first commit: no tree store yet
    assert r.returncode == 1 and len(r.stderr.splitlines()) == 1, r.stderr
    assert re.fullmatch(r"ERROR: side_build failed with the litebench of cedfef9: \w*Error: .+\n", r.stderr), r.stderr      # the commit named, and its process's last words


def test_scale_widths(monkeypatch):
    "Above `exact_below`, the report gives each HNSW search width's recall@10 and time, per size, from a result made by hand."
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from scale import scale_report
    width = lambda r, ms: dict(recall10=r, search=dict(median_ms=ms, p95_ms=ms))
    row = lambda k, n, hnsw: dict(k=k, chunks=n, build_s=1.0, open_first_s=0.1, any=dict(median_ms=1.0, p95_ms=2.0), all=dict(median_ms=1.0), disk_bytes=10 ** 7, text_bytes=10 ** 6, hnsw=hnsw)
    md = scale_report(dict(rows=[row(1, 1637, dict(recall10=0.99, forced=True, by_width={64: width(0.99, 0.1)})),
                                 row(64, 104768, dict(recall10=0.72, forced=False, width=256, by_width={64: width(0.5, 0.2), 256: width(0.72, 0.46)}))],
                           queries=5, million=None, machine='m'))
    assert '| size | chunks | width 64 | width 256 (the store’s) |' in md and '| 64× | 104,768 | 0.500, 0.20 ms | 0.720, 0.46 ms |' in md and '| 1× | 1,637 | 0.990' not in md
    assert '1× 0.990 (index built for this check' in md and '64× 0.720' in md
    assert 'built in other ways' not in md                                        # no side-by-side types measured: no such table
    text = lambda n, w: dict(encoder='lsa', rows=n, id=dict(mle=8.0, twonn=2.0), build_s=0.1, width=w, fit=n, sources={'corpus': n}, dtype='i8', connectivity=16, expansion_add=128,
                             by_width={64: dict(recall10=dict(held=0.9, queries=0.95), search=dict(median_ms=0.1)), w: dict(recall10=dict(held=0.96, queries=0.99), search=dict(median_ms=0.2))})
    md = scale_report(dict(rows=[row(1, 1637, dict(recall10=0.99, forced=True, by_width={64: width(0.99, 0.1)}))], queries=5, million=None, machine='m', texts=[text(5796, 256), text(23184, 256)]))
    assert '| lsa | 5,796 | exactly (recall 1.000) | 8.0 / 2.0 | 0.1 | 0.900 / 0.950, 0.10 ms | 0.960 / 0.990, 0.20 ms |' in md, md   # below exact_below: the index is for the table only
    assert '| lsa | 23,184 | HNSW | 8.0 / 2.0 | 0.1 | 0.900 / 0.950, 0.10 ms | **0.960 / 0.990, 0.20 ms** |' in md and 'exact_below` (20,000 rows' in md, md


def test_index_variants(monkeypatch):
    "HNSW index variants side by side on small real vectors: each one's build, size, search and recall, the 8-bit index smaller than float32's and the store's own among them; and their row in the report."
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from scale import index_variants, hnsw_variants, scale_report
    import litebench.vectors as vectors
    v = hnsw_variants()
    assert v["i8 (the store's)"] == dict(dtype=vectors.HNSW_DTYPE, expansion_add=vectors.HNSW_ADD) and v['f32']['dtype'] == 'f32' and v['i8, add 32']['expansion_add'] == 32, v
    rng = np.random.default_rng(0); M = rng.standard_normal((2000, 32)).astype(np.float32); M /= np.linalg.norm(M, axis=1, keepdims=True)
    t = index_variants(M, M[:20] + 0.01, variants={k: v[k] for k in ('f32', "i8 (the store's)", 'i8, add 32')}, repeats=1)
    f32, i8, narrow = t['types']['f32'], t['types']["i8 (the store's)"], t['types']['i8, add 32']
    assert t['n'] == 2000 and i8['bytes_per_vector'] < f32['bytes_per_vector'] and all(0.5 <= x['recall10'] <= 1 and x['build_s'] > 0 for x in (f32, i8, narrow)), t
    row = dict(k=64, chunks=2000, build_s=1.0, open_first_s=0.1, any=dict(median_ms=1.0, p95_ms=2.0), all=dict(median_ms=1.0), disk_bytes=10 ** 7, text_bytes=10 ** 6,
               hnsw=dict(recall10=0.9, forced=False, width=256, by_width={256: dict(recall10=0.9, search=dict(median_ms=0.3, p95_ms=0.4))}), types=t)
    md = scale_report(dict(rows=[row], queries=20, million=None, machine='m'))
    assert "| size | chunks | f32 | i8 (the store's) | i8, add 32 |" in md and f"| 64× | 2,000 | {f32['build_s']:.1f} s, {f32['bytes_per_vector']:.0f} B" in md, md


def test_copy_names(pdfs, monkeypatch):
    "Every replica's name leads back to its document (the paired report's count of the same hits up to copies rests on it), and no two copies share a name."
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from scale import replicas, original
    from litebench.pdf import pdf_pages
    docs = [pdf_pages(f) for f in sorted(pdfs.glob('*.pdf'))]
    copies = replicas(docs, 3)
    assert [original(c[0].doc) for c in copies] == [d[0].doc for d in docs] * 3 and len({c[0].doc for c in copies}) == 3 * len(docs)
    assert all({p.doc for p in c} == {c[0].doc} for c in copies)


def test_replicated_postings(pdfs, monkeypatch):
    "The 1M keyword row's postings, made by replicating a store's, rank as a store of the replicated documents does: the same scores and terms held."
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from types import SimpleNamespace
    from scale import replicas, replicated_postings
    from litebench.pdf import pdf_pages
    from litebench.encode import LSA
    from litebench.treestore import TreeStore
    from litebench.legs import _kw_memory
    docs = [pdf_pages(f) for f in sorted(pdfs.glob('*.pdf'))]
    enc = LSA(dim=8).fit([p.text for d in docs for p in d])
    one, three = TreeStore(':memory:', enc), TreeStore(':memory:', enc)
    for d in docs: one.add_doc(d)
    for d in replicas(docs, 3): three.add_doc(d)
    R = replicated_postings(one.mem.postings, 3)
    m = SimpleNamespace(postings=R, n=R.n, df={t: c * 3 for t, c in one.mem.df.items()})
    assert R.n == three.mem.n == 3 * one.mem.n
    for q in ('protection of the database', 'term of protection fifteen years', 'the member states shall', 'directive'):
        a, b = _kw_memory(m, q, 'any', True, 50, None, 0.2, 3), _kw_memory(three.mem, q, 'any', True, 50, None, 0.2, 3)
        assert a.pos and (a.score, a.held, a.terms) == (b.score, b.held, b.terms), q


def test_intrinsic_dim(monkeypatch):
    "The local intrinsic dimension of unit vectors on a known number of dimensions comes out near it; copies of a point give it none."
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from texts import intrinsic_dim
    rng = np.random.default_rng(0)
    for d in (2, 8):
        Z = rng.standard_normal((20000, d)) @ rng.standard_normal((d, 64)) + 5 * rng.standard_normal(64); Z /= np.linalg.norm(Z, axis=1, keepdims=True)
        got = intrinsic_dim(Z.astype(np.float32))
        assert abs(got['mle'] - d) < 0.15 * d and abs(got['twonn'] - d) < 0.2 * d and got['copies'] < 0.01, (d, got)
    got = intrinsic_dim(np.tile(Z[:500].astype(np.float32), (4, 1)))
    assert got['copies'] == 1 and got['sample'] == 0 and np.isnan(got['mle']), got


def test_distinct_rows(monkeypatch):
    "Of equal and zero rows only the first nonzero of each is kept, in order."
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from texts import distinct_rows, pieces
    X = np.array([[1, 0], [0, 0], [0, 1], [1, 0], [0, 1], [1, 1]], np.float32)
    assert distinct_rows(X).tolist() == [0, 2, 5]
    got = pieces('One two three four five six. Seven eight nine ten eleven twelve. Too short.')
    assert got[0].startswith('One two') and 'Seven eight nine ten eleven twelve. Too short.' in got and len(got) == 3, got


def test_text_rows_report(monkeypatch):
    "The recall rows on distinct real texts, the busy-machine rows and the worst cases' labels, from a result made by hand: the store's width in bold, the ratio judged against 1.5×."
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from scale import scale_report
    w = lambda h, q, ms: dict(recall10=dict(held=h, queries=q), search=dict(median_ms=ms, p95_ms=ms))
    t = dict(encoder='lsa', rows=100_000, dim=256, fit=100_000, sources={'corpus': 6000, 'python': 94000}, id=dict(mle=14.2, twonn=12.9), width=256, build_s=20.0,
             connectivity=16, expansion_add=128, dtype='i8', by_width={128: w(0.95, 0.97, 0.3), 256: w(0.985, 0.99, 0.5)})
    busy = dict(rounds=3, others=2, idle=dict(median_ms=1.0, p95_ms=2.0), busy=dict(median_ms=1.6, p95_ms=3.0))
    row = dict(k=1, chunks=1449, build_s=1.0, open_first_s=0.1, any=dict(median_ms=1.0, p95_ms=2.0), all=dict(median_ms=1.0), disk_bytes=10 ** 7, text_bytes=10 ** 6,
               hnsw=dict(recall10=1.0, forced=True, by_width={256: dict(recall10=1.0, search=dict(median_ms=0.1, p95_ms=0.1))}), busy=busy)
    md = scale_report(dict(rows=[row], queries=5, million=None, machine='m', texts=[t],
                           ids=dict(replicated=dict(copies=1.0, sample=0, mle=float('nan'), rows=23184), synthetic=dict(mle=81.0, twonn=79.0, rows=23184))))
    assert '| lsa | 100,000 | HNSW | 14.2 / 12.9 | 20.0 | 0.950 / 0.970, 0.30 ms | **0.985 / 0.990, 0.50 ms** |' in md, md
    assert '| 1× | 1,449 | 1.00 / 2.00 | 1.60 / 3.00 | 1.60× | **no** |' in md and 'leg cache off' in md
    assert 'MLE 81.0 / TwoNN 79.0' in md and 'for 100% of the points the nearest neighbour is a copy' in md and "**Worst cases, not the store's recall on text.**" in md
