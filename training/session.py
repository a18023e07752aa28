"""One student's lab: the trainers they ran (a small cache), the one on screen, and whether it is running.

Plain Python (the page keeps one Lab in st.session_state), so each student has their own models and at
most one training going at a time: `advance` takes the lab's lock without waiting, and gives up when a
previous run of the same session still holds it.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from .trainer import TrainConfig, Trainer

MAX_CACHED = 4  # finished trainers kept per session (a few hundred kB each)


class Lab:
    def __init__(self) -> None:
        self.runs: OrderedDict[TrainConfig, Trainer] = OrderedDict()
        self.current: Trainer | None = None
        self.running = False
        self.run_number = 0  # counts trainings started: keys the widgets of one run's results
        self.example_number = 0  # which fresh example the final model is shown on
        self.from_cache = False  # the run on screen came from the cache, not from a new training
        self.lock = threading.Lock()

    def start(self, config: TrainConfig) -> bool:
        """Show `config`'s run: a finished one from the cache, else a new trainer that `advance` trains.
        Returns True when training has to run."""
        cached = self.runs.get(config)
        self.run_number += 1
        self.example_number = 0
        if cached is not None and cached.done and not cached.stopped:
            self.runs.move_to_end(config)
            self.current, self.running, self.from_cache = cached, False, True
            return False
        self.current, self.running, self.from_cache = Trainer(config), True, False
        self.runs[config] = self.current
        while len(self.runs) > MAX_CACHED:
            self.runs.popitem(last=False)
        return True

    def stop(self) -> None:
        if self.current is not None and self.running:
            self.current.stop()
        self.running = False

    def advance(self, seconds: float, chunk: int = 10) -> bool:
        """Train the current run for about `seconds` (whole chunks of steps). False when the lab is busy."""
        if not self.running or self.current is None:
            return True
        if not self.lock.acquire(blocking=False):
            return False
        try:
            deadline = time.perf_counter() + seconds
            while not self.current.done and time.perf_counter() < deadline:
                self.current.run(chunk)
            if self.current.done:
                self.running = False
            return True
        finally:
            self.lock.release()
