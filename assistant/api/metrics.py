"""Requests and answers → Prometheus metrics in a per-app registry, exposed at GET /metrics."""

from __future__ import annotations

import time

from prometheus_client import CollectorRegistry, Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assistant.schema import FALLBACK_REASONS, Answer

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """All service metrics; one instance per app so tests can build many apps."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "assistant_http_requests_total",
            "HTTP requests by route template, method and status",
            ["route", "method", "status"],
            registry=r,
        )
        self.latency = Histogram(
            "assistant_http_request_duration_seconds",
            "Time to the last response byte, per route template",
            ["route"],
            buckets=_BUCKETS,
            registry=r,
        )
        self.answers = Counter(
            "assistant_answers_total",
            "Answers by route and generator",
            ["route", "generator"],
            registry=r,
        )
        self.fallbacks = Counter(
            "assistant_fallbacks_total",
            "Answers the embedded generator gave instead of the LLM, by reason code",
            ["reason"],
            registry=r,
        )
        self.refusals = Counter(
            "assistant_refusals_total", "Refused answers by route", ["route"], registry=r
        )
        self.grounding = Counter(
            "assistant_grounding_violations_total",
            "Grounding violations caught and repaired before answers left the engine",
            registry=r,
        )
        self.feedback = Counter(
            "assistant_feedback_total", "Feedback received", ["score"], registry=r
        )
        self.rate_limited = Counter(
            "assistant_rate_limited_total", "Requests refused with 429", registry=r
        )
        self.disconnects = Counter(
            "assistant_stream_disconnects_total", "Streams the client left early", registry=r
        )
        self.answer_failures = Counter(
            "assistant_answer_failures_total",
            "Questions the engine failed on with an untyped exception (answered with a 422)",
            registry=r,
        )

    def observe_answer(self, answer: Answer) -> None:
        meta = answer.meta
        self.answers.labels(answer.route, answer.generator).inc()
        if meta.fallback_reason:
            self.fallbacks.labels(fallback_label(meta.fallback_reason)).inc()
        if answer.refused:
            self.refusals.labels(answer.route).inc()
        if meta.grounding_violations:
            self.grounding.inc(meta.grounding_violations)

    def observe_feedback(self, score: int) -> None:
        self.feedback.labels("up" if score > 0 else "down").inc()

    def observe_failure(self) -> None:
        self.answer_failures.inc()


def fallback_label(reason: str) -> str:
    """The metric label of a fallback: one of the fixed codes, never free text (a label per
    distinct value is a new time series; draft text with numbers would be unbounded)."""
    return reason if reason in FALLBACK_REASONS else "other"


class MetricsMiddleware:
    """Counts every HTTP request and times it, labelled by route template (not raw path)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0
        failed = True

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
            failed = False
        finally:
            route = scope.get("route")
            label = getattr(route, "path", None) or "unmatched"
            # no response at all: the server's 500 after a failure, or 499 (nginx's «client
            # closed request») when the client left first and the route was cancelled
            code = str(status) if status else ("500" if failed else "499")
            self.metrics.requests.labels(label, scope["method"], code).inc()
            self.metrics.latency.labels(label).observe(time.perf_counter() - start)
            if status == 429:
                self.metrics.rate_limited.inc()
