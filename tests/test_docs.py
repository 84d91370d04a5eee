"The published site: nbdev's own processing keeps every page's prose, API docs and findings; settings agree; and the docs check and the findings pages' renderer catch what they must."
from pathlib import Path
import base64, importlib, inspect, json, re, shutil, subprocess, sys
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'tools'))
import docs_check as dc, render_eval as re_, nbmd   # noqa: E402

NBS = ROOT / 'nbs'
NOTEBOOKS = sorted(p.relative_to(NBS).as_posix() for p in NBS.rglob('*.ipynb') if not any(x.startswith(('_', '.')) for x in p.relative_to(NBS).parts))
needs_pandoc = pytest.mark.skipif(not shutil.which('pandoc'), reason='pandoc is not installed (Debian: apt-get install pandoc)')
needs_browser = pytest.mark.skipif(not dc.browser(), reason='chromium is not installed (Debian: apt-get install chromium)')
PNG = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==')


def src(c) -> str: return ''.join(c.get('source') or '')
def nb(path) -> dict: return json.loads(Path(path).read_text(encoding='utf-8'))


# ---------------------------------------------------------------- settings

def test_settings_agree():
    "doc_host and doc_baseurl follow git_url (GitHub Pages of the same repository); nbdev.yml is what nbdev writes; _quarto.yml points nowhere else."
    import nbdev.quarto
    cfg = dc.config()
    assert cfg.git_url == f'https://github.com/{cfg.user}/{cfg.repo}'
    assert (cfg.doc_host, cfg.doc_baseurl) == (f'https://{cfg.user}.github.io', f'/{cfg.repo}')
    vals = {k: cfg[k] for k in ['title', 'description', 'branch', 'git_url', 'doc_host', 'doc_baseurl']} | {'doc_path': cfg.doc_path.name}
    assert (NBS / 'nbdev.yml').read_text() == nbdev.quarto._nbdev_yml.format(**vals)   # so a docs build leaves it as it is
    q = (NBS / '_quarto.yml').read_text()
    assert 'output-dir' not in q and 'site-url' not in q                                # nbdev.yml's, from settings.ini
    assert all(u.startswith((cfg.git_url, cfg.doc_host + cfg.doc_baseurl)) for u in re.findall(r'https?://[^\s"\']+', q))


def test_sidebar_lists_the_pages():
    "Every sidebar entry is a page that exists; every library notebook and both findings pages are listed."
    import yaml
    side = yaml.safe_load((NBS / 'sidebar.yml').read_text())['website']['sidebar']['contents']
    def flat(es):
        for e in es:
            if isinstance(e, str): yield e
            elif 'section' in e: yield from flat(e['contents'])
            else: yield e['href']
    listed = list(flat(side))
    assert all((NBS / e).is_file() for e in listed), [e for e in listed if not (NBS / e).is_file()]
    assert {n for n in NOTEBOOKS if re.match(r'\d', n)} <= set(listed)
    assert {'index.ipynb', 'evals/rendered/doc_eval.md', 'evals/rendered/bench.md', 'evals/rendered/recall.md', 'evals/rendered/answers.md', 'tutorials/own_pdfs.ipynb'} <= set(listed)


# ---------------------------------------------------------------- the notebooks, as nbdev reads them

@pytest.mark.parametrize('name', NOTEBOOKS)
def test_first_cell_is_title_and_summary(name):
    "nbdev makes the first markdown cell the page's title and description and drops the rest of it: so it holds only those."
    cells = nb(NBS / name)['cells']
    first = src(cells[0]).strip().splitlines()
    assert cells[0]['cell_type'] == 'markdown' and first[0].startswith('# ') and [l for l in first[1:] if l.strip()][0].startswith('> ')
    assert [l for l in first if l.strip() and not l.startswith(('# ', '> '))] == []


@pytest.mark.parametrize('name', NOTEBOOKS)
def test_imports_alone(name):
    "A cell with an import holds only imports (nbdev runs such cells to build the API docs, so anything else in them would run too)."
    import ast
    for c in nb(NBS / name)['cells']:
        if c['cell_type'] != 'code' or re.search(r'^#\|\s*export', src(c), re.M): continue
        t = ast.parse(src(c))
        if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(t)):
            assert all(isinstance(n, (ast.Import, ast.ImportFrom)) for n in t.body), f'{name}: a cell mixes imports with other code:\n{src(c)[:300]}'


