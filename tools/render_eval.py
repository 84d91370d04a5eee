"""The findings pages: an eval notebook (nbs/evals/NAME.ipynb) executed top to bottom from a clean committed tree and written as
markdown to nbs/evals/rendered/NAME.md, its figures beside it in NAME_files/. The page names the commit that made it, shows
the findings first (the findings table, then each finding with its check folded), then the notebook in order: prose, code,
tables as markdown, figures. Nothing is cut short.

    python tools/render_eval.py doc_eval bench recall answers # refuses a tree with uncommitted changes
    python tools/render_eval.py bench --allow-dirty # renders anyway, and says so in the page's title line
"""
from __future__ import annotations
import argparse, json, os, re, shutil, subprocess, sys, time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbmd import output_md, fence, directives, relink_md   # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EVALS = ROOT / 'nbs' / 'evals'
RENDERED = EVALS / 'rendered'

# Run before the notebook, left out of the page: DataFrames shown as markdown tables (index as columns), never cut short.
SETUP = r'''import pandas as _pd
from IPython import get_ipython as _ip
def _md_table(df):
    cell = lambda v: v.replace('|', '\\|').replace('\n', '<br>') if isinstance(v, str) else v
    try: t = df if isinstance(df.index, _pd.RangeIndex) else df.reset_index()
    except ValueError: t = df
    t = t.rename(columns=lambda c: cell(str(c))).map(cell)
    md = t.to_markdown(index=False).split('\n')
    # Pandoc (so Quarto) shares out the width of a table with a line over 72 characters by its separator's dashes: each column
    # gets its longest word and at most 40 characters' worth, so that no column is crushed by a long neighbour.
    def dashes(j, seg):
        texts = [str(t.columns[j])] + [str(v) for v in t.iloc[:, j]]
        word = max((len(w) for x in texts for w in x.replace('<br>', ' ').split()), default=0)
        n = max(3, word, min(max(map(len, texts)), 40))
        return (':' if seg.startswith(':') else '') + '-' * n + (':' if seg.endswith(':') else '')
    if len(md) > 1: md[1] = '|' + '|'.join(dashes(j, g) for j, g in enumerate(md[1].strip('|').split('|'))) + '|'
    return '\n'.join(md)
_ip().display_formatter.formatters['text/markdown'].for_type(_pd.DataFrame, _md_table)
_pd.set_option('display.max_colwidth', None, 'display.max_columns', None, 'display.max_rows', None, 'display.width', 100000)
%matplotlib inline'''


def git(*args) -> str:
    return subprocess.run(['git', *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def tree_state() -> tuple:
    "The commit checked out and the files that differ from it (tracked changes and untracked files not ignored)."
    return git('rev-parse', 'HEAD').strip(), [l for l in git('status', '--porcelain').splitlines() if l.strip()]


def execute(nb_path: Path) -> dict:
    "The notebook with every cell run in a fresh kernel, from its own folder, with this checkout importable."
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(SETUP))
    os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get('PYTHONPATH')])])
    NotebookClient(nb, timeout=None, kernel_name='python3', resources={'metadata': {'path': str(nb_path.parent)}}).execute()
    nb.cells.pop(0)
    return nb


def is_findings_table(md: str) -> bool:
    head = next((l.lower() for l in md.splitlines() if l.startswith('|')), '')
    return 'finding' in head and 'evidence' in head


def sections(cells: list) -> tuple:
    "The notebook's cells split: the title cell, the 'Findings' section (from its `## Findings` to the next `## `), and the rest."
    src = lambda c: ''.join(c['source'])
    start = next((i for i, c in enumerate(cells) if c['cell_type'] == 'markdown' and src(c).lstrip().startswith('## Findings')), None)
    if start is None: raise ValueError('the notebook has no "## Findings" section')
    end = next((i for i in range(start + 1, len(cells)) if cells[i]['cell_type'] == 'markdown' and re.match(r'\s*## ', src(cells[i]))), len(cells))
    return cells[0], cells[start:end], cells[1:start] + cells[end:]


