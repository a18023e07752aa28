"""The explorer as a package (pyproject.toml): `pip install .` gives the core, the figure builders and the notebook
display with torch, numpy and plotly only; `pip install .[app]` adds the app, which `mha-explorer` starts.

The wheel is built from this checkout's files and installed into fresh virtual environments. Installing torch into
each would take half a minute and a gigabyte, so each environment sees this machine's copies of exactly the packages
the wheel may need (the dependency closure of its requirements, read from their metadata, linked into one folder on
its path) and nothing else: pip installs the wheel there with no index, so the requirements it declares must be met by
those packages alone, and code that needs anything more (streamlit) fails to import."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.browser import free_port, healthy
from tests.test_imports import module_graph
from tests.test_lock import _pins

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
BASE_PACKAGES = {"mha_core", "figures", "i18n", "explorer", "budget", "pretrained", "training", "mha_notebook"}
APP_PACKAGES = {"ui", "classroom", "liveclass", "network", "lessons", "app_pages"}
APP_MODULES = {"app", "frame", "serve"}
NOT_SHIPPED = {"tests", "bench", "scripts", "docs", "deploy", "wheels", "notebooks", "node_modules", "budget_"}


def _requirements(names: list[str]) -> list[Requirement]:
    return [Requirement(r) for r in names]


def test_the_base_install_needs_torch_numpy_and_plotly_only():
    assert {canonicalize_name(r.name) for r in _requirements(PROJECT["dependencies"])} == {"torch", "numpy", "plotly"}
    assert PYPROJECT["build-system"]["build-backend"] == "setuptools.build_meta"
    assert PROJECT["scripts"] == {"mha-explorer": "mha_explorer_app.ui.launch:main"}


def test_the_extras_are_requirements_txt_and_the_lock_satisfies_every_range():
    """requirements.txt (the README's install, through the lock) asks for what the base and the app extra ask for; the
    lock's versions are inside pyproject's ranges, so the tested set is one pyproject admits."""
    asked = PROJECT["dependencies"] + PROJECT["optional-dependencies"]["app"]
    wanted = {canonicalize_name(r.name) for r in _requirements(asked)}
    txt = [line.split("#")[0].strip() for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()]
    assert {canonicalize_name(Requirement(line).name) for line in txt if line} == wanted
    pins = _pins()
    for extra in (PROJECT["dependencies"], *PROJECT["optional-dependencies"].values()):
        for req in _requirements(extra):
            assert req.specifier.contains(Version(pins[canonicalize_name(req.name)]), prereleases=True), str(req)


def test_no_package_a_notebook_imports_imports_the_app():
    graph = module_graph()
    for name, targets in graph.items():
        if name.split(".")[0] in BASE_PACKAGES:
            app = {t for t in targets if t.split(".")[0] in APP_PACKAGES | APP_MODULES}
            assert not app, f"{name} imports {app}: the base install has no app (pip install . without [app])"


def _source_files() -> list[str]:
    """The checkout's files as git knows them (tracked, or new and not ignored)."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split("\n")  # fmt: skip
    return [f for f in out if f and not f.startswith("node_modules/") and (ROOT / f).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of this checkout, built from a copy of its files (a build writes build/ and *.egg-info beside them)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    for name in _source_files():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation", "--isolated",
                    "--no-index", "-q", "-w", str(tmp / "dist")], check=True, capture_output=True)  # fmt: skip
    built = next((tmp / "dist").glob("mha_explorer-*.whl"))
    print(f"wheel built in {time.perf_counter() - started:.1f} s, {built.stat().st_size / 1e6:.2f} MB")
    return built


