"""The docs check: nbdev's own processing of `nbs/`, README.md against `nbs/index.ipynb`, every processed page turned into HTML
with pandoc (Quarto's engine), and the home page, the four findings pages and the tutorials opened in headless Chromium at a
laptop's width (1280 px), screenshotted and checked for what a reader must see: the prose, a findings table first, each figure
loaded, every table's columns at least as wide as their longest word and nothing past the window's edge, no broken internal
link. A findings page made before the last change to a module its notebook runs is stale and fails.

    python tools/docs_check.py              # the whole check; pages and screenshots under _docs_check/ (gitignored)
    python tools/docs_check.py --readme     # write README.md from nbs/index.ipynb, as `nbdev_readme` does with Quarto
    python tools/docs_check.py --no-browser # everything but Chromium

It needs the project installed (`pip install -e ".[dev]"`), `pandoc` and `chromium` (Debian: `apt-get install pandoc chromium`;
another Chromium or Chrome can be named in $DOCS_CHECK_BROWSER). Exit status 0 when every check holds, 1 with one line per problem.
"""
from __future__ import annotations
import argparse, hashlib, html, json, os, re, shutil, subprocess, sys, tempfile, time
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbmd import cell_md, front_matter, words, is_external   # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / '_docs_check'
BROWSER_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
                 '--disable-component-update', '--disable-sync', '--hide-scrollbars']
# The pages a reader meets first, what they are called in the screenshots, and what each must show.
PAGES = {'index.ipynb': 'home', 'evals/rendered/doc_eval.md': 'doc_eval', 'evals/rendered/bench.md': 'bench',
         'evals/rendered/recall.md': 'recall', 'evals/rendered/answers.md': 'answers',
         'tutorials/stranger.ipynb': 'stranger', 'tutorials/own_pdfs.ipynb': 'own_pdfs', 'tutorials/own_manual.ipynb': 'own_manual'}
FINDINGS_HEAD = ('finding', 'evidence')
WIDTH = 1280   # the browser window's width in pixels: a laptop's, where tables must read


class Problems(list):
    "Problems found so far, one line each."
    def check(self, ok, msg: str):
        if not ok: self.append(msg)
        return bool(ok)


def run(cmd, **kw) -> subprocess.CompletedProcess:
    "Run `cmd`, capturing text; raise with its stderr if it fails."
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode: raise RuntimeError(f"{' '.join(map(str, cmd[:3]))} … failed ({r.returncode}): {r.stderr.strip()[-1500:]}")
    return r


def config():
    "nbdev's settings for this checkout."
    from nbdev.config import get_config
    return get_config(path=ROOT)


# ---------------------------------------------------------------- nbdev's processing

def tracked_state() -> dict:
    "Every tracked file that differs from HEAD, with a hash of its content (so a change made by the build shows)."
    r = subprocess.run(['git', 'ls-files', '-m', '-d'], capture_output=True, text=True, cwd=ROOT)
    if r.returncode: return {}
    return {p: hashlib.sha1((ROOT / p).read_bytes()).hexdigest() if (ROOT / p).exists() else None for p in r.stdout.split()}


def process() -> Path:
    "Run nbdev's docs processing (what `nbdev_proc_nbs` and `nbdev_docs` do before calling Quarto) into a fresh `_proc/`."
    import nbdev.quarto
    cfg = config()
    cache = cfg.config_path / '_proc'
    shutil.rmtree(cache, ignore_errors=True)
    os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get('PYTHONPATH')])])   # the workers import this checkout
    cwd = os.getcwd(); os.chdir(ROOT)
    ensure, nbdev.quarto._ensure_quarto = nbdev.quarto._ensure_quarto, lambda: None   # Quarto is not needed to process
    try: nbdev.quarto._pre_docs(n_workers=min(4, os.cpu_count() or 1))
    finally: nbdev.quarto._ensure_quarto = ensure; os.chdir(cwd)
    return cache


# ---------------------------------------------------------------- README.md from index.ipynb

