"""Running the peer: `peer.py` under the benchmark venv's Python, on the pages, LSA vectors and queries litebench's side gets.

Whatever goes wrong (no venv, no litesearch, another version, a crash) the result is `{'not_run': reason}`, never an
exception: the store report then gives litebench's side alone and says why the peer was not run."""
from __future__ import annotations
import json, os, subprocess, tempfile
from pathlib import Path
import numpy as np
import peer

HERE = Path(__file__).resolve().parent
INSTALL = f'python3 -m venv .venv-bench && .venv-bench/bin/pip install "litesearch=={peer.PEER_VERSION}" numpy'


def peer_env(hnsw: bool) -> dict:
    "The environment the peer runs in: ours without Python paths; `LITESEARCH_USEARCH=0` when its HNSW index is off."
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV')}
    return env if hnsw else {**env, 'LITESEARCH_USEARCH': '0'}


def bench_python() -> Path:
    "The benchmark venv's Python: `LITEBENCH_BENCH_PYTHON`, else `.venv-bench/bin/python` in the checkout."
    env = os.environ.get('LITEBENCH_BENCH_PYTHON')
    return Path(env) if env else HERE.parent / '.venv-bench' / 'bin' / 'python'


def peer_ready(python) -> str | None:
    "None when `python` imports litesearch at the pinned version; otherwise why it cannot run the peer."
    if not Path(python).exists(): return f'no benchmark venv: {python} does not exist ({INSTALL})'
    r = subprocess.run([str(python), '-c', 'import litesearch; print(litesearch.__version__)'], capture_output=True, text=True, env=peer_env(False))
    if r.returncode: return f'litesearch does not import in {python}: {(r.stderr.strip().splitlines() or ["?"])[-1]}'
    v = r.stdout.strip().splitlines()[-1]
    return None if v == peer.PEER_VERSION else f'{python} has litesearch {v}, the benchmark pins {peer.PEER_VERSION}'


def peer_speed(docs, enc, queries, qvecs, repeats: int = 5, warmup: int = 20, rounds: int = 3,
               python=None,        # the benchmark venv's Python (default: `bench_python()`)
               hnsw: bool = True   # keep litesearch's HNSW index on, as it ships
              ) -> dict:
    "litesearch's side on the same pages, LSA and query vectors; `{'not_run': reason}` when it cannot run."
    python = Path(python or bench_python())
    if why := peer_ready(python): return dict(not_run=why)
    run = lambda *a: subprocess.run([str(python), str(HERE / 'peer.py'), *map(str, a)], capture_output=True, text=True, env=peer_env(hnsw), check=True)
    try:
        with tempfile.TemporaryDirectory() as d:
            f = {k: Path(d) / k for k in ('docs.json', 'texts.json', 'V.npy', 'Q.json', 'QV.npy', 'R.json')}
            peer.save_docs([(p.doc, [(x.page, x.text) for x in p]) for p in docs], f['docs.json'])
            run('texts', '--docs', f['docs.json'], '--out', f['texts.json'])
            np.save(f['V.npy'], enc.encode(json.loads(f['texts.json'].read_text())))   # litesearch's texts, embedded here with the same LSA
            f['Q.json'].write_text(json.dumps(list(queries))); np.save(f['QV.npy'], np.asarray(qvecs, np.float32))
            run('bench', '--docs', f['docs.json'], '--texts', f['texts.json'], '--vectors', f['V.npy'], '--queries', f['Q.json'],
                '--qvectors', f['QV.npy'], '--repeats', repeats, '--warmup', warmup, '--rounds', rounds, '--out', f['R.json'])
            return json.loads(f['R.json'].read_text())
    except subprocess.CalledProcessError as e:
        return dict(not_run=f'the peer failed: {(e.stderr.strip().splitlines() or ["exit " + str(e.returncode)])[-1]}')
