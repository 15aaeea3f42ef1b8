"""LLM calls → fail fast and end in time: a consecutive-failure circuit breaker and a
whole-answer deadline whose watchdog cuts a connection that is still sending when it passes.

    breaker = Breaker(threshold=3, reset_s=30.0, clock=time.monotonic)
    breaker.acquire()          # raises LLMCircuitOpenError while open (no network touched)
    breaker.success() / .failure() / .release()
    deadline = Deadline(20.0)  # deadline.remaining(), .check(url), .error(url)
    with deadline.watching(response): ...   # a blocked read returns when the deadline passes
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

import httpx

from assistant.errors import LLMCircuitOpenError, LLMTimeoutError

log = logging.getLogger("assistant.llm.client")  # one logger for the LLM client's events


class Breaker:
    """Consecutive-failure circuit breaker: closed → open (reset_s) → half-open (one trial)."""

    def __init__(self, threshold: int, reset_s: float, clock: Callable[[], float]) -> None:
        self._threshold = max(1, threshold)
        self._reset_s = reset_s
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._trial_in_flight = False

    def _cooled(self) -> bool:
        return self._opened_at is not None and self._clock() - self._opened_at >= self._reset_s

    @property
    def would_allow(self) -> bool:
        with self._lock:
            return self._opened_at is None or (self._cooled() and not self._trial_in_flight)

    def acquire(self) -> None:
        """Let a call through or raise LLMUnavailableError at once (no network touched)."""
        with self._lock:
            if self._opened_at is None:
                return
            if self._cooled() and not self._trial_in_flight:
                self._trial_in_flight = True  # half-open: this call is the one trial
                return
        raise LLMCircuitOpenError("LLM circuit breaker is open")

    def success(self) -> None:
        with self._lock:
            self._failures = 0
            self._opened_at = None
            self._trial_in_flight = False

    def release(self) -> None:
        """Give up a half-open trial without a verdict (the call failed for a local reason)."""
        with self._lock:
            self._trial_in_flight = False

    def failure(self) -> None:
        with self._lock:
            self._failures += 1
            if self._trial_in_flight or self._failures >= self._threshold:
                if self._opened_at is None or self._trial_in_flight:
                    log.warning("LLM circuit breaker opens for %.1f s", self._reset_s)
                self._opened_at = self._clock()
            self._trial_in_flight = False


class Deadline:
    """The time budget of one whole answer (connect, first byte and every chunk included)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.fired = False  # the watchdog cut the connection

    def remaining(self) -> float:
        return self.at - time.monotonic()

    @property
    def passed(self) -> bool:
        return self.fired or self.remaining() <= 0

    def error(self, url: object) -> LLMTimeoutError:
        return LLMTimeoutError(f"LLM answer exceeded its {self.seconds:g} s deadline at {url}")

    def check(self, url: object) -> None:
        if self.passed:
            raise self.error(url)

    @contextmanager
    def watching(self, response: httpx.Response) -> Iterator[None]:
        """Shut the response's socket when the deadline passes: a blocked read returns at once
        (a read timeout alone restarts with every chunk that arrives)."""
        sock = _socket_of(response)
        timer = None
        if sock is not None:
            timer = threading.Timer(max(0.0, self.remaining()), self._cut, args=(sock,))
            timer.daemon = True
            timer.start()
        try:
            yield
        finally:
            if timer is not None:
                timer.cancel()

    def _cut(self, sock: socket.socket) -> None:
        self.fired = True
        with suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def _socket_of(response: httpx.Response) -> socket.socket | None:
    stream = response.extensions.get("network_stream")
    try:
        sock = stream.get_extra_info("socket") if stream is not None else None
    except Exception:  # a transport without sockets (tests, proxies): checks between chunks
        return None
    return sock if isinstance(sock, socket.socket) else None
