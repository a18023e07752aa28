"""A real redis-server (Debian's package) on a free port, for the live-class tests and the benchmark."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from tests.browser import free_port

REDIS_SERVER = shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists()
                                                 else None)  # fmt: skip


def start_redis(port: int, data_dir: Path) -> subprocess.Popen:
    """redis-server on 127.0.0.1:port with an append-only file in data_dir (so a restart keeps the rooms)."""
    import redis

    assert REDIS_SERVER, "redis-server is not installed"
    proc = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
         "--dir", str(data_dir), "--daemonize", "no", "--protected-mode", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = redis.Redis(port=port, socket_timeout=0.5, socket_connect_timeout=0.5)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            return proc
        except redis.exceptions.RedisError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start") from None
            time.sleep(0.05)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def redis_server(data_dir: Path) -> Iterator[tuple[str, subprocess.Popen, int]]:
    port = free_port()
    proc = start_redis(port, data_dir)
    try:
        yield f"redis://127.0.0.1:{port}/0", proc, port
    finally:
        stop(proc)
