"""docker-compose.yml, run for real: `docker compose` (or Debian's docker-compose) brings up the two app replicas,
Redis and nginx on this machine's Docker engine (tests/test_docker.py starts it), the app image built as
tests/test_docker.py builds it, Redis and nginx from Debian's packages on the same debootstrap base (no Docker
Hub). Through nginx, in Chromium: a teacher starts a live class, a student whose sticky cookie lands on the other
replica joins, and follows the teacher's h; the room is in Redis. The browsers use the addresses a class uses
(http://classroom.lan:8080 for the teacher, http://10.1.2.3:8080 for the students; Chromium maps these names to the
stack's local port, so nothing is looked up and the Host and Origin headers are the school's). The teacher asks a
question, two students answer, Redis is killed mid-question and started again: both answers are still counted.
Redis stopped: both keep working with the "cannot be reached" message; Redis started again: the student follows
the teacher again. Through the stack's nginx: the websocket upgrade with a school Host/Origin gets 101, a foreign
Origin 403; the security headers; /_stcore/metrics refused to a request from outside the nginx container; unknown
paths 404; the stack runs with MHA_ALLOWED_HOSTS (classroom.lan and 10.1.2.3): another host name gets 421.

A class behind one address, as Docker gives it: every browser and student of this test reaches nginx through the port
Docker publishes, so nginx sees them all at one address (the compose network's gateway). 30 more students (Streamlit's
websocket protocol, tests/live_students.py) join the class the two browsers are in: all 32 are seated with the default
limits, and the store holds every one of them under that one address's network (its digest: no address is stored),
passed on by nginx, never under nginx's own (the replicas trust nginx by its name: MHA_TRUSTED_PROXIES in
docker-compose.yml).

Set MHA_COMPOSE_SHOTS to a folder to keep 1280x720 screenshots of each stage. Only when Docker cannot run here at
all (or no compose tool can be had) do these tests skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from liveclass.privacy import network_digest
from network import address_key
from tests import test_docker as td
from tests.browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    choose,
    free_port,
    healthy,
    start_live_class,
    wait_idle,
    websocket_upgrade,
)
from tests.live_students import seat
from tests.test_docker import engine  # noqa: F401  (the fixture: a Docker engine that answers)

ROOT = Path(__file__).resolve().parent.parent
PROJECT = f"mhacompose{os.getpid()}"
APP_IMAGE = f"mha-explorer-compose-{os.getpid()}:latest"
FOLLOW_TIMEOUT = 20_000  # ms; the target is 2 s, a loaded test machine gets slack
STORE_DOWN = "The live class cannot be reached right now"
TEACHER_AT, STUDENTS_AT = "http://classroom.lan:8080", "http://10.1.2.3:8080"  # mapped to the stack by Chromium
pytestmark = pytest.mark.timeout(3000)  # the first run makes the base and builds the image; later runs: ~1 min
HEAD_TILES = """() => { const p = document.querySelector('.mha-plot');
    return p ? [...p.querySelectorAll('.annotation-text')]
        .filter(a => /^head \\d+$/.test(a.textContent)).length : -1 }"""


def _compose_tool() -> list[str]:
    """`docker compose` (v2 plugin) when the client has it, else Debian's docker-compose (installed if missing)."""
    for client in (td.DOCKER, "docker"):
        exe = shutil.which(client)
        if exe and subprocess.run([exe, "compose", "version"], capture_output=True).returncode == 0:
            return [exe, "compose"]
    if not shutil.which("docker-compose"):
        td._apt_install("docker-compose")
    return [shutil.which("docker-compose") or "/usr/bin/docker-compose"]


