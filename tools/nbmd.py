"Notebook cells as markdown, the way Quarto shows them: shared by the docs check, the README and the rendered eval pages."
from __future__ import annotations
import base64, re
from pathlib import Path

__all__ = ['directives', 'fence', 'output_md', 'cell_md', 'front_matter', 'words', 'is_external', 'rel_link', 'relink_md']

_DIRECTIVE = re.compile(r'^\s*#\|\s*([\w-]+)\s*:?\s*(.*?)\s*$')


def directives(src: str) -> tuple:
    "A code cell's leading `#|` options as a dict, and its source without them."
    opts, lines, i = {}, src.splitlines(), 0
    while i < len(lines) and (m := _DIRECTIVE.match(lines[i])): opts[m[1]] = m[2]; i += 1
    return opts, '\n'.join(lines[i:]).strip('\n')


def fence(text: str, lang: str = '') -> str:
    "`text` in a fenced code block whose fence is longer than any run of backticks inside it."
    ticks = '`' * max(3, max((len(r) for r in re.findall(r'`+', text)), default=0) + 1)
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}"


def _text(v) -> str: return ''.join(v) if isinstance(v, list) else (v or '')


def output_md(o: dict,           # one output of a code cell (nbformat)
              save_image,        # called with the PNG's bytes, returns the link to put in the page
              alt: str = 'figure' # the image's alternative text
             ) -> str | None:
    "One output as markdown: markdown as is, images saved and linked, HTML as raw HTML, text fenced; stderr left out."
    kind = o.get('output_type')
    if kind == 'stream': return fence(_text(o.get('text'))) if o.get('name') == 'stdout' and _text(o.get('text')).strip() else None
    if kind == 'error': raise ValueError(f"a cell failed: {o.get('ename')}: {o.get('evalue')}")
    d = o.get('data', {})
    if 'image/png' in d: return f'![{alt}]({save_image(base64.b64decode(_text(d["image/png"])))})'
    if 'text/markdown' in d: return _text(d['text/markdown']).strip('\n')
    if 'text/html' in d: return _text(d['text/html']).strip('\n')
    if 'text/plain' in d: return fence(_text(d['text/plain']))
    return None


def cell_md(cell: dict,          # a notebook cell (nbformat)
            save_image,          # see `output_md`
            alt: str = 'figure', # alternative text for the cell's images
            lang: str = 'python' # the code fence's language
           ) -> list:
    "A cell as markdown blocks: markdown as is; code fenced unless `echo: false`, then its outputs."
    src = _text(cell.get('source'))
    if cell['cell_type'] == 'markdown': return [src.strip('\n')] if src.strip() else []
    if cell['cell_type'] != 'code': return []
    opts, code = directives(src)
    out = [fence(code, lang)] if code.strip() and opts.get('echo') != 'false' and 'hide' not in opts else []
    return out + [m for o in cell.get('outputs', []) if (m := output_md(o, save_image, alt))]


def front_matter(cells: list) -> dict:
    "The YAML front matter nbdev puts in a processed notebook's first (raw) cell; {} when there is none."
    import yaml
    if not cells or cells[0]['cell_type'] != 'raw': return {}
    m = re.match(r'^---\s*\n(.*?)\n---\s*$', _text(cells[0]['source']).strip(), re.S)
    return yaml.safe_load(m[1]) if m else {}


def words(text: str) -> list:
    "Lower-case runs of letters and digits: text compared across markdown, HTML and what a browser shows."
    return re.findall(r'[^\W_]+', text.lower())


def is_external(target: str) -> bool:
    "Is a link target absolute (a scheme, `//`, `/`) or only a fragment?"
    return bool(re.match(r'^([a-z][a-z0-9+.-]*:|//|/|#)', target, re.I))


def rel_link(target: str, src_dir: Path, dst_dir: Path) -> str:
    "A relative link written for a page in `src_dir`, rewritten for a page in `dst_dir` (fragment kept)."
    if not target or is_external(target): return target
    path, _, frag = target.partition('#')
    import os
    new = Path(os.path.relpath((src_dir / path).resolve(), dst_dir.resolve())).as_posix()
    return new + ('#' + frag if frag else '')


_MD_LINK = re.compile(r'(!?\[(?:[^\[\]]|\[[^\]]*\])*\]\()([^)\s]+)((?:\s+"[^"]*")?\))')


def relink_md(md: str, src_dir: Path, dst_dir: Path) -> str:
    "Every relative markdown link and image in `md` rewritten from `src_dir` to `dst_dir`."
    return _MD_LINK.sub(lambda m: m[1] + rel_link(m[2], src_dir, dst_dir) + m[3], md)