def readme_md(cache: Path) -> str:
    "README.md as `nbdev_readme` makes it (the processed `index.ipynb` as GitHub markdown): title, nbdev's warning, the cells."
    nb = json.loads((cache / config().readme_nb).read_text(encoding='utf-8'))
    cells = nb['cells']; fm = front_matter(cells)
    def no_images(_): raise ValueError('index.ipynb: README.md cannot carry an image output')
    blocks = [b for c in cells[1:] for b in cell_md(c, no_images, lang=' python')]
    return '\n\n'.join([f"# {fm['title']}\n", *blocks]) + '\n'


def plain(md: str, fmt: str = 'gfm') -> list:
    "What a reader reads in a markdown text: its words, formatting left out."
    return words(run(['pandoc', '-f', fmt, '-t', 'plain', '--wrap=none'], input=md).stdout)


def check_readme(cache: Path, p: Problems):
    "README.md must say what index.ipynb says (the same words; formatting may differ, as Quarto's and pandoc's do)."
    want, have = readme_md(cache), (ROOT / 'README.md').read_text(encoding='utf-8')
    if want == have: return
    a, b = plain(have), plain(want)
    if a == b: return
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    p.check(False, f"README.md differs from nbs/index.ipynb at word {i}: README has {' '.join(a[i:i + 8])!r}, index.ipynb {' '.join(b[i:i + 8])!r}; "
                   "run `python tools/docs_check.py --readme` (or `nbdev_readme`)")


# ---------------------------------------------------------------- pages to HTML with pandoc

TEMPLATE = r'''<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>$pagetitle$</title>
<style>
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #212529; }
#navbar { background: #2780e3; color: white; padding: .6rem 1.2rem; display: flex; gap: 1.4rem; align-items: baseline; }
#navbar a { color: white; text-decoration: none; } #navbar .site { font-weight: 600; font-size: 1.15rem; }
#layout { display: flex; }
#sidebar { flex: 0 0 15rem; padding: 1rem; font-size: .9rem; border-right: 1px solid #dee2e6; }
#sidebar ul { list-style: none; padding-left: .8rem; margin: .2rem 0; } #sidebar > ul { padding-left: 0; }
#sidebar a { color: #343a40; text-decoration: none; } #sidebar a.active { color: #2780e3; font-weight: 600; }
#sidebar .section { font-weight: 600; margin-top: .6rem; }
main { flex: 1; min-width: 0; max-width: 62rem; padding: 1rem 2rem 4rem; }
h1.title { margin-bottom: .2rem; } p.subtitle { color: #6c757d; font-size: 1.1rem; margin-top: 0; }
#TOC { float: right; width: 14rem; font-size: .85rem; margin: 0 0 1rem 1.5rem; padding-left: .8rem; border-left: 1px solid #dee2e6; }
#TOC ul { padding-left: .8rem; }
pre { background: #f8f9fa; padding: .6rem .8rem; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; }
code { font-size: .9em; } table { border-collapse: collapse; margin: 1rem 0; font-size: .85rem; }
th, td { border-bottom: 1px solid #dee2e6; padding: .25rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
img { max-width: 100%; } blockquote { color: #495057; border-left: 3px solid #dee2e6; margin-left: 0; padding-left: 1rem; }
</style>
$for(css)$<link rel="stylesheet" href="$css$">
$endfor$</head><body>
$for(include-before)$$include-before$
$endfor$<main>
<header id="title-block-header"><h1 class="title">$title$</h1>$if(subtitle)$<p class="subtitle">$subtitle$</p>$endif$</header>
$if(toc)$<nav id="TOC">$table-of-contents$</nav>$endif$
$body$
</main></div>
<script>
window.addEventListener('load', () => {
  const main = document.querySelector('main'), top = e => e.getBoundingClientRect().top + window.scrollY;
  // How a table fits: each column's width in pixels, the words a column breaks across lines (a column narrower than its
  // longest word), and how far the table reaches past the window's right edge (0: it fits; a scrolling wrapper counts as fitting).
  const fit = t => {
    const broken = {}, rows = [...t.rows];
    rows.forEach(tr => [...tr.cells].forEach((c, i) => {
      const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
      for (let n; (n = walk.nextNode());) for (const m of n.data.matchAll(/[^\s\-‐]+/g)) {   // a line may end after a hyphen: words are the runs between
        const rg = document.createRange(); rg.setStart(n, m.index); rg.setEnd(n, m.index + m[0].length);
        const lines = new Set([...rg.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
        if (lines.size > 1) (broken[i] = broken[i] || []).push(m[0]);
      }
    }));
    let box = t; while (box.parentElement && box !== main && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
    const edge = Math.min(window.innerWidth, box === main ? window.innerWidth : box.getBoundingClientRect().right);
    return {widths: rows.length ? [...rows[0].cells].map(c => Math.round(c.getBoundingClientRect().width)) : [],
            broken, past: Math.max(0, Math.round(t.getBoundingClientRect().right - edge)), scroll: t.scrollWidth - t.clientWidth};
  };
  const r = {title: document.title, h1: (document.querySelector('h1.title') || {}).innerText || '', text: main.innerText,
    images: [...main.querySelectorAll('img')].map(i => ({src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0,
              width: i.naturalWidth, height: i.naturalHeight, shown: i.offsetWidth > 0 && i.offsetHeight > 0, top: top(i)})),
    tables: [...main.querySelectorAll('table')].map(t => ({head: [...t.querySelectorAll('tr:first-child th')].map(x => x.innerText.trim()),
              rows: t.querySelectorAll('tbody tr').length, shown: t.offsetHeight > 0, top: top(t), ...fit(t)})),
    height: document.documentElement.scrollHeight};
  const s = document.createElement('script'); s.type = 'application/json'; s.id = 'page-report';
  s.textContent = JSON.stringify(r).replace(/</g, '\\u003c'); document.body.appendChild(s);
});
</script>
</body></html>
'''