@pytest.fixture(scope='module')
def processed():
    "nbdev's own docs processing of nbs/ (what nbdev_proc_nbs and nbdev_docs do before Quarto), run once; the tracked files before and after."
    before = dc.tracked_state()
    cache = dc.process()
    return cache, before, dc.tracked_state()


def test_processing_changes_no_tracked_file(processed):
    cache, before, after = processed
    assert before == after, sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    assert all(subprocess.run(['git', 'check-ignore', '-q', d], cwd=ROOT).returncode == 0 for d in ('_proc/', '_docs/', '_docs_check/'))


@pytest.mark.parametrize('name', NOTEBOOKS)
def test_page_keeps_prose_and_api(processed, name):
    "Each page keeps its title and summary, every paragraph of its prose, and the API docs of every function and class its module exports."
    cache = processed[0]
    orig, done = nb(NBS / name)['cells'], nb(cache / name)['cells']
    fm = nbmd.front_matter(done)
    first = src(orig[0])
    assert fm['title'] == re.search(r'^# (.+)$', first, re.M)[1].strip() and fm['description'] == re.search(r'^> (.+)$', first, re.M)[1].strip()
    unlink = lambda t: re.sub(r'\]\([^)]*\)', ']', t)   # link targets may change (nbdev links names to their docs)
    have = ' ' + ' '.join(nbmd.words(unlink('\n'.join(src(c) for c in done if c['cell_type'] == 'markdown')))) + ' '
    for c in orig[1:]:
        for para in re.split(r'\n\s*\n', src(c)) if c['cell_type'] == 'markdown' else []:
            w = nbmd.words(unlink(para))[:12]
            assert ' ' + ' '.join(w) + ' ' in have, f'{name}: lost the paragraph {para[:100]!r}'
    mod = next((m[1] for c in orig if (m := re.search(r'^#\|\s*default_exp\s+(\S+)', src(c), re.M))), None)
    if not mod: return
    M = importlib.import_module(f'litebench.{mod}')
    docs = '\n'.join(''.join(o.get('data', {}).get('text/markdown', '')) for c in done for o in c.get('outputs', []))
    for n in M.__all__:
        o = getattr(M, n)
        if not (inspect.isfunction(o) or inspect.isclass(o)): continue
        assert re.search(rf'^###\s+(?:{re.escape(n)}|{re.escape(o.__name__)})\s*$', docs, re.M), f'{name}: no API docs (show_doc) for {mod}.{n}'


@pytest.mark.parametrize('name', ['doc_eval', 'bench', 'recall', 'answers'])
def test_findings_pages_survive_processing(processed, name):
    "The findings pages are part of the site as they are: their findings table and every figure are in the processed site."
    cache = processed[0]
    md = (cache / f'evals/rendered/{name}.md').read_text(encoding='utf-8')
    assert md == (NBS / f'evals/rendered/{name}.md').read_text(encoding='utf-8')
    assert dc._findings_rows(md)
    imgs = re.findall(r'!\[[^\]]*\]\(([^)\s]+)\)', md)
    assert imgs and all((cache / 'evals/rendered' / i).is_file() for i in imgs)


def test_readme_is_made_from_index(processed):
    "README.md says what nbs/index.ipynb says, and gives the two commands of a fresh machine."
    p = dc.Problems(); dc.check_readme(processed[0], p)
    assert not p, p
    md = (ROOT / 'README.md').read_text(encoding='utf-8')
    assert '\nlitebench eval doc ' in md and '\npytest ' in md


def test_rendered_pages():
    "The committed findings pages name their commit, hold markdown tables (no pandas HTML, no cut cells) and their figures."
    p = dc.Problems(); dc.check_rendered(p)
    assert not p, p


# ---------------------------------------------------------------- the docs check catches what it must

