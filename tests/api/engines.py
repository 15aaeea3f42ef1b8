"""Engines wrapping the real pipeline (composition, not patching): they count answers in flight,
hold one question until released, or fail the way a broken engine would."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from assistant.corpus.catalog import Catalog
from assistant.corpus.glossary import Glossary
from assistant.schema import Answer, StreamEvent, Turn


class Wrapped:
    """The real pipeline behind the app's protocol; subclasses override `answer` (their stream
    goes through it too)."""

    def __init__(self, pipeline: Any) -> None:
        self.pipeline = pipeline

    @property
    def glossary(self) -> Glossary:
        glossary: Glossary = self.pipeline.glossary
        return glossary

    @property
    def catalog(self) -> Catalog:
        catalog: Catalog = self.pipeline.catalog
        return catalog

    def turns_for(self, message: str, answer: Answer) -> tuple[Turn, Turn]:
        turns: tuple[Turn, Turn] = self.pipeline.turns_for(message, answer)
        return turns

    def ready(self) -> dict[str, Any]:
        status: dict[str, Any] = self.pipeline.ready()
        return status

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        answer: Answer = self.pipeline.answer(message, history)
        return answer

    def stream(self, message: str, history: Sequence[Turn] = ()) -> Iterator[StreamEvent]:
        answer = self.answer(message, history)
        yield StreamEvent(kind="delta", text=answer.answer)
        yield StreamEvent(kind="done", answer=answer)


class InFlight(Wrapped):
    """Counts how many answers run at once."""

    def __init__(self, pipeline: Any, hold_s: float = 0.02) -> None:
        super().__init__(pipeline)
        self.now, self.peak, self.calls, self.hold_s = 0, 0, 0, hold_s
        self.lock = threading.Lock()

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        with self.lock:
            self.now += 1
            self.calls += 1
            self.peak = max(self.peak, self.now)
        try:
            time.sleep(self.hold_s)  # long enough for the other requests to be waiting
            return super().answer(message, history)
        finally:
            with self.lock:
                self.now -= 1


class Gate(Wrapped):
    """Answers to `held` wait until `release()`; `entered` is set once such an answer started."""

    def __init__(self, pipeline: Any, held: str) -> None:
        super().__init__(pipeline)
        self.held = held
        self.entered = threading.Event()
        self._open = threading.Event()
        self.order: list[str] = []

    def release(self) -> None:
        self._open.set()

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        if message.strip() == self.held:
            self.entered.set()
            if not self._open.wait(30):
                raise TimeoutError("the test never released the gate")
        self.order.append(message.strip())
        return super().answer(message, history)


class Failing(Wrapped):
    """Raises `error` for the question `fails_on`; answers everything else for real."""

    def __init__(self, pipeline: Any, fails_on: str, error: Exception) -> None:
        super().__init__(pipeline)
        self.fails_on, self.error = fails_on, error

    def answer(self, message: str, history: Sequence[Turn] = ()) -> Answer:
        if message.strip() == self.fails_on:
            raise self.error
        return super().answer(message, history)
