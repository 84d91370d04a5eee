"""Timing and memory helpers shared by both sides of the store benchmark.

Only the standard library and numpy: the peer's side imports this module too, in its own venv."""
from __future__ import annotations
import time
from pathlib import Path
import numpy as np


def time_calls(fn,                # the call to time, `fn(*a)`
               args,              # one tuple of arguments per timed call
               warmup: int = 20,  # untimed calls first, on the first arguments
               rounds: int = 1    # passes over `args`; each call's best is kept
              ) -> list:
    "Milliseconds of each `fn(*a)` for `a` in `args` (its best of `rounds` passes), after `warmup` untimed calls."
    args = list(args)
    for a in args[:warmup]: fn(*a)
    best = [float('inf')] * len(args)
    for _ in range(rounds):
        for i, a in enumerate(args):
            t0 = time.perf_counter(); fn(*a); best[i] = min(best[i], (time.perf_counter() - t0) * 1e3)
    return best


def leg_cache_off():
    ("Switch the store's leg cache off in this process (`legs.LEG_CACHE`; `store.LEG_CACHE` in a checkout from before "
     "the store's rooms), so a timed loop computes every query's legs; the module.")
    import importlib, litebench
    S = importlib.import_module('litebench.legs' if (Path(litebench.__file__).parent / 'legs.py').exists() else 'litebench.store')
    S.LEG_CACHE = 0
    return S


def words_forgotten():
    ("Forget the words this process has tokenized (`terms.fts_tokens`' cache and its words; `store`'s in a checkout from "
     "before the store's rooms), so that a timed pass tokenizes each query's new words as a user's new query does.")
    import importlib
    for name in ('litebench.terms', 'litebench.store'):
        try: m = importlib.import_module(name)
        except ImportError: continue
        if hasattr(getattr(m, 'fts_tokens', None), 'cache_clear'): m.fts_tokens.cache_clear()
        if isinstance(getattr(m, '_words', None), dict): m._words.clear()


def ms_stats(ms) -> dict:
    "Count, median, 95th percentile and mean of timings in milliseconds (the mean is what adds up across parts)."
    a = np.asarray(ms, dtype=float)
    return dict(n=len(a), median_ms=float(np.median(a)), p95_ms=float(np.percentile(a, 95)), mean_ms=float(a.mean()))


def rss_mib() -> dict:
    "This process's resident memory now (`VmRSS`) and at its peak so far (`VmHWM`), in MiB (Linux)."
    f = dict(l.split(':', 1) for l in Path('/proc/self/status').read_text().splitlines() if ':' in l)
    return dict(now=int(f['VmRSS'].split()[0]) / 1024, peak=int(f['VmHWM'].split()[0]) / 1024)