def test_check_rendered_catches(tmp_path):
    "A findings page without its commit, with pandas HTML, a cut or broken table, or a missing figure is refused."
    sha = subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    good = f'# t\n\nRendered from commit [`{sha[:12]}`](x)\n\n| a | b |\n|---|---|\n| 1 \\| 2 | 3 |\n\n![f](f_files/1.png)\n'
    (tmp_path / 'f_files').mkdir(); (tmp_path / 'f_files/1.png').write_bytes(PNG)
    def problems(md):
        (tmp_path / 'f.md').write_text(md); p = dc.Problems(); dc.check_rendered(p, tmp_path, ['f']); return p
    assert problems(good) == []
    assert any('which commit' in x for x in problems(good.replace('from commit', 'at')))
    assert any('is not in this repository' in x for x in problems(good.replace(sha[:12], 'f' * 12)))
    assert any('pandas HTML' in x for x in problems(good + '<style scoped>\n</style>\n'))
    assert any('cut short' in x for x in problems(good.replace('| 3 |', '| 3... |')))
    assert any('numbers of cells' in x for x in problems(good.replace('\\| 2', '| 2')))
    assert any('not beside the page' in x for x in problems(good.replace('1.png', '2.png')))

def mini_site(tmp_path, body='See [the page](other.md) and [nowhere](missing.md).', image='fig.png'):
    "A processed site of two markdown pages: a findings page with a table, an image and links, and the page it links to."
    c = tmp_path / '_proc'; (c / 'evals').mkdir(parents=True)
    (c / '_quarto.yml').write_text('website:\n  navbar:\n    left:\n      - text: Findings\n        href: evals/f.md\n')
    (c / 'sidebar.yml').write_text('website:\n  sidebar:\n    contents:\n      - index.md\n      - evals/f.md\n')
    (c / 'index.md').write_text('# Home\n\nThe home page of a small site, with prose a reader must see.\n')
    (c / 'evals/other.md').write_text('# Other\n\nAnother page.\n\n## A section {#sec}\n')
    (c / 'evals/fig.png').write_bytes(PNG)
    (c / 'evals/f.md').write_text(f'# Findings page\n\n{body}\n\n| finding | evidence |\n|---|---|\n| one | +0.1 |\n| two | +0.2 |\n\n![a figure]({image})\n\n'
                                  'A [section link](other.md#sec) and a [bad anchor](other.md#nope).\n')
    site = dc.Site(c, tmp_path / 'site'); site.build()
    return site


@needs_pandoc
def test_links_checked(tmp_path):
    "Broken relative links and anchors are found; links between pages point at their HTML, as Quarto makes them."
    site = mini_site(tmp_path)
    p = dc.Problems(); n = dc.check_links(site, p)
    assert n['internal'] > 0
    assert any("'missing.md'" in x for x in p) and any('no anchor #nope' in x for x in p) and len(p) == 2, p
    assert 'href="other.html#sec"' in (site.out / 'evals/f.html').read_text()


@needs_pandoc
def test_paragraphs_and_shown():
    paras = dc.paragraphs('A first paragraph, with `code` and a [link](x.md).\n\n- an item of a list that counts\n\n```\nnot prose at all\n```\n')
    assert paras == [['a', 'first', 'paragraph', 'with', 'code', 'and', 'a', 'link'], ['an', 'item', 'of', 'a', 'list', 'that', 'counts']]
    assert dc.shown(paras, nbmd.words('A first paragraph, with code and a link. An item of a list that counts.')) == []
    assert dc.shown(paras, nbmd.words('An item of a list that counts.')) == [paras[0]]


FIT = dict(widths=[], broken={}, past=0, scroll=0)   # a table that fits: no word broken, nothing past the window


def report(**kw) -> dict:
    "What Chromium reports for a findings page that shows everything; `kw` spoils a part of it."
    r = dict(h1='Findings page', text='See the page and nowhere. one two',
             tables=[dict(head=['finding', 'evidence'], rows=2, shown=True, top=10, widths=[300, 300], broken={}, past=0, scroll=0)],
             images=[dict(src='fig.png', loaded=True, width=1, height=1, shown=True, top=20)], height=900)
    return r | kw


