"The question notebooks' shared fixtures (11_questions, 11a_qcheck, 11c_qwrite, 11d_splits, 11e_seeds): a small question set, two small acts as PDFs, and a runner for the command-line entry points. Loaded with `runpy.run_path`."
import io, textwrap
from contextlib import redirect_stdout, redirect_stderr
from pathlib import Path
import pymupdf

def fixture_sets(d):
    "Write two small valid question files into the folder `d`."
    d = Path(d); d.mkdir(parents=True, exist_ok=True)
    (d / 'lexical.yaml').write_text('''# Lexical fixture
- id: lex0001
  question: "What does Article 1 of act A define?"
  suite: lexical
  tier: T1
  split: null
  answerable: true
  gold:
    - {file: act_a.pdf, pages: [1, 1], heading: ["Article 1"]}
  nuggets: ["tax", "person"]
  provenance: {author: fixture, status: draft, reviewed_at: null}
  notes: "Article 1 on p1."
  strategy: null

- id: lex0002
  question: "Which penalties does Article 10 of act A allow?"
  suite: lexical
  tier: T1
  split: null
  answerable: true
  gold:
    - {file: act_a.pdf, pages: 4, heading: "Article 10"}
  nuggets: ["fines"]
  provenance: {author: fixture, status: reviewed, reviewed_at: 2024-05-01}
''')
    (d / 'unanswerable.yaml').write_text('''- id: una0001
  question: "What is the VAT rate in Atlantis?"
  suite: unanswerable
  tier: T2
  split: null
  answerable: false
  gold: []
  nuggets: ["not in the corpus"]
  provenance: {author: fixture, status: draft, reviewed_at: null}
''')
    return d

LOREM = ('Member States shall ensure that the competent authorities apply the rules laid down in this Act to every taxable person.',
         'The Commission shall report on the application of this Article to the European Parliament and to the Council.',
         'Fines shall be effective, proportionate and dissuasive, and shall be notified to the Commission without delay.')

def make_pdf(path, pages):
    "A PDF whose pages hold [(article title, body sentences), …], with an outline of the titles."
    doc, toc = pymupdf.open(), []
    for i, arts in enumerate(pages, 1):
        lines = []
        for title, body in arts:
            toc.append([1, title, i]); lines += [title] + [l for s in body for l in textwrap.wrap(s, 80)]
        doc.new_page().insert_text((50, 60), '\n'.join(lines), fontsize=9)
    doc.set_toc(toc); doc.save(path); doc.close()
    return Path(path)

def fixture_corpus(d):
    "Two small acts in the folder `d`."
    d = Path(d); d.mkdir(parents=True, exist_ok=True)
    body = lambda n, k, name: (f'{name} are governed by this Article.', *LOREM[k % 3:], *LOREM[:k % 3],
                               f'The rules on {name.lower()} apply from the date set in Article {n}.', f'Questions on {name.lower()} go to the committee.')
    arts = lambda nums, names: [(f'Article {n} {name}', body(n, k, name)) for k, (n, name) in enumerate(zip(nums, names))]
    make_pdf(d / 'act_a.pdf', [arts([1, 2], ['Definitions', 'Scope']), arts([3, 4], ['Taxable persons', 'Exemptions']),
                               arts([5, 6, 7], ['Rates', 'Invoices', 'Returns']), arts([8, 10], ['Records', 'Penalties'])])
    make_pdf(d / 'act_b.pdf', [arts([1, 2], ['Subject matter', 'Objectives']), arts([3, 4], ['Budget', 'Eligibility']),
                               arts([5, 6], ['Evaluation', 'Entry into force'])])
    return d


def run_cmd(fn, *a, **kw):
    "(exit code, everything printed) of a command-line entry point `fn(*a, **kw)`."
    buf = io.StringIO()
    with redirect_stdout(buf), redirect_stderr(buf): rc = fn(*a, **kw)
    return rc, buf.getvalue()