def md_title(md: str) -> tuple:
    "A markdown page's first `# ` heading as its title, and the page without it."
    m = re.search(r'^# (.+?)\s*$', md, re.M)
    return (m[1], md[:m.start()] + md[m.end():]) if m else ('', md)


class Site:
    "The processed pages in `cache` as an HTML site in `out`: where each page goes, its title, its markdown."
    def __init__(self, cache: Path, out: Path):
        import yaml
        self.cache, self.out = cache, out
        self.pages = sorted(p.relative_to(cache).as_posix() for p in cache.rglob('*') if p.suffix in ('.ipynb', '.md') and p.is_file())
        self.quarto = yaml.safe_load((cache / '_quarto.yml').read_text())
        self.sidebar = yaml.safe_load((cache / 'sidebar.yml').read_text())['website']['sidebar']['contents']
        self.nbs = {p: json.loads((cache / p).read_text(encoding='utf-8')) for p in self.pages if p.endswith('.ipynb')}
        self.html, self.titles = {}, {}
        for p in self.pages:
            if p in self.nbs:
                fm = front_matter(self.nbs[p]['cells'])
                self.html[p] = (Path(p).parent / fm.get('output-file', Path(p).stem + '.html')).as_posix()
                self.titles[p] = fm.get('title', Path(p).stem)
            else:
                self.html[p] = Path(p).with_suffix('.html').as_posix()
                self.titles[p] = md_title((cache / p).read_text(encoding='utf-8'))[0] or Path(p).stem

    def href(self, target: str, here: str) -> str:
        "A link from page `here` to site page or path `target` (both relative to nbs/)."
        dst = self.html.get(target, target)
        return os.path.relpath(dst, Path(self.html[here]).parent.as_posix() or '.')

    def markdown(self, page: str) -> tuple:
        "A page's metadata and markdown body, with images from notebook outputs saved beside its HTML."
        if page not in self.nbs:
            title, body = md_title((self.cache / page).read_text(encoding='utf-8'))
            return dict(title=title), body
        cells = self.nbs[page]['cells']; fm = front_matter(cells)
        stem = Path(self.html[page]).with_suffix('')
        blocks, n = [], [0]
        def save(png: bytes) -> str:
            n[0] += 1
            f = self.out / f'{stem}_files/figure-html/output-{n[0]}.png'
            f.parent.mkdir(parents=True, exist_ok=True); f.write_bytes(png)
            return f.relative_to(self.out / stem.parent).as_posix()
        for c in cells[1:] if fm else cells: blocks += cell_md(c, save)
        return dict(title=fm.get('title', ''), subtitle=fm.get('description', '')), '\n\n'.join(blocks)

    def nav(self, here: str) -> str:
        "The navbar and sidebar of page `here`, as Quarto lays them out from _quarto.yml and sidebar.yml."
        def item(e) -> str:
            if isinstance(e, str): e = dict(href=e)
            if 'section' in e:
                return f'<li><div class="section">{html.escape(e["section"])}</div><ul>{"".join(map(item, e.get("contents", [])))}</ul></li>'
            t = e['href']; cls = ' class="active"' if t == here else ''
            return f'<li><a{cls} href="{html.escape(self.href(t, here))}">{html.escape(e.get("text") or self.titles.get(t, t))}</a></li>'
        bar = self.quarto.get('website', {}).get('navbar', {})
        left = ''.join(f'<a href="{html.escape(self.href(e["href"], here))}">{html.escape(e["text"])}</a>' for e in bar.get('left', []) if 'href' in e)
        home = next((p for p in ('index.ipynb', 'index.qmd', 'index.md') if p in self.html), 'index.html')
        return (f'<nav id="navbar"><a class="site" href="{self.href(home, here)}">{html.escape(config().title)}</a>{left}</nav>'
                f'<div id="layout"><nav id="sidebar"><ul>{"".join(map(item, self.sidebar))}</ul></nav>')

    def build(self):
        "Every page as HTML (links between pages pointed at their HTML, as Quarto does), the other files copied."
        import yaml
        shutil.rmtree(self.out, ignore_errors=True); self.out.mkdir(parents=True)
        for f in self.cache.rglob('*'):
            rel = f.relative_to(self.cache)
            if f.is_file() and f.suffix not in ('.ipynb', '.md', '.yml'):
                (self.out / rel).parent.mkdir(parents=True, exist_ok=True); shutil.copy2(f, self.out / rel)
        (self.out / '_template.html').write_text(TEMPLATE)
        for p in self.pages:
            meta, body = self.markdown(p)
            dst = self.out / self.html[p]; dst.parent.mkdir(parents=True, exist_ok=True)
            nav = self.out / '_nav.html'; nav.write_text(self.nav(p))
            css = os.path.relpath(self.out / 'styles.css', dst.parent)
            doc = '---\n' + yaml.safe_dump({k: v for k, v in meta.items() if v}, allow_unicode=True) + '---\n\n' + body + '\n'
            run(['pandoc', '-f', 'markdown', '-t', 'html5', '--standalone', '--toc', '--toc-depth=3', f'--template={self.out / "_template.html"}',
                 f'--include-before-body={nav}', f'--css={css}', '--metadata', f'pagetitle={meta.get("title") or p} – {config().title}', '-o', str(dst)], input=doc)
            dst.write_text(self.relink(dst.read_text(encoding='utf-8'), p), encoding='utf-8')
        (self.out / '_template.html').unlink(); (self.out / '_nav.html').unlink()

    def relink(self, page_html: str, page: str) -> str:
        "Relative links to a source page (`../15_doceval.ipynb`, `rendered/bench.md`) pointed at that page's HTML."
        here = Path(page).parent
        def fix(m):
            t = html.unescape(m[2])
            if is_external(t): return m[0]
            path, _, frag = t.partition('#')
            src = os.path.normpath((here / path).as_posix())
            if src not in self.html: return m[0]
            return f'{m[1]}"{html.escape(self.href(src, page) + ("#" + frag if frag else ""))}"'
        return re.sub(r'(\shref=)"([^"]*)"', fix, page_html)