def page(name: str, nb: dict, sha: str, dirty: list, minutes: float) -> tuple:
    "The page's markdown and its figures {file name: PNG bytes}."
    from nbdev.config import get_config
    cfg = get_config(path=ROOT)
    files, out = {}, []
    heading = ['']
    def saver(cell):
        k = [0]
        def save(png: bytes) -> str:
            k[0] += 1
            f = f"{name}_files/{cell.get('id', 'cell')}-{k[0]}.png"
            files[f] = png; return f
        return save
    def seen(text: str):
        "Remember the last heading read: a figure's alternative text (and, on the site, its caption) names it."
        if h := re.findall(r'^#+ (.+)$', re.sub(r'```.*?```', '', text, flags=re.S), re.M): heading[0] = h[-1].strip()
    def md(cell, fold=False) -> list:
        if cell['cell_type'] == 'markdown':
            s = relink_md(''.join(cell['source']), EVALS, RENDERED); seen(s)
            return [s.strip('\n')] if s.strip() else []
        _, code = directives(''.join(cell['source']))
        outs, save = [], saver(cell)
        for o in cell.get('outputs', []):
            if b := output_md(o, save, alt=heading[0] or name): outs.append(b); seen(b)
        if not code.strip(): return outs
        return [f'<details><summary>Code</summary>\n\n{fence(code, "python")}\n\n</details>' if fold else fence(code, 'python')] + outs

    title_cell, findings, rest = sections(nb['cells'])
    title = re.search(r'^# (.+)$', ''.join(title_cell['source']), re.M)[1]
    summary = re.search(r'^> (.+)$', ''.join(title_cell['source']), re.M)
    stamp = f' (rendered from a dirty tree: {len(dirty)} uncommitted change{"s" * (len(dirty) != 1)})' if dirty else ''
    out += [f'# {title}{stamp}', ''] + ([summary[0], ''] if summary else [])
    when = datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    state = ('a dirty tree: ' + ', '.join(f'`{l.strip()}`' for l in dirty[:5]) + (' …' if len(dirty) > 5 else '')) if dirty else 'a clean tree'
    out += [f"Rendered by `python tools/render_eval.py {name}` from commit [`{sha[:12]}`]({cfg.git_url}/commit/{sha}) ({state}) on {when}, "
            f"executing [{name}.ipynb](../{name}.ipynb) top to bottom in {minutes:.1f} min. Every number below is computed from the run "
            "folders this page names (`data/runs/…`, each with its `run.json`: commit, encoder, parameters, and its `per_query.jsonl`: "
            "every question's row), so it can be traced to its run record and re-rendered from it (`litebench eval report RUN_DIR`).", '']
    # Findings first: the section's heading and opening prose, its findings table, then each finding with its check folded.
    head, body = findings[0], findings[1:]
    shows_table = lambda c: any(is_findings_table(''.join(o.get('data', {}).get('text/markdown', ''))) for o in c.get('outputs', []))
    table = [c for c in body if c['cell_type'] == 'code' and shows_table(c)]
    if not table: raise ValueError('the Findings section shows no findings table (a table with "finding" and "evidence" columns)')
    out += md(head)
    out += [b for b in md(table[-1]) if is_findings_table(b)]
    for c in body: out += md(c, fold=True) if c is not table[-1] else []
    for c in rest: out += md(c)
    return '\n\n'.join(b.rstrip() for b in out if b and b.strip()) + '\n', files


def made(name: str, allow_dirty: bool = False, state: tuple | None = None) -> tuple:
    "Execute nbs/evals/NAME.ipynb: its page's text and figures, nothing written yet; refuses a dirty tree unless `allow_dirty`. `state`: the tree as it was before this run."
    nb_path = EVALS / f'{name}.ipynb'
    if not nb_path.exists(): raise FileNotFoundError(f'{nb_path.relative_to(ROOT)}: no such eval notebook')
    sha, dirty = state or tree_state()
    if dirty and not allow_dirty:
        raise RuntimeError(f'the tree has {len(dirty)} uncommitted change(s) ({", ".join(l.strip() for l in dirty[:3])}{" …" if len(dirty) > 3 else ""}): '
                           'commit them first, or pass --allow-dirty to render a page stamped as made from a dirty tree')
    t = time.time()
    nb = execute(nb_path)
    return page(name, nb, sha, dirty, (time.time() - t) / 60)


def write(name: str, text: str, files: dict) -> Path:
    "Write the page NAME.md and its figures beside it (an older page's figures removed)."
    RENDERED.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(RENDERED / f'{name}_files', ignore_errors=True)
    for f, png in files.items(): (RENDERED / f).parent.mkdir(parents=True, exist_ok=True); (RENDERED / f).write_bytes(png)
    out = RENDERED / f'{name}.md'; out.write_text(text, encoding='utf-8')
    return out


def render(name: str, allow_dirty: bool = False, state: tuple | None = None) -> Path:
    "Execute nbs/evals/NAME.ipynb and write its page; refuses a dirty tree unless `allow_dirty`."
    return write(name, *made(name, allow_dirty, state))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('names', nargs='+', metavar='NAME', help='eval notebooks to render: doc_eval, bench, recall, answers')
    ap.add_argument('--allow-dirty', action='store_true', help="render from a tree with uncommitted changes, stamping the page's title line")
    a = ap.parse_args(argv)
    state, pages = tree_state(), {}
    for n in a.names:   # every notebook run before any page is written: each run records the tree as clean as it was
        try: pages[n] = made(n, a.allow_dirty, state)
        except (RuntimeError, FileNotFoundError, ValueError) as e: print(f'ERROR: {n}: {e}', file=sys.stderr); return 2
        print(f'{n}: executed')
    for n, (text, files) in pages.items(): print(f'{n}: {write(n, text, files).relative_to(ROOT)} written')
    return 0


if __name__ == '__main__': sys.exit(main())
