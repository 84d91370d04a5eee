"""The import benchmark: what scoring costs a whole process, litebench beside pytrec_eval and ranx, and what importing litebench costs before and after the light import.

Every figure is one fresh process: wall seconds from start to exit and CPU seconds (user + system, from `os.wait4`)
measured from outside, and peak resident memory read by the process itself at its end (`VmHWM`: the child's
`ru_maxrss` is no use here, since Linux carries the parent's resident size over fork and exec into it). Each command runs once untimed
first (numba's compiled functions are cached by then, files are in the page cache), then `repeats` times, commands
interleaved; medians are reported.
- scoring: `scoring.py` makes a seeded synthetic run and qrels and one tool scores them (MRR@10, nDCG@10,
  recall@100); a comparator that is not installed is reported as such;
- importing: `import litebench`, `from litebench import score_text`, ... on the commit before the light import
  (682ee73 by default, unpacked with `git archive`) and on this checkout, with the modules each loads."""
from __future__ import annotations
import importlib.metadata, importlib.util, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path
from latency import checkout, described, loadavg
from scoring import TOOLS, MODULE

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BEFORE = '682ee73'                      # the commit before the light import
HEAVY = ('pymupdf', 'fitz', 'usearch', 'torch', 'sentence_transformers', 'sklearn', 'scipy', 'pandas', 'matplotlib', 'onnxruntime', 'numpy', 'sqlite3')
COMMANDS = ['pass', 'import litebench', 'from litebench import score_text', 'from litebench import score_text, compare, bootstrap_ci',
            'from litebench import TreeStore']
_IMPORT = '''import json, re, sys, time
t0 = time.perf_counter()
exec(sys.argv[2])
t = time.perf_counter() - t0
lb, mods = sys.modules.get("litebench"), sorted(sys.modules)
peak = int(re.search(r"VmHWM:\s+(\d+)", open("/proc/self/status").read())[1]) / 1024
json.dump(dict(import_s=t, modules=mods, peak_mib=peak, litebench=getattr(lb, "__file__", None)), open(sys.argv[1], "w"))'''


def child(args: list, env: dict, cwd: Path) -> dict:
    "Run `python ARGS[1:]` (ARGS[0] is the JSON file it writes) in a fresh process: its wall and CPU seconds, and what it wrote (its peak memory among it)."
    with tempfile.TemporaryFile('w+') as err:
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, *args[1:]], stdout=subprocess.DEVNULL, stderr=err, env=env, cwd=cwd)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode:
            err.seek(0); raise RuntimeError(f'{" ".join(map(str, args[1:]))} failed ({p.returncode}):\n{err.read()[-3000:]}')
    return dict(wall_s=wall, cpu_s=ru.ru_utime + ru.ru_stime, **json.loads(Path(args[0]).read_text()))


def env_for(root: Path) -> dict:
    "The environment of a process that imports the litebench of the checkout `root`."
    return {**os.environ, 'PYTHONPATH': str(root)}


def medians(runs: list) -> dict:
    "The last run's record with its timings and memory replaced by their medians over `runs`."
    keys = [k for k, v in runs[0].items() if isinstance(v, float)]
    return {**runs[-1], **{k: statistics.median(r[k] for r in runs) for k in keys}, 'n': len(runs)}


def version(tool: str) -> str | None:
    "The installed comparator's version, or None when its module cannot be imported here."
    mod = MODULE.get(tool)
    if mod is None: return ''
    if importlib.util.find_spec(mod) is None: return None
    try: return importlib.metadata.version({'pytrec_eval': 'pytrec_eval-terrier'}.get(mod, mod))
    except importlib.metadata.PackageNotFoundError: return '?'