def test_the_wheel_holds_every_file_of_its_packages_and_nothing_else(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {f.split("/")[0] for f in _source_files() if f.endswith("/__init__.py") and f.count("/") == 1}
    assert packages <= BASE_PACKAGES | APP_PACKAGES | NOT_SHIPPED, "a new package: ship it (pyproject.toml) or not"
    for f in _source_files():
        top = f.split("/")[0]
        if top in BASE_PACKAGES:
            want = f
        elif top in APP_PACKAGES | {"static"} or f in {f"{m}.py" for m in APP_MODULES} | {".streamlit/config.toml"}:
            want = f"mha_explorer_app/{f}"
        else:
            continue
        if f.endswith(".md") and top not in ("training",):  # READMEs of code folders are for the repository
            continue
        assert want in names, f"{f} is not in the wheel: add it to pyproject.toml's packages or package-data"
    tops = {n.split("/")[0] for n in names}
    assert not tops & (NOT_SHIPPED | APP_PACKAGES), tops
    assert not {n for n in names if "__pycache__" in n or n.endswith(".pyc")}


def _closure(requirements: list[str], extras: tuple[str, ...] = ()) -> set[str]:
    """The distributions (canonical names) `requirements` need, found in this environment, transitively."""
    env = default_environment()
    todo = [Requirement(r) for r in requirements]
    found: set[str] = set()
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in found or (req.marker and not any(req.marker.evaluate({**env, "extra": e}) for e in ("", *extras))):
            continue
        found.add(name)
        dist = metadata.distribution(name)
        for sub in dist.requires or []:
            r = Requirement(sub)
            if not r.marker or any(r.marker.evaluate({**env, "extra": e}) for e in ("", *req.extras)):
                todo.append(r)
    return found


def _venv(folder: Path, dists: set[str]) -> Path:
    """A virtual environment without pip whose path also holds a folder of links to `dists` (this machine's copies):
    their packages, modules and metadata, nothing else of this environment."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    shim = folder / "machine" / "site-packages"  # Streamlit takes a copy outside a site-packages for a developer's
    shim.mkdir(parents=True)
    for name in dists:
        dist = metadata.distribution(name)
        assert dist.files is not None, f"{name} has no RECORD"
        for entry in {Path(str(f)).parts[0] for f in dist.files} - {"..", "__pycache__"}:
            target = Path(dist.locate_file(entry))
            if target.exists() and not (shim / entry).exists():
                (shim / entry).symlink_to(target)
    site = next((folder / "lib").glob("python3*/site-packages"))
    (site / "machine_packages.pth").write_text(f"{shim}\n", encoding="utf-8")
    return folder / "bin" / "python"


def _install(python: Path, target: str) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--isolated", "--no-index",
                           "--no-build-isolation", "-q", target], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return time.perf_counter() - started


# What the fresh environment runs: the core, a grouped-query RoPE layer with a KV cache shown inline, a model's heads,
# a link of the app opened as the same trace; then which top-level modules it loaded.
NOTEBOOK_RUN = r"""
import importlib.util, json, sys, time
started = time.perf_counter()
import torch
torch_s = time.perf_counter() - started
import mha_notebook as nb
from mha_core import AttentionConfig, KVCache, MultiHeadAttention, embed_tokens, tokenize
tokens = tokenize("the cat sat on the mat")
x = embed_tokens(tokens, 32, 0)
layer = MultiHeadAttention(AttentionConfig(d_model=32, n_heads=8, n_kv_heads=2, rope=True, seed=0))
cache = KVCache()
with torch.no_grad():
    layer(x[:-1], causal=True, cache=cache)
    step = layer(x[-1:], causal=True, cache=cache)
view = nb.show(step, tokens)
html = view._repr_mimebundle_()["text/html"]
heads = nb.head_view([layer(x, causal=True)] * 2, tokens, layer=2, head=5)
linked = nb.open_link("http://localhost:8501/heads?preset=zh&n_heads=4&lang=zh")
print(json.dumps({
    "streamlit": importlib.util.find_spec("streamlit") is not None,
    "top_level_app": [m for m in ("ui", "classroom", "liveclass", "frame", "serve") if importlib.util.find_spec(m)],
    "charts": html.count('class="mha-nb-plot"'), "bundle": nb.page.plotly_js()[:60],
    "heads": heads.keys, "zh": linked.lang, "link": linked.link(),
    "loaded": sorted({m.split(".")[0] for m in sys.modules} - set(sys.stdlib_module_names)),
    "launcher": importlib.util.find_spec("mha_explorer_app.ui.launch") is not None,
}))
"""


def test_the_wheel_without_the_extra_runs_the_core_and_the_notebook_display_without_streamlit(wheel, tmp_path):
    python = _venv(tmp_path / "venv", _closure(PROJECT["dependencies"]))
    seconds = _install(python, str(wheel))
    done = subprocess.run([str(python), "-c", NOTEBOOK_RUN], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    run = json.loads(done.stdout.strip().splitlines()[-1])
    assert not run["streamlit"] and not run["top_level_app"] and run["launcher"]
    assert run["charts"] == 7 and run["heads"] == ["grid", "head", "lines"] and run["zh"] == "zh"
    assert run["bundle"].startswith("/**\n* plotly.js (cartesian - minified)")  # static/ inside mha_explorer_app/
    assert "n_heads=4" in run["link"]
    assert not set(run["loaded"]) & {"streamlit", "pandas", "safetensors", "tokenizers", "redis", "ui", "classroom"}
    script = subprocess.run([str(python.parent / "mha-explorer")], capture_output=True, text=True)
    assert script.returncode == 1 and "pip install 'mha-explorer[app]'" in script.stderr
    print(f"base install: {seconds:.1f} s; loaded {run['loaded']}")


def test_with_the_app_extra_mha_explorer_starts_the_app_from_anywhere(wheel, tmp_path):
    app = tuple(PROJECT["optional-dependencies"]["app"])
    python = _venv(tmp_path / "venv", _closure([*PROJECT["dependencies"], *app]))
    _install(python, f"{wheel}[app]")
    port = free_port()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen([str(python.parent / "mha-explorer"), "--server.port", str(port), "--server.address",
                               "127.0.0.1"], cwd=elsewhere, stdout=log, stderr=subprocess.STDOUT,
                              env={**os.environ, "MHA_WARMUP": "0"})  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while not healthy(url, timeout=1):
            assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "server.log").read_text()[-3000:]
            time.sleep(0.3)
        with urllib.request.urlopen(f"{url}/app/static/plotly-cartesian-4.1.1.min.js", timeout=10) as r:
            assert r.status == 200 and r.read(40).startswith(b"/**")  # static/ served: the app's config was read
        with urllib.request.urlopen(f"{url}/steps?d_model=32&n_heads=4", timeout=10) as r:
            assert r.status == 200 and b"<title>" in r.read()
        with pytest.raises(urllib.error.HTTPError) as answer:  # serve.py's own route answers: serve.py runs
            urllib.request.urlopen(f"{url}/live/version?room=NOROOM", timeout=10)
        assert answer.value.code == 404 and "error" in json.loads(answer.value.read())
    finally:
        server.terminate()
        server.wait(timeout=15)
        log.close()
    assert re.search(r"mha_explorer_app", " ".join(server.args)) is None  # the command is README's, not a path


def test_importing_the_core_costs_little_beyond_torch(tmp_path):
    """`python -X importtime -c "import mha_core"`: the core's cumulative import time against torch's, in one run."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import mha_core"], capture_output=True, text=True,
                          cwd=ROOT)  # fmt: skip
    cumulative = {}
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[1].isdigit():
            cumulative[parts[2]] = int(parts[1])
    ratio = cumulative["mha_core"] / cumulative["torch"]
    print(f"import mha_core: {cumulative['mha_core'] / 1e6:.2f} s, torch {cumulative['torch'] / 1e6:.2f} s, "
          f"ratio {ratio:.3f}")  # fmt: skip
    assert ratio < 1.2  # the core is plain torch: it adds a few modules of its own
    assert not {"plotly", "streamlit", "pandas"} & set(cumulative)
