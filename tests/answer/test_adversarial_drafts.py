"""Adversarial drafts (tests/answer/adversarial_drafts.py) through the real engine, with the LLM
pointed at the OpenAI-compatible test server: no bad draft may reach a user, and the checks
may reject at most 10 % of the correct ones. Figures: test-output/adversarial-drafts.json."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from assistant.answer.generation import VLLMGenerator, renumber
from assistant.corpus.catalog import Catalog
from assistant.llm.client import ChatClient
from assistant.pipeline import Pipeline, build_engine
from assistant.settings import ROOT, Settings
from tests.answer.adversarial_drafts import CONTEXT, DRAFTS, Draft
from tests.openai_server import Reply, default_reply, openai_server

pytestmark = pytest.mark.slow
MAX_GOOD_REJECTED = 0.10
# the sources the prompt lists: glossary entries by slug, spec sheets as «gpu-<id>»
_LISTED = re.compile(r"^\[(\d+)\] .*?\(/(glossary|gpus)/([a-z0-9-]+)\):", re.MULTILINE)


def test_the_corpus_covers_every_kind_of_lie() -> None:
    kinds = Counter(d.kind for d in DRAFTS)
    assert len(DRAFTS) >= 60
    assert kinds["good"] >= 20
    digits = ("moved", "unit", "entity", "rounded", "citation", "outside", "headline")
    claims = ("words", "relative", "uncited", "unbacked", "alias", "markup", "hidden")
    for kind in digits + claims:
        assert kinds[kind] >= 2, kind
    assert {d.question for d in DRAFTS} == set(CONTEXT)


def _pipeline(settings: Settings, catalog: Catalog, retriever: Any, base_url: str) -> Pipeline:
    s = settings.model_copy(
        update={"llm_base_url": base_url, "llm_model": "test", "llm_timeout_s": 5.0}
    )
    llm = VLLMGenerator(ChatClient(s), s.prompts_dir)
    return Pipeline(build_engine(s, retriever, catalog, llm), s)


def test_no_bad_draft_is_delivered_and_few_good_ones_are_rejected(
    settings: Settings, catalog: Catalog, retriever: Any
) -> None:
    current: dict[str, str] = {}

    def model(request: dict[str, Any]) -> Reply | str:
        if request.get("tools") or request.get("response_format"):
            return default_reply(request)  # tool filling, condensation: a well-behaved model
        return current["draft"]  # the same draft again when the engine asks for another

    rows = []
    with openai_server(reply=model) as srv:
        pipeline = _pipeline(settings, catalog, retriever, srv.base_url)
        for draft in DRAFTS:
            current["draft"] = draft.text
            answer = pipeline.answer(draft.question)
            prompt = srv.chat_requests()[-1].body["messages"][-1]["content"]
            listed = tuple(
                slug if kind == "glossary" else f"gpu-{slug}"
                for _, kind, slug in _LISTED.findall(prompt)
            )
            assert listed == CONTEXT[draft.question], (draft.question, listed)
            rows.append(_row(draft, answer.generator == "vllm", answer.meta))
            if answer.generator == "vllm":
                # delivered as written (markers renumbered by first use), nothing appended
                assert answer.answer == renumber(draft.text, len(listed))[0]
    report = _report(rows)
    _record(report)
    print(
        f"\nadversarial drafts: {report['bad_delivered']}/{report['bad']} bad delivered, "
        f"{report['good_rejected']}/{report['good']} good rejected"
    )
    assert report["bad_delivered_examples"] == []
    assert report["good_rejected"] <= MAX_GOOD_REJECTED * report["good"], report[
        "good_rejected_examples"
    ]


def _row(draft: Draft, delivered: bool, meta: Any) -> dict[str, Any]:
    return {
        "question": draft.question,
        "kind": draft.kind,
        "good": draft.good,
        "delivered": delivered,
        "reason": meta.fallback_reason,
        "detail": meta.fallback_detail,
        "draft": draft.text,
    }


def _report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    bad = [r for r in rows if not r["good"]]
    good = [r for r in rows if r["good"]]
    leaked = [r for r in bad if r["delivered"]]
    rejected = [r for r in good if not r["delivered"]]
    return {
        "drafts": len(rows),
        "bad": len(bad),
        "bad_delivered": len(leaked),
        "good": len(good),
        "good_rejected": len(rejected),
        "reasons": dict(Counter(r["reason"] for r in bad)),
        "by_kind": dict(Counter(r["kind"] for r in bad)),
        "bad_delivered_examples": leaked,
        "good_rejected_examples": rejected,
    }


def _record(report: dict[str, Any]) -> None:
    out = ROOT / "test-output" / "adversarial-drafts.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", "utf-8")
