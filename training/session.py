"""One student's lab: the trainers they ran (a small cache), the one on screen, and whether it is running.

Plain Python (the page keeps one Lab in st.session_state), so each student has their own models and at
most one training going at a time. A click starts a new run of the page at once while the previous run is still
inside `advance` (Streamlit's fast reruns: the old script thread stops at its next Streamlit call), so two threads
can reach the same Lab: whoever trains or stops the trainer holds the lab's lock, and the other waits for it (at most
one chunk of steps) instead of reading a trainer that is being changed.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from .trainer import TrainConfig, Trainer

MAX_CACHED = 4  # finished trainers kept per session (a few hundred kB each)
LOCK_WAIT = 30.0  # seconds to wait for a previous run's chunk of steps (a fraction of a second) before giving up


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
        """Stop the training: a previous run still training ends after its chunk, and the trainer records the step
        it stopped at once that chunk is done (under the lock, so nothing reads a half-recorded evaluation)."""
        was_running, self.running = self.running, False
        if self.current is None or not was_running or not self.lock.acquire(timeout=LOCK_WAIT):
            return
        try:
            self.current.stop()
        finally:
            self.lock.release()

    def advance(self, seconds: float, chunk: int = 10) -> bool:
        """Train the current run for about `seconds` (whole chunks of steps), after a previous run of the page has
        finished its chunk. False when that run still holds the lab after LOCK_WAIT seconds."""
        if not self.running or self.current is None:
            return True
        if not self.lock.acquire(timeout=LOCK_WAIT):
            return False
        try:
            deadline = time.perf_counter() + seconds
            while self.running and not self.current.done and time.perf_counter() < deadline:
                self.current.run(chunk)
            if self.current.done:
                self.running = False
            return True
        finally:
            self.lock.release()