@dataclass
class Stack:
    compose: list[str]
    env: dict[str, str]
    url: str

    def run(self, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run([*self.compose, "-p", PROJECT, "-f", str(ROOT / "docker-compose.yml"), *args],
                              capture_output=True, text=True, check=check, timeout=timeout, env=self.env,
                              cwd=ROOT)  # fmt: skip

    def container(self, service: str) -> str:
        return self.run("ps", "-q", service).stdout.strip()

    def address(self, service: str) -> str:
        nets = td.docker("inspect", "-f", "{{json .NetworkSettings.Networks}}", self.container(service)).stdout
        nets = json.loads(nets)
        return next(iter(nets.values()))["IPAddress"]

    def gateway(self) -> str:
        """The compose network's gateway: where a connection to the port Docker publishes comes from, as nginx sees
        it (Docker's proxy of a published port, or its NAT)."""
        nets = td.docker("inspect", "-f", "{{json .NetworkSettings.Networks}}", self.container("nginx")).stdout
        return next(iter(json.loads(nets).values()))["Gateway"]


def _healthy(stack: Stack, service: str, timeout: float = 120) -> float:
    t0 = time.monotonic()
    status = ""
    while time.monotonic() - t0 < timeout:
        status = td.docker("inspect", "-f", "{{.State.Health.Status}}", stack.container(service)).stdout.strip()
        if status == "healthy":
            return time.monotonic() - t0
        time.sleep(0.25)
    raise AssertionError(f"{service} is {status!r}: {stack.run('logs', '--tail=40', service, check=False).stdout}")


@pytest.fixture(scope="module")
def stack(engine) -> Iterator[Stack]:  # noqa: F811
    compose = _compose_tool()
    built = td.build_image(APP_IMAGE)
    print(f"\napp image built in {built.seconds:.0f} s")
    env = {**os.environ, "MHA_IMAGE": APP_IMAGE, "MHA_BASE_IMAGE": td.BASE_TAG, "MHA_PORT": str(free_port()),
           "DOCKER_HOST": "unix:///var/run/docker.sock", "MHA_ALLOWED_HOSTS": "classroom.lan,10.1.2.3"}  # fmt: skip
    s = Stack(compose, env, f"http://127.0.0.1:{env['MHA_PORT']}")
    try:
        t0 = time.monotonic()
        res = s.run("build", "redis", "nginx", check=False)  # Debian's packages on the debootstrap base
        assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
        print(f"redis and nginx images built in {time.monotonic() - t0:.0f} s")
        t0 = time.monotonic()
        res = s.run("up", "-d", "--no-build", check=False)
        assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
        for service in ("app1", "app2"):
            _healthy(s, service)
        while not healthy(s.url):
            assert time.monotonic() - t0 < 120, s.run("logs", "--tail=40", "nginx", check=False).stdout
            time.sleep(0.25)
        print(f"stack up and healthy through nginx {time.monotonic() - t0:.1f} s after `up -d`")
        yield s
    finally:
        logs = s.run("logs", "--no-color", check=False).stdout
        s.run("down", "-v", "-t", "5", check=False)
        td.docker("rmi", "-f", APP_IMAGE, check=False)
        if os.environ.get("MHA_COMPOSE_SHOTS"):
            Path(os.environ["MHA_COMPOSE_SHOTS"]).mkdir(parents=True, exist_ok=True)
            (Path(os.environ["MHA_COMPOSE_SHOTS"]) / "compose.log").write_text(logs, encoding="utf-8")


def test_nginx_spreads_browsers_over_both_replicas_and_keeps_each_on_one(stack):
    replicas = {stack.address("app1"): "app1", stack.address("app2"): "app2"}
    seen = []
    for _ in range(16):
        with urllib.request.urlopen(f"{stack.url}/_stcore/health", timeout=5) as r:
            cookie = next(c.split(";")[0] for c in r.headers.get_all("Set-Cookie") if c.startswith("mha_route="))
            first = r.headers["X-Explorer-Upstream"]
        req = urllib.request.Request(f"{stack.url}/_stcore/health", headers={"Cookie": cookie})
        for _ in range(3):  # a known browser always lands on its replica
            with urllib.request.urlopen(req, timeout=5) as r:
                assert r.headers["X-Explorer-Upstream"] == first
        seen.append(replicas[first.rsplit(":", 1)[0]])
    assert set(seen) == {"app1", "app2"}, seen


def _get(url: str, host: str = "classroom.lan:8080") -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers)