def test_check_page_finds_what_is_missing():
    md = '# Findings page\n\nSee [the page](o.md) and nowhere.\n\n| finding | evidence |\n|---|---|\n| one | +0.1 |\n| two | +0.2 |\n\n![f](fig.png)\n'
    prose = dc.md_title(md)[1]
    def problems(rep, **kw):
        p = dc.Problems(); dc.check_page('f', 'Findings page', prose, rep, p, findings=md, **kw); return p
    if shutil.which('pandoc'): assert problems(report()) == []
    else: pytest.skip('pandoc is not installed (Debian: apt-get install pandoc)')
    assert any('did not load' in x for x in problems(report(images=[dict(src='fig.png', loaded=False, width=0, height=0, shown=True, top=1)])))
    assert any('not the findings table' in x for x in problems(report(tables=[dict(head=['system', 'n'], rows=9, shown=True, top=1, **FIT)] + report()['tables'])))
    assert any('shows 1 rows' in x for x in problems(report(tables=[dict(head=['finding', 'evidence'], rows=1, shown=True, top=1, **FIT)])))
    assert any('prose paragraphs are not shown' in x for x in problems(report(text='one two')))
    assert any("the command 'pytest' is not shown" in x for x in problems(report(), commands=('pytest',)))
    assert any('title shown' in x for x in problems(report(h1='Something else')))
    assert problems(report(h1='Findings page\u2019s')) != problems(report(h1="Findings page"))
    tab = lambda **kw: report(tables=[report()['tables'][0] | kw])
    assert any("column 'finding' (30 px) breaks 1 word(s) such as 'finding'" in x for x in problems(tab(widths=[30, 600], broken={'0': ['finding']})))
    assert any('40 px past the window' in x for x in problems(tab(past=40)))
    assert any('wider than the page' in x for x in problems(tab(scroll=200)))