def scoring_speed(n_queries: int, repeats: int, seed: int = 0, tmp: Path | None = None) -> dict:
    "Each installed tool's scoring script: one untimed run, then `repeats` timed ones, tools interleaved; medians."
    tools = {t: version(t) for t in TOOLS}
    ready = [t for t, v in tools.items() if v is not None]
    out = tmp / 'score.json'
    job = lambda t: child([out, str(HERE / 'scoring.py'), t, str(n_queries), str(seed), str(out)], env_for(ROOT), ROOT)
    for t in ready: job(t)
    runs = {t: [] for t in ready}
    for _ in range(repeats):
        for t in ready: runs[t].append(job(t))
    return dict(versions=tools, results={t: medians(r) for t, r in runs.items()})


def import_speed(sides: dict, repeats: int, tmp: Path) -> dict:
    "Each import command on each side in fresh processes: one untimed run, then `repeats` timed ones, interleaved; medians."
    out = tmp / 'import.json'
    job = lambda side, cmd: child([out, '-c', _IMPORT, str(out), cmd], env_for(sides[side]), sides[side])
    for side in sides:
        for cmd in COMMANDS: job(side, cmd)
    runs = {(s, c): [] for s in sides for c in COMMANDS}
    for _ in range(repeats):
        for c in COMMANDS:
            for s in sides: runs[s, c].append(job(s, c))
    res = {k: medians(v) for k, v in runs.items()}
    for (s, c), r in res.items():
        if c != 'pass' and not Path(r['litebench']).resolve().is_relative_to(Path(sides[s]).resolve()):
            raise RuntimeError(f'{s}: imported litebench from {r["litebench"]}, not from {sides[s]}')
    return res


def import_bench(n_queries: int = 10_000,  # queries of the synthetic run (100 results each)
                 repeats: int = 5,         # timed runs of each command (after an untimed one)
                 before: str = BEFORE,     # the commit (or checkout folder) of the 'before' side
                 seed: int = 0) -> dict:
    "Scoring by each tool and importing litebench before and after, each in fresh processes."
    from ingest import machine
    loads = [loadavg()]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        sides = {'before': checkout(before, tmp / 'before'), 'after': ROOT}
        imp = import_speed(sides, repeats, tmp)
        loads.append(loadavg())
        score = scoring_speed(n_queries, repeats, seed, tmp)
        names = {'before': before if sides['before'].is_relative_to(tmp) else str(sides['before']), 'after': described(ROOT)}
    loads.append(loadavg())
    return dict(n_queries=n_queries, repeats=repeats, seed=seed, sides=names, imports=imp, scoring=score, loads=loads, machine=machine())


def third_party(modules: list) -> list:
    "The top-level packages among `modules` that are neither the standard library nor litebench."
    tops = {m.split('.')[0] for m in modules}
    return sorted(m for m in tops if m not in sys.stdlib_module_names and not m.startswith('_') and m != 'litebench')


def score_table(S: dict, n_queries: int) -> list:
    "One line per scoring script: whole-process wall, CPU and peak memory, the script's own import and scoring times, and the means it computed."
    R, V = S['results'], S['versions']
    rows = [f'| script: {n_queries:,} queries × 100 results | wall s | CPU s | peak MiB | import s | scoring s | MRR@10 | nDCG@10 | R@100 |',
            '|---|---|---|---|---|---|---|---|---|']
    for t, v in V.items():
        name = f'{t} {v}' if v else t
        if v is None: rows.append(f'| {name} | not installed | – | – | – | – | – | – | – |'); continue
        r, m = R[t], R[t]['means']
        vals = [f"{m[k]:.4f}" if k in m else '–' for k in ('mrr10', 'ndcg10', 'recall100')]
        imp = f"{r['import_s']:.2f}" if m else '–'
        rows.append(f"| {name} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['peak_mib']:.0f} | {imp} | {r['score_s']:.2f} | {' | '.join(vals)} |" if m else
                    f"| {name} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['peak_mib']:.0f} | – | – | – | – | – |")
    return rows


