"""Heavy pure-Python work in a few worker processes, so the server's interpreter lock stays free for light pages.

Streamlit runs every session in a thread of one process: a figure of 65,000 cells built and encoded to JSON is a
second or more of Python holding the GIL, and a light page of another user waits behind it even when a core is
idle (the heavy-build gate alone left /heads 2.8x slower with four heavy users). The same build in a worker
process runs on the other core; the session's thread only waits for the result, which releases the GIL.

`run(fn, *args, **kwargs)` calls fn in a worker when fn and its arguments can be sent there (a module-level
function of plain values and numpy arrays), otherwise in this process. At most `workers` processes (the gate's
slots: the gate already limits how many heavy builds run at once, so the pool never queues), started with
"spawn" (no copy of the server's threads and locks) on first use, and each gives its freed memory back to the
system after every call. MHA_OFFLOAD=0 turns it off.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import multiprocessing as mp
import os
import pickle
import threading
from collections.abc import Callable
from multiprocessing import popen_spawn_posix, spawn
from typing import Any

_LOCK = threading.RLock()
_POOL: list[cf.ProcessPoolExecutor] = []


def enabled() -> bool:
    return os.environ.get("MHA_OFFLOAD", "1") != "0"


def _call(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """In the worker: fn(*args, **kwargs), then the freed heap back to the system (the result is sent after)."""
    try:
        return fn(*args, **kwargs)
    finally:
        from .release import release_memory

        release_memory()


class _NoMainPopen(popen_spawn_posix.Popen):
    """Starts a worker without the parent's __main__: in a Streamlit server that is the app's script (Streamlit
    runs it as a module named __main__), which a spawned child would otherwise run again on start."""

    def _launch(self, process_obj: Any) -> None:
        real = spawn.get_preparation_data

        def without_main(name: str) -> dict:
            data = real(name)
            data.pop("init_main_from_path", None)
            data.pop("init_main_from_name", None)
            return data

        with _LOCK:  # only this module starts processes in the server; the patch lasts for one start
            spawn.get_preparation_data = without_main
            try:
                super()._launch(process_obj)
            finally:
                spawn.get_preparation_data = real


class _Process(mp.context.SpawnProcess):
    @staticmethod
    def _Popen(process_obj: Any) -> _NoMainPopen:
        return _NoMainPopen(process_obj)


class _Context(mp.context.SpawnContext):
    Process = _Process


def _pool(workers: int) -> cf.ProcessPoolExecutor:
    with _LOCK:
        if not _POOL:
            _POOL.append(cf.ProcessPoolExecutor(max_workers=workers, mp_context=_Context()))
            atexit.register(shutdown, wait=True)  # before the interpreter tears modules down under the pool
        return _POOL[0]


def _drop_pool(wait: bool = False) -> None:
    with _LOCK:
        if _POOL:
            _POOL.pop().shutdown(wait=wait, cancel_futures=True)


def run(fn: Callable[..., Any], *args: Any, workers: int = 1, **kwargs: Any) -> Any:
    """fn(*args, **kwargs) in a worker process when possible; in this thread otherwise (or if a worker died)."""
    if not enabled():
        return fn(*args, **kwargs)
    try:
        pickle.dumps(fn)  # a module-level function goes by name; a lambda or closure cannot go at all
    except (pickle.PicklingError, AttributeError, TypeError):
        return fn(*args, **kwargs)
    try:
        future = _pool(workers).submit(_call, fn, args, kwargs)
        return future.result()
    except cf.process.BrokenProcessPool:  # a worker was killed (memory?): a new pool next time, this one here
        _drop_pool()
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        if "pickle" not in str(exc).lower():
            raise
    return fn(*args, **kwargs)


def shutdown(wait: bool = False) -> None:
    """Stop the workers (tests, and at exit)."""
    _drop_pool(wait)