def test_stale_pages():
    "A findings page made before the last change to a module its notebook runs (directly or through another module) is stale."
    mods = dc.page_modules(ROOT / 'nbs/evals/doc_eval.ipynb')
    assert {'doceval', 'store', 'snapshot', 'tree'} <= mods and 'cli' not in mods      # snapshot only through store
    assert dc.imported_modules('from litebench import store, report\nfrom litebench.core import (a,\n  b)\nimport litebench.tree') == {'store', 'report', 'core', 'tree'}
    head = subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert dc.stale(head, mods) == []
    first = subprocess.run(['git', 'log', '-1', '--format=%H', '--', 'litebench/snapshot.py'], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert any(x.startswith('snapshot (') for x in dc.stale(first + '~1', mods))


@needs_browser
@needs_pandoc
def test_browser_sees_images_load_or_not(tmp_path):
    "In Chromium, an image beside the page loads and a missing one does not; the page's text and tables are read as shown."
    site = mini_site(tmp_path, image='nofig.png')
    (site.out / 'evals/ok.html').write_text((site.out / 'evals/f.html').read_text().replace('nofig.png', 'fig.png'))
    bad = dc.look(site.out / 'evals/f.html', tmp_path / 'shots', 'bad')
    good = dc.look(site.out / 'evals/ok.html', tmp_path / 'shots', 'good')
    assert [i['loaded'] for i in bad['images']] == [False] and [i['loaded'] for i in good['images']] == [True]
    assert good['h1'] == 'Findings page' and good['tables'][0]['head'] == ['finding', 'evidence'] and good['tables'][0]['rows'] == 2
    assert (tmp_path / 'shots/good-top.png').stat().st_size > 1000 and (tmp_path / 'shots/good-full.png').exists()
    assert good['tables'][0]['broken'] == {} and good['tables'][0]['past'] == 0


@needs_browser
@needs_pandoc
def test_browser_measures_columns(tmp_path):
    "In Chromium at the check's width, a column crushed by a long neighbour breaks its words, and the project's styles keep it whole."
    long = ' '.join(['evidence'] * 400)
    site = mini_site(tmp_path, body=f'| name | evidence |\n|-|------------------------------------------------|\n| Incomprehensibilities | {long} |')
    crushed = dc.look(site.out / 'evals/f.html', tmp_path / 'shots', 'crushed')['tables'][0]
    assert 'Incomprehensibilities' in crushed['broken'].get('0', []) and crushed['widths'][0] < 100, crushed
    shutil.copy(ROOT / 'nbs/styles.css', site.out / 'styles.css')
    whole = dc.look(site.out / 'evals/f.html', tmp_path / 'shots', 'whole')['tables'][0]
    assert whole['broken'] == {} and whole['past'] == 0 and whole['widths'][0] > crushed['widths'][0], whole


# ---------------------------------------------------------------- the findings pages' renderer

def executed() -> dict:
    "An executed eval notebook in miniature: title, prose with a relative link, a table and a figure, then its Findings."
    md = lambda s: dict(cell_type='markdown', id='m' + str(abs(hash(s)) % 10**6), metadata={}, source=s)
    code = lambda i, s, *outs: dict(cell_type='code', id=i, metadata={}, execution_count=1, source=s, outputs=list(outs))
    out_md = lambda s: dict(output_type='execute_result', data={'text/markdown': s, 'text/plain': 'x'}, metadata={}, execution_count=1)
    png = dict(output_type='display_data', data={'image/png': base64.b64encode(PNG).decode(), 'text/plain': '<Figure>'}, metadata={})
    return dict(cells=[md('# mini eval\n\n> What it measures.'), md('See [doceval](../15_doceval.ipynb).'),
                       code('aaaa0001', 'import pandas as pd'), md('## A run'),
                       code('aaaa0002', 'tables[0]', out_md('| system | n |\n|---|---|\n| tree | 150 |')),
                       code('aaaa0003', 'figure(run)', png), md('## Findings\n\nEach sentence has a check.'),
                       md('**1. Trees win.**'), code('aaaa0004', 'assert True\nfindings.append(1)'),
                       code('aaaa0005', 'pd.DataFrame(findings)', out_md('| finding | evidence | what it changes |\n|---|---|---|\n| Trees win | +0.1 | chunk |')),
                       md('## This page\n\nMade by the renderer.')])


def test_page_findings_first():
    text, files = re_.page('mini', executed(), 'a' * 40, [], 1.5)
    lines = text.splitlines()
    assert lines[0] == '# mini eval' and lines[2] == '> What it measures.'
    assert f'from commit [`{"a" * 12}`]' in text and '(a clean tree)' in text and '[mini.ipynb](../mini.ipynb)' in text
    order = [text.index(s) for s in ('## Findings', '| finding', '**1. Trees win.**', 'See [doceval]', '## A run', '| system', '![A run]', '## This page')]
    assert order == sorted(order)                                        # findings (table first), then the notebook in order
    assert '<details><summary>Code</summary>\n\n```python\nassert True' in text   # a finding's check is folded
    assert '[doceval](../../15_doceval.ipynb)' in text                   # links rewritten for nbs/evals/rendered/
    assert files == {'mini_files/aaaa0003-1.png': PNG} and '](mini_files/aaaa0003-1.png)' in text


def test_page_stamps_a_dirty_tree():
    text, _ = re_.page('mini', executed(), 'b' * 40, [' M nbs/evals/mini.ipynb', '?? x.py'], 0.1)
    assert text.splitlines()[0] == '# mini eval (rendered from a dirty tree: 2 uncommitted changes)'
    assert 'a dirty tree: `M nbs/evals/mini.ipynb`, `?? x.py`' in text


def test_render_refuses_a_dirty_tree(monkeypatch):
    monkeypatch.setattr(re_, 'tree_state', lambda: ('c' * 40, [' M nbs/index.ipynb']))
    monkeypatch.setattr(re_, 'execute', lambda p: pytest.fail('executed a notebook on a dirty tree'))
    with pytest.raises(RuntimeError, match=r'uncommitted change\(s\) \(M nbs/index.ipynb\): commit them first, or pass --allow-dirty'):
        re_.render('doc_eval')
    assert re_.main(['doc_eval']) == 2


def test_page_needs_findings():
    nb = executed(); nb['cells'] = [c for c in nb['cells'] if 'Findings' not in src(c)]
    with pytest.raises(ValueError, match='no "## Findings" section'): re_.page('mini', nb, 'a' * 40, [], 1)