def agreement(S: dict) -> str:
    "How far each tool's means are from litebench's one-query functions."
    R = S['results']; ref = R.get('litebench, one query at a time', {}).get('means')
    if not ref: return ''
    diff = {t: max(abs(r['means'][k] - ref[k]) for k in ref) for t, r in R.items() if r['means'] and t != 'litebench, one query at a time'}
    return 'Largest difference of a mean from litebench\'s one-query functions: ' + ', '.join(f'{t} {d:.1e}' for t, d in diff.items()) + '.'


def import_table(I: dict, sides: dict) -> list:
    "One line per import command: wall ms and peak MiB of the fresh process, before and after, and the modules it loaded."
    rows = [f"| fresh process | before ({sides['before']}): wall ms | peak MiB | modules | after: wall ms | peak MiB | modules | heavy modules before → after |",
            '|---|---|---|---|---|---|---|---|']
    for c in COMMANDS:
        b, a = I['before', c], I['after', c]
        heavy = lambda r: ', '.join(h for h in HEAVY if h in r['modules']) or 'none'
        rows.append(f"| `{c}` | {b['wall_s'] * 1e3:.0f} | {b['peak_mib']:.0f} | {len(b['modules'])} | {a['wall_s'] * 1e3:.0f} | {a['peak_mib']:.0f} | {len(a['modules'])} | {heavy(b)} → {heavy(a)} |")
    return rows


def import_report(r: dict) -> str:
    "A markdown report of an `import_bench` result."
    I, S = r['imports'], r['scoring']
    loads = [x for x in r['loads'] if x == x]
    head = (f"Import benchmark: before = {r['sides']['before']}, after = {r['sides']['after']}. Every figure is a fresh process: wall from start to exit and "
            f"CPU (user + system) measured from outside, peak memory the process's own high-water mark (`VmHWM`) at its end; each command ran once untimed, then {r['repeats']} "
            f"time{'s' if r['repeats'] != 1 else ''}, commands interleaved; medians. BLAS and numba threads as the user has them. Machine: {r['machine']}; "
            f"shared: its 1-minute load average ranged {min(loads, default=float('nan')):.1f} to {max(loads, default=float('nan')):.1f} during the run.")
    b, a = I['before', 'from litebench import score_text'], I['after', 'from litebench import score_text']
    mods = ['', f"Third-party packages loaded by `from litebench import score_text`: before, {', '.join(third_party(b['modules'])) or 'none'}; "
                f"after, {', '.join(third_party(a['modules'])) or 'none'}. After, its litebench modules are "
                f"{', '.join(sorted(m for m in a['modules'] if m.startswith('litebench')))}."]
    score_head = ['', f"Scoring a synthetic TREC-style run (seed {r['seed']}: {r['n_queries']:,} queries, 100 results each, 1 to 5 relevant documents per query, "
                      "most of them retrieved) as {query: {document: score}} and {query: {document: relevance}} dictionaries, each tool in its own process. "
                      "The whole-process figures hold Python's start, making the data (the `data only` row) and the tool's import; import s and scoring s are the "
                      "script's own clock around the tool's import and around the scoring (the tool's conversion of the dictionaries included)."]
    notes = ['', agreement(S),
             '', "How each scores: litebench one query at a time sorts each query's documents by score, marks each rank's match set ({document} when it is relevant) "
                 "and calls `mrr_at`, `ndcg_at` and `recall_at`; as arrays, `metrics.gains_of` reads every query's ranked documents once into a matrix of gains "
                 "and `metrics.metrics_at` computes per-query MRR, nDCG and recall at a cut from it (numpy). pytrec_eval computes nDCG@10 and recall@100 in one "
                 "call; trec_eval's reciprocal rank has no cut, so RR@10 is a second call on the run cut to its top 10. ranx's first run on a machine compiles its numba "
                 "functions (a minute or more) and caches them on disk; that run is the untimed one, but numba still compiles part of ranx (its conversion of the "
                 "dictionaries to typed containers, whose functions are not cached) in every fresh process, a cost per process whatever the number of queries, and its times above include it."]
    return '\n'.join([head, '', *import_table(I, r['sides']), *mods, *score_head, '', *score_table(S, r['n_queries']), *notes])
