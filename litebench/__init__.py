__version__ = "0.1.0"

# The public API: `from litebench import FlatStore, TreeStore, LSA, score_text, run_questions, ...`
from .core import Page, Line, Node, Chunk, Hit, Gold, Question, Item, norm_text, norm_file, words, text_page
from .corpus import fetch_pdfs, corpus_files
from .pdf import pdf_pages, read_corpus, PdfError, PdfWarning
from .chunk import chunk_pages, chunk_fixed, chunk_recursive
from .tree import detect_mode, struct_levels, build_tree, node_chunks
from .encode import LSA, MiniLM, Static, ST, MissingExtra, get_encoder, cached
from .store import FlatStore, rrf
from .treestore import TreeStore
from .relevance import contains, satisfies, satisfies_doc, judge
from .metrics import score_text, question_metrics, hit_at, recall_at, mrr_at, ndcg_at, precision_at, token_overlap
from .stats import bootstrap_ci, paired_bootstrap, mcnemar, holm, verdict, compare, shapley, VERDICTS
from .systems import Stack, doc_system, config_system
from .runner import run_questions, DEFAULTS
