"A stranger's machine: litebench's wheel built from a checkout and installed into a fresh virtual environment, its commands run in an empty folder outside any checkout (used by tests/test_installed.py and nbs/tutorials/stranger.ipynb)."
from __future__ import annotations
from pathlib import Path
import os, subprocess, sys, sysconfig, venv

__all__ = ['Stranger']


class Stranger:
    "A fresh venv holding the wheel of `root` (the dependencies reused from this environment), a data folder of its own and an empty working folder."
    def __init__(self, root, tmp, mirror=None, code_mirror=None):
        self.root, self.tmp = Path(root).resolve(), Path(tmp)
        dist, self.venv = self.tmp / 'dist', self.tmp / 'venv'
        self.home, self.work = self.tmp / 'home', self.tmp / 'work'; self.home.mkdir(exist_ok=True); self.work.mkdir(exist_ok=True)
        self.data = self.home / 'litebench'   # the per-user data folder, under XDG_DATA_HOME
        shared = self.root.parent / 'shared'
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(('LITEBENCH_', 'PYTHON', 'VIRTUAL_ENV', 'CONDA', 'PIP_'))}   # nothing the caller set
        self.env |= dict(XDG_DATA_HOME=str(self.home), PATH=f"{self.venv / 'bin'}{os.pathsep}{self.env.get('PATH', '')}",
                         LITEBENCH_MIRROR=str(mirror or shared / 'pdfs'), LITEBENCH_CODE_MIRROR=str(code_mirror or shared / 'code'))
        subprocess.run([sys.executable, '-m', 'pip', 'wheel', '-q', '--no-deps', '--no-build-isolation', '--disable-pip-version-check', '-w', str(dist), str(self.root)],
                       check=True, cwd=self.tmp, capture_output=True)
        self.wheel = next(dist.glob('litebench-*.whl'))
        venv.create(self.venv, with_pip=True)
        site = self.py('-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])').stdout.strip()
        Path(site, 'reuse_deps.pth').write_text(sysconfig.get_paths()['purelib'] + '\n')   # this environment's dependencies; litebench itself only from the wheel
        self.run('python', '-m', 'pip', 'install', '-q', '--no-deps', '--force-reinstall', '--disable-pip-version-check', str(self.wheel))
        assert list(Path(site).glob('litebench/__init__.py')), f'{self.wheel.name} did not install into {site}'

    def py(self, *args) -> subprocess.CompletedProcess:
        "The venv's Python, run in the stranger's environment."
        return subprocess.run([str(self.venv / 'bin' / 'python'), *args], capture_output=True, text=True, check=True, env=self.env)

    def run(self, cmd: str, *args, ok=(0,), timeout: float = 1800) -> subprocess.CompletedProcess:
        "Run the venv's `cmd` (litebench, python, …) in the empty working folder; an exit code outside `ok` raises with its output."
        p = subprocess.run([str(self.venv / 'bin' / cmd), *map(str, args)], cwd=self.work, env=self.env,
                           capture_output=True, text=True, timeout=timeout)
        if p.returncode not in ok: raise AssertionError(f'{cmd} {" ".join(map(str, args))} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}')
        return p
