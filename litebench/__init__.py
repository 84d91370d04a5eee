__version__ = "0.1.0"

# The public API: `from litebench import FlatStore, TreeStore, LSA, score_text, run_questions, ...`.
# Each name is imported from its module on first use (PEP 562), so `from litebench import score_text` loads the metrics
# and what they import (core, relevance) and nothing else: no PDF engine, no vector index, no store, no model.
# Written by hand, not exported from a notebook; nbdev_export only keeps `__version__` up to date.
import importlib as _importlib
from pathlib import Path as _Path

_API = {'core': 'Page Line Node Chunk Hit Gold Question Item norm_text norm_file words text_page',
        'corpus': 'fetch_pdfs corpus_files',
        'pdf': 'pdf_pages read_corpus PdfError PdfWarning',
        'chunk': 'chunk_pages chunk_fixed chunk_recursive',
        'tree': 'detect_mode struct_levels build_tree node_chunks',
        'encode': 'LSA MissingExtra cached',
        'models': 'MiniLM Static ST get_encoder',
        'fusion': 'rrf',
        'store': 'FlatStore',
        'treestore': 'TreeStore',
        'relevance': 'contains satisfies satisfies_doc judge',
        'metrics': 'score_text question_metrics hit_at recall_at mrr_at ndcg_at precision_at token_overlap',
        'stats': 'bootstrap_ci paired_bootstrap mcnemar holm verdict compare shapley VERDICTS',
        'systems': 'Stack doc_system config_system',
        'runner': 'run_questions DEFAULTS'}
_HOME = {name: mod for mod, names in _API.items() for name in names.split()}   # public name -> its module
__all__ = list(_HOME)


def __getattr__(name):
    "A public name (or a submodule), imported on first access and kept on the package."
    if name in _HOME: value = getattr(_importlib.import_module(f'.{_HOME[name]}', __name__), name)
    elif name.isidentifier() and not name.startswith('_') and (_Path(__file__).parent / f'{name}.py').exists():
        value = _importlib.import_module(f'.{name}', __name__)
    else: raise AttributeError(f"module 'litebench' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__(): return sorted(set(globals()) | set(__all__))