# ---------------------------------------------------------------- links

class _Refs(HTMLParser):
    "The ids, link targets and image sources of an HTML page."
    def __init__(self):
        super().__init__(); self.ids, self.links, self.images = set(), [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get('id'): self.ids.add(a['id'])
        if tag == 'a' and a.get('href'): self.links.append(a['href'])
        if tag == 'img' and a.get('src'): self.images.append(a['src'])


def refs(f: Path) -> _Refs:
    r = _Refs(); r.feed(f.read_text(encoding='utf-8')); return r


def check_links(site: Site, p: Problems) -> dict:
    "Every internal link of every page resolves: relative ones and those to the site's own address to a page (and its anchor), those to the repository to a file (and its line)."
    cfg = config()
    site_url = (cfg.doc_host + cfg.doc_baseurl).rstrip('/') + '/'
    repo_url = re.compile(re.escape(cfg.git_url.rstrip('/')) + r'/(?:blob|tree)/' + re.escape(cfg.branch) + r'/([^#?]*)(?:#L(\d+))?')
    pages = {f.relative_to(site.out).as_posix(): refs(f) for f in site.out.rglob('*.html')}
    n = dict(internal=0, repo=0, external=0)
    for name, r in pages.items():
        for kind, t in [('link', x) for x in r.links] + [('image', x) for x in r.images]:
            t = html.unescape(t)
            if m := repo_url.match(t):
                n['repo'] += 1; f = ROOT / m[1]
                if p.check(f.exists(), f'{name}: {kind} to {t}: {m[1]} is not in the repository') and m[2]:
                    p.check(f.is_file() and len(f.read_text(encoding='utf-8').splitlines()) >= int(m[2]), f'{name}: {kind} to {t}: {m[1]} has no line {m[2]}')
                continue
            if t.startswith(site_url): t = os.path.relpath(t[len(site_url):] or 'index.html', Path(name).parent.as_posix() or '.')
            elif t.startswith('#'): t = Path(name).name + t
            elif is_external(t): n['external'] += 1; continue
            n['internal'] += 1
            path, _, frag = t.partition('#')
            dst = os.path.normpath((Path(name).parent / path).as_posix())
            if not p.check((site.out / dst).is_file(), f'{name}: broken {kind} {t!r}: no {dst}'): continue
            if frag and dst in pages: p.check(frag in pages[dst].ids, f'{name}: broken {kind} {t!r}: {dst} has no anchor #{frag}')
    return n


# ---------------------------------------------------------------- in a browser

def browser() -> str | None:
    "The Chromium to use: $DOCS_CHECK_BROWSER, else the first of chromium, chromium-browser, google-chrome on PATH."
    if b := os.environ.get('DOCS_CHECK_BROWSER'): return b
    return next((w for n in ('chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable') if (w := shutil.which(n))), None)


def chromium(url: str, *args, timeout: int = 120) -> str:
    "Run headless Chromium on `url` with a fresh profile; its stdout."
    with tempfile.TemporaryDirectory(prefix='docs-check-profile-') as prof:
        r = subprocess.run([browser(), *BROWSER_FLAGS, f'--user-data-dir={prof}', *args, url], capture_output=True, text=True, timeout=timeout)
    if r.returncode: raise RuntimeError(f'chromium failed on {url} ({r.returncode}): {r.stderr.strip()[-800:]}')
    return r.stdout


def look(f: Path, shots: Path, name: str) -> dict:
    "Open page `f` in Chromium: what it shows (text, tables, images as loaded), and screenshots of its top and of the whole page."
    url = f.resolve().as_uri()
    dom = chromium(url, f'--window-size={WIDTH},1000', '--virtual-time-budget=20000', '--dump-dom')   # the screenshots' width
    m = re.search(r'<script type="application/json" id="page-report">(.*?)</script>', dom, re.S)
    if not m: raise RuntimeError(f'{f}: the page did not finish loading in Chromium (no report)')
    rep = json.loads(html.unescape(m[1]))
    shots.mkdir(parents=True, exist_ok=True)
    for part, h in (('top', 1000), ('full', min(max(rep['height'], 1000), 16000))):
        chromium(url, f'--window-size={WIDTH},{h}', '--virtual-time-budget=20000', f'--screenshot={shots / f"{name}-{part}.png"}')
    return rep


def paragraphs(md: str) -> list:
    "The prose paragraphs of a markdown text (pandoc's own reading), each as its words."
    ast = json.loads(run(['pandoc', '-f', 'markdown', '-t', 'json'], input=md).stdout)
    def text(x) -> str:
        if isinstance(x, list): return ''.join(map(text, x))
        if not isinstance(x, dict): return ''
        t, c = x.get('t'), x.get('c')
        if t == 'Str': return c
        if t in ('Space', 'SoftBreak', 'LineBreak'): return ' '
        if t in ('Code', 'Math'): return ' ' + c[-1] + ' '
        if t in ('Link', 'Image'): return text(c[1])
        if t in ('Emph', 'Strong', 'Strikeout', 'Underline', 'SmallCaps', 'Superscript', 'Subscript'): return text(c)
        if t in ('Quoted', 'Span', 'Cite'): return text(c[1])
        return ''
    def walk(blocks):
        for b in blocks:
            if b['t'] == 'Para': yield words(text(b['c']))
            elif b['t'] in ('BulletList', 'OrderedList'):
                for it in (b['c'] if b['t'] == 'BulletList' else b['c'][1]):
                    yield from walk([{'t': 'Para', 'c': x['c']} if x['t'] == 'Plain' else x for x in it])
            elif b['t'] == 'BlockQuote': yield from walk(b['c'])
    return [w for w in walk(ast['blocks']) if len(w) >= 3]


def shown(paras: list, seen: list) -> list:
    "The paragraphs whose opening words (up to 12) do not appear in the words a reader sees."
    s = ' ' + ' '.join(seen) + ' '
    return [w for w in paras if ' ' + ' '.join(w[:12]) + ' ' not in s]


def source_md(site: Site, page: str) -> str:
    "The markdown a page's author wrote: a notebook's markdown cells (the title cell left out), or the .md file."
    if page.endswith('.md'): return md_title((site.cache / page).read_text(encoding='utf-8'))[1]
    nb = json.loads((ROOT / 'nbs' / page).read_text(encoding='utf-8'))
    return '\n\n'.join(''.join(c['source']) for c in nb['cells'][1:] if c['cell_type'] == 'markdown')


def check_page(name: str,            # what the page is called in messages and screenshots
               title: str,           # the title it must show
               prose: str,           # the markdown its author wrote, whose every paragraph it must show
               rep: dict,            # what Chromium saw (`look`)
               p: Problems,
               findings: str | None = None,  # a findings page's markdown: its findings table first, every figure loaded
               commands=()):         # commands the page must show
    "What a reader must see on one page: its title, every paragraph of its prose, its images loaded; a findings page's findings table first and its figures."
    plain = lambda x: x.strip().replace('\u2019', "'").replace('\u2018', "'")   # pandoc and Quarto make quotes typographic
    p.check(plain(rep['h1']) == plain(title), f'{name}: the title shown is {rep["h1"]!r}, not {title!r}')
    paras = paragraphs(prose)
    missing = shown(paras, words(rep['text']))
    p.check(paras and not missing, f'{name}: {len(missing)} of {len(paras)} prose paragraphs are not shown, e.g. {" ".join((missing or [[]])[0][:12])!r}')
    for i in rep['images']:
        p.check(i['loaded'] and i['shown'], f'{name}: image {i["src"]} did not load ({i["width"]}×{i["height"]} px)')
    for i, tb in enumerate(x for x in rep['tables'] if x['shown']):
        what = f'{name}: table {i + 1} ({" | ".join(tb["head"][:3])[:60]})'
        head = lambda c: tb['head'][int(c)] if int(c) < len(tb['head']) else f'column {int(c) + 1}'
        p.check(not tb['broken'], f'{what} at {WIDTH} px: ' + '; '.join(
            f'column {head(c)!r} ({tb["widths"][int(c)] if int(c) < len(tb["widths"]) else "?"} px) breaks {len(w)} word(s) such as {w[0]!r}'
            for c, w in tb['broken'].items()))
        p.check(tb['past'] == 0, f'{what} reaches {tb["past"]} px past the window\'s edge at {WIDTH} px')
    t = ' ' + ' '.join(words(rep['text'])) + ' '
    for cmd in commands: p.check(' ' + ' '.join(words(cmd)) + ' ' in t, f'{name}: the command {cmd!r} is not shown')
    if findings is None: return
    n_img = len(re.findall(r'!\[[^\]]*\]\(', findings))
    p.check(n_img > 0 and len(rep['images']) == n_img and all(i['loaded'] for i in rep['images']),
            f'{name}: {sum(i["loaded"] for i in rep["images"])} of {n_img} figures loaded ({len(rep["images"])} images on the page)')
    tabs = [t for t in rep['tables'] if t['shown']]
    first = tabs[0] if tabs else None
    p.check(first and all(h in [x.lower() for x in first['head']] for h in FINDINGS_HEAD),
            f'{name}: the first table on the page is not the findings table (columns {first and first["head"]})')
    p.check(first and first['scroll'] <= 1, f'{name}: the findings table is {first and first["scroll"]} px wider than the page at {WIDTH} px: a reader scrolls sideways to read it')
    want = len(_findings_rows(findings))
    p.check(first and want and first['rows'] == want, f'{name}: the findings table shows {first and first["rows"]} rows, the page has {want}')


def _findings_rows(md: str) -> list:
    "The body rows of the first markdown table whose header names the findings' columns."
    lines = md.splitlines()
    for i, l in enumerate(lines):
        if l.startswith('|') and all(h in l.lower() for h in FINDINGS_HEAD):
            rows = []
            for x in lines[i + 2:]:
                if not x.startswith('|'): break
                rows.append(x)
            return rows
    return []


_IMPORT = re.compile(r'^\s*(?:from\s+(litebench(?:\.\w+)*|\.\w*)\s+import\s+(\([^)]*\)|[\w \t,]+)|import\s+(litebench(?:\.\w+)*))', re.M)


def imported_modules(src: str, pkg: Path = ROOT / 'litebench') -> set:
    "The package's modules that Python source `src` imports by name (`from litebench.x import`, `from .x import`, `from litebench import x`)."
    mods = set()
    for frm, names, imp in _IMPORT.findall(src):
        base = (frm or imp).replace('litebench', '', 1).lstrip('.')
        if base: mods.add(base.split('.')[0])
        else: mods |= {n for n in re.findall(r'\w+', names) if (pkg / f'{n}.py').is_file()}
    return {m for m in mods if (pkg / f'{m}.py').is_file()}


def page_modules(nb: Path, pkg: Path = ROOT / 'litebench') -> set:
    "Every module of the package an eval notebook's code runs: the ones it imports and, in turn, the ones those import."
    cells = json.loads(nb.read_text(encoding='utf-8'))['cells']
    todo = imported_modules('\n'.join(''.join(c['source']) for c in cells if c['cell_type'] == 'code'), pkg)
    seen = set()
    while todo:
        m = todo.pop(); seen.add(m)
        todo |= imported_modules((pkg / f'{m}.py').read_text(encoding='utf-8'), pkg) - seen
    return seen


def stale(made: str, mods: set) -> list:
    "The modules (of `mods`) whose last change commit `made` does not contain, each with that change: what makes a page stale."
    out = []
    for m in sorted(mods):
        last = subprocess.run(['git', 'log', '-1', '--format=%h', '--', f'litebench/{m}.py'], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        if last and subprocess.run(['git', 'merge-base', '--is-ancestor', last, made], cwd=ROOT).returncode: out.append(f'{m} ({last})')
    return out


def check_rendered(p: Problems, folder: Path = ROOT / 'nbs/evals/rendered', names=('doc_eval', 'bench', 'recall', 'answers')):
    "The committed findings pages: made from a commit they name, markdown tables without HTML or cut cells, figures beside them."
    for name in names:
        f = folder / f'{name}.md'
        if not p.check(f.exists(), f'{f} is missing: run `python tools/render_eval.py {name}`'): continue
        md = f.read_text(encoding='utf-8')
        m = re.search(r'from commit \[?`([0-9a-f]{7,40})`', md)
        if p.check(m, f'{f.name}: does not say which commit made it'):
            r = subprocess.run(['git', 'cat-file', '-e', m[1] + '^{commit}'], cwd=ROOT, capture_output=True)
            p.check(r.returncode == 0 or not (ROOT / '.git').exists(), f'{f.name}: commit {m[1]} is not in this repository')
            if r.returncode == 0 and (nb := ROOT / 'nbs/evals' / f'{name}.ipynb').exists():
                old = stale(m[1], page_modules(nb))
                p.check(not old, f'{f.name}: made from {m[1][:7]}, before the last change to {", ".join(old)}, which its notebook runs: '
                                 f'run `python tools/render_eval.py {name}`')
        p.check('<style' not in md and 'class="dataframe"' not in md, f'{f.name}: holds pandas HTML')
        cut = [l for l in md.splitlines() if l.startswith('|') and re.search(r'\.\.\.\s*\|', l)]
        p.check(not cut, f'{f.name}: a table cell is cut short: {cut[:1]}')
        for table in re.findall(r'(?:^\|.*\n?)+', md, re.M):
            n = {len(re.findall(r'(?<!\\)\|', l)) for l in table.splitlines()}
            p.check(len(n) == 1, f'{f.name}: a table whose rows have different numbers of cells (an unescaped |?): {table.splitlines()[0][:80]}')
        for img in re.findall(r'!\[[^\]]*\]\(([^)\s]+)', md):
            p.check((f.parent / img).is_file(), f'{f.name}: figure {img} is not beside the page')


# ---------------------------------------------------------------- the whole check

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--readme', action='store_true', help='write README.md from nbs/index.ipynb, then stop')
    ap.add_argument('--no-browser', action='store_true', help='skip Chromium (pages are still built and their links checked)')
    ap.add_argument('--out', type=Path, default=OUT, help='where the HTML pages and screenshots go (default: _docs_check/)')
    a = ap.parse_args(argv)
    need = ['pandoc'] + ([] if a.readme or a.no_browser else ['chromium'])
    lacking = [n for n in need if not (browser() if n == 'chromium' else shutil.which(n))]
    if lacking: print(f'ERROR: the docs check needs {" and ".join(lacking)} (Debian: apt-get install pandoc chromium)', file=sys.stderr); return 2
    t0, p, took = time.time(), Problems(), {}
    before = tracked_state()
    cache = process(); took['nbdev processing'] = time.time() - t0
    if a.readme:
        (ROOT / 'README.md').write_text(readme_md(cache), encoding='utf-8'); print('README.md written from nbs/index.ipynb'); return 0
    after = tracked_state()
    p.check(before == after, f'the docs build changed tracked files: {sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))}')
    for d in ('_proc', '_docs', a.out.resolve().relative_to(ROOT).as_posix() if a.out.resolve().is_relative_to(ROOT) else None):
        if d: p.check(subprocess.run(['git', 'check-ignore', '-q', d + '/'], cwd=ROOT).returncode == 0 or not (ROOT / '.git').exists(), f'{d}/ is not gitignored')
    check_readme(cache, p); check_rendered(p)
    t = time.time(); site = Site(cache, a.out / 'site'); site.build(); took['pandoc'] = time.time() - t
    n = check_links(site, p)
    print(f'{len(site.pages)} pages built into {site.out}; links checked: {n["internal"]} internal, {n["repo"]} into the repository ({n["external"]} external not followed)')
    for page in PAGES: p.check(page in site.html, f'{page}: not among the processed pages')
    if not a.no_browser:
        t = time.time()
        for page, name in PAGES.items():
            if page not in site.html: continue
            rep = look(site.out / site.html[page], a.out / 'screenshots', name)
            md = (site.cache / page).read_text(encoding='utf-8') if page.endswith('.md') else None
            check_page(name, site.titles[page], source_md(site, page), rep, p, findings=md,
                       commands=('litebench eval doc', 'pytest') if page == 'index.ipynb' else ())
            print(f'{name}: "{rep["h1"]}", {len(rep["text"])} characters shown, {len(rep["tables"])} tables, '
                  f'{sum(i["loaded"] for i in rep["images"])}/{len(rep["images"])} images loaded; screenshots {a.out / "screenshots"}/{name}-top.png, -full.png')
        took['chromium'] = time.time() - t
    print('time: ' + ', '.join(f'{k} {v:.0f}s' for k, v in took.items()) + f', total {time.time() - t0:.0f}s')
    for x in p: print('FAIL', x)
    print('docs check: ' + ('passed' if not p else f'{len(p)} problem(s)'))
    return 1 if p else 0


if __name__ == '__main__': sys.exit(main())