def test_nginx_of_the_stack_on_a_school_address(stack):
    for host in ("classroom.lan:8080", "10.1.2.3:8080"):
        assert websocket_upgrade(stack.url, host, f"http://{host}") == 101
    assert websocket_upgrade(stack.url, "classroom.lan:8080", "http://evil.example:8080") == 403
    assert websocket_upgrade(stack.url, "evil.example:8080", "http://evil.example:8080") == 421  # MHA_ALLOWED_HOSTS
    assert _get(f"{stack.url}/heads", host="evil.example")[0] == 421
    for service in ("app1", "app2"):  # the replicas have the list too (a request that reaches them some other way)
        env = td.docker("inspect", "-f", "{{json .Config.Env}}", stack.container(service)).stdout
        assert "MHA_ALLOWED_HOSTS=classroom.lan,10.1.2.3" in json.loads(env), env
    status, headers = _get(f"{stack.url}/heads")
    assert status == 200 and headers["X-Frame-Options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert _get(f"{stack.url}/_stcore/metrics")[0] == 403  # this test is outside the nginx container
    assert _get(f"{stack.url}/.streamlit/config.toml")[0] == 404
    logs = stack.run("logs", "--no-color", "app1", "app2", check=False).stdout
    assert "checkip" not in logs and "external IP" not in logs


def _shot(page, name: str) -> None:
    folder = os.environ.get("MHA_COMPOSE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.evaluate("document.fonts.ready")
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def _replica(ctx, base: str, replicas: dict[str, str]) -> str:
    """The replica a browser context's cookie pins it to (asked through nginx by the browser, at `base`)."""
    page = ctx.new_page()
    upstream = page.goto(f"{base}/_stcore/health").headers["x-explorer-upstream"]
    page.close()
    return replicas[upstream.rsplit(":", 1)[0]]


def _school_browser(pw, stack: Stack):
    port = stack.env["MHA_PORT"]
    rules = f"MAP classroom.lan:8080 127.0.0.1:{port}, MAP 10.1.2.3:8080 127.0.0.1:{port}"
    return pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--host-resolver-rules={rules}"])


def _answer(page, value: str) -> None:
    page.get_by_text("Question from the teacher").first.wait_for(timeout=FOLLOW_TIMEOUT)
    page.get_by_role("textbox", name="Your number").fill(value)
    page.get_by_role("button", name="Send my answer").click()
    page.get_by_text("Sent:").first.wait_for(timeout=FOLLOW_TIMEOUT)


def _set_h(page, value: int) -> None:
    box = page.get_by_role("spinbutton", name="Number of heads h")
    box.fill(str(value))
    box.press("Enter")
    wait_idle(page)


@pytest.mark.browser
def test_a_live_class_over_both_replicas_through_nginx_survives_redis_going_away(stack):
    from playwright.sync_api import sync_playwright

    replicas = {stack.address("app1"): "app1", stack.address("app2"): "app2"}
    with sync_playwright() as pw:
        browser = _school_browser(pw, stack)
        try:
            size = {"width": 1280, "height": 720}
            tctx = browser.new_context(viewport=size, locale="en-US")
            on = {"teacher": _replica(tctx, TEACHER_AT, replicas)}
            sctx = None
            for _ in range(20):  # a student whose cookie pins them to the other replica
                sctx = browser.new_context(viewport=size, locale="en-US")
                on["student"] = _replica(sctx, STUDENTS_AT, replicas)
                if on["student"] != on["teacher"]:
                    break
                sctx.close()
            assert on["student"] != on["teacher"], on

            teacher = tctx.new_page()
            teacher.goto(f"{TEACHER_AT}/heads")
            wait_idle(teacher)
            code = start_live_class(teacher)
            # the room is in Redis, the one store both replicas share
            keys = td.docker("exec", stack.container("redis"), "redis-cli", "--scan").stdout
            assert code in keys, keys

            student = sctx.new_page()
            student.goto(f"{STUDENTS_AT}/?join={code}")
            student.wait_for_function("() => location.pathname.endsWith('/heads')", timeout=FOLLOW_TIMEOUT)
            student.get_by_text(f"Following the teacher · live class {code}").first.wait_for(timeout=FOLLOW_TIMEOUT)
            wait_idle(student)
            assert student.evaluate(HEAD_TILES) == 8
            _shot(teacher, "1-teacher-started")
            _shot(student, "2-student-joined")

            _set_h(teacher, 4)
            t0 = time.monotonic()
            student.wait_for_function(f"() => ({HEAD_TILES})() === 4", timeout=FOLLOW_TIMEOUT)
            print(f"\nthe student on {on['student']} followed the teacher on {on['teacher']} in "
                  f"{time.monotonic() - t0:.1f} s")  # fmt: skip
            wait_idle(student)
            assert student.get_by_role("spinbutton", name="Number of heads h").count() == 0  # following: no settings
            _shot(student, "3-student-followed-h4")
            # still pinned: the pages' own requests reach the replica their cookie chose
            for who, page in (("teacher", teacher), ("student", student)):
                up = page.evaluate("fetch('/_stcore/health').then(r => r.headers.get('x-explorer-upstream'))")
                assert replicas[up.rsplit(":", 1)[0]] == on[who]

            # a second student (any replica) joins too; during the outage they explore on their own
            other = browser.new_context(viewport=size, locale="en-US").new_page()
            other.goto(f"{STUDENTS_AT}/?join={code}")
            other.get_by_text(f"Following the teacher · live class {code}").first.wait_for(timeout=FOLLOW_TIMEOUT)
            other.wait_for_function(f"() => ({HEAD_TILES})() === 4", timeout=FOLLOW_TIMEOUT)
            wait_idle(other)

            # 30 more students, all behind the one address Docker's port gives them: every one seated, and the store
            # holds each under that address's network digest (passed on by nginx, which the replicas trust), never
            # under nginx's own
            t0 = time.monotonic()
            said = seat(stack.url, code, [""] * 30)
            print(f"30 more students seated in {time.monotonic() - t0:.1f} s")
            assert said == ["following"] * 30, said
            who = td.docker("exec", stack.container("redis"), "redis-cli", "HVALS", f"mha:live:room:{code}:who").stdout
            networks = [line.split("|")[1] for line in who.split()]  # each seat's network: its digest (no address)
            key = td.docker("exec", stack.container("redis"), "redis-cli", "GET", "mha:live:secret").stdout.strip()
            gateway, nginx = (network_digest(key, address_key(a)) for a in (stack.gateway(), stack.address("nginx")))
            assert len(networks) == 32 and set(networks) == {gateway} and gateway != nginx, networks
            teacher.get_by_text("32 joined").first.wait_for(timeout=FOLLOW_TIMEOUT)

            # a question; two students answer; Redis is killed mid-question and started again: no answer is lost
            choose(teacher, "Question", "How the cost grows with L")  # students type a number
            teacher.get_by_role("button", name="Send to the class").click(timeout=FOLLOW_TIMEOUT)
            wait_idle(teacher)
            _answer(student, "4")
            _answer(other, "100")
            teacher.get_by_text("2 answers").first.wait_for(timeout=FOLLOW_TIMEOUT)
            _shot(teacher, "3a-teacher-two-answers")
            td.docker("kill", "-s", "KILL", stack.container("redis"))
            stack.run("start", "redis")
            _healthy(stack, "redis")
            answers = td.docker("exec", stack.container("redis"), "redis-cli", "--scan", "--pattern",
                                f"mha:live:room:{code}:ans:*").stdout.split()  # fmt: skip
            assert len(answers) == 1, answers
            assert td.docker("exec", stack.container("redis"), "redis-cli", "HLEN", answers[0]).stdout.strip() == "2"
            teacher.get_by_text("2 answers").first.wait_for(timeout=FOLLOW_TIMEOUT * 2)  # the teacher's count is back
            teacher.get_by_role("button", name="Reveal").click()
            for page in (student, other):
                page.get_by_text("The class's answers").first.wait_for(timeout=FOLLOW_TIMEOUT)
            _shot(student, "3b-student-revealed-after-redis-killed")

            # Redis goes away: everyone keeps working as in the normal app, and is told
            redis_cli = ("exec", stack.container("redis"), "redis-cli")
            assert td.docker(*redis_cli, "SET", "mha-compose-probe", PROJECT).stdout.strip() == "OK"
            stack.run("stop", "-t", "2", "redis")
            student.get_by_text(STORE_DOWN).first.wait_for(timeout=FOLLOW_TIMEOUT)
            _set_h(teacher, 2)  # the console's own settings still answer
            teacher.get_by_text(STORE_DOWN).first.wait_for(timeout=FOLLOW_TIMEOUT)
            other.get_by_role("button", name="Explore on my own").click()
            wait_idle(other)
            if other.locator("[data-testid='stExpandSidebarButton']").is_visible():  # a follower's sidebar is folded
                other.locator("[data-testid='stExpandSidebarButton']").first.click()
                wait_idle(other)
            _set_h(other, 16)  # a student's own app answers too (a value their page never showed: exploring)
            assert other.evaluate(HEAD_TILES) == 16
            student.wait_for_timeout(2000)
            assert student.evaluate(HEAD_TILES) == 4  # no room to follow: the student keeps what they had
            _shot(teacher, "4-teacher-redis-down")
            _shot(student, "5-student-redis-down")

            # Redis is back (its append-only file kept the room): the class picks up again by itself
            stack.run("start", "redis")
            _healthy(stack, "redis")
            # the append-only file on the volume kept what was written (the app may already have written again)
            assert td.docker(*redis_cli, "GET", "mha-compose-probe").stdout.strip() == PROJECT
            # the console's change made while the store was down (h = 2) reaches the class by itself
            t0 = time.monotonic()
            student.wait_for_function(f"() => ({HEAD_TILES})() === 2", timeout=FOLLOW_TIMEOUT * 2)
            print(f"after Redis came back the student had the change made meanwhile in {time.monotonic() - t0:.1f} s")
            student.get_by_text(STORE_DOWN).first.wait_for(state="detached", timeout=FOLLOW_TIMEOUT * 2)
            t0 = time.monotonic()
            _set_h(teacher, 8)
            student.wait_for_function(f"() => ({HEAD_TILES})() === 8", timeout=FOLLOW_TIMEOUT * 2)
            print(f"after Redis came back the student followed the next change in {time.monotonic() - t0:.1f} s")
            wait_idle(student)
            assert student.get_by_text(STORE_DOWN).count() == 0
            student.get_by_text(f"Following the teacher · live class {code}").first.wait_for(timeout=FOLLOW_TIMEOUT)
            other.get_by_role("button", name="Back to the teacher").click()
            other.wait_for_function(f"() => ({HEAD_TILES})() === 8", timeout=FOLLOW_TIMEOUT)
            _shot(teacher, "6-teacher-redis-back")
            _shot(student, "7-student-redis-back")
            for page in (teacher, student, other):
                assert page.get_by_test_id("stException").count() == 0
        finally:
            browser.close()
    logs = stack.run("logs", "--no-color", "app1", "app2", check=False).stdout
    assert "Traceback" not in logs, logs[-3000:]


def _mib(usage: str) -> float:
    """docker stats' "123.4MiB / 23.5GiB" -> 123.4"""
    value = usage.split("/")[0].strip()
    for unit, factor in (("GiB", 1024.0), ("MiB", 1.0), ("KiB", 1 / 1024), ("B", 1 / 1024**2)):
        if value.endswith(unit):
            return float(value[: -len(unit)]) * factor
    raise ValueError(usage)


def test_after_the_class_both_replicas_are_healthy_and_within_their_memory_budget(stack):
    """The caches' byte budgets keep a server under 1.5 GB (explorer/ caches); after the live class above each
    replica is still healthy and under it. Printed: the memory of each service (docs/deploy.md)."""
    for service in ("app1", "app2", "redis", "nginx"):
        usage = td.docker("stats", "--no-stream", "--format", "{{.MemUsage}}", stack.container(service)).stdout
        print(f"\n{service}: {usage.strip()}", end="")
        if service.startswith("app"):
            health = td.docker("inspect", "-f", "{{.State.Health.Status}}", stack.container(service)).stdout
            assert health.strip() == "healthy" and _mib(usage) < 1536, (service, usage)
