"""Message + history → verified Answer: route, condense, retrieve, calculate, generate, check."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from assistant.answer.compose import Picked, SentenceBank, general_first, pick
from assistant.answer.generation import AnswerContext, EmbeddedGenerator, VLLMGenerator
from assistant.answer.guard import Guard
from assistant.parsing.text import words
from assistant.routing.router import Signals, signals, unknown_term, wants_calculation
from assistant.routing.scope import Scope, decide_scope
from assistant.routing.triage import handoff_answer, triage
from assistant.schema import Answer, AnswerMeta, Evidence, Route, ToolCall, Turn
from assistant.search.indexing import split_sentences
from assistant.search.retrieval import HybridRetriever, Retrieval
from assistant.settings import Settings

log = logging.getLogger(__name__)
REFUSING: frozenset[str] = frozenset({"out_of_scope", "injection", "not_found"})
SUPPORT_DELTA = 0.03  # sentence-score gap under which another top-3 entry joins an answer


class Engine:
    def __init__(
        self,
        settings: Settings,
        retriever: HybridRetriever,
        embedded: EmbeddedGenerator,
        llm: VLLMGenerator | None = None,
    ) -> None:
        self.settings = settings
        self.retriever = retriever
        self.glossary = retriever.glossary
        self.entries = self.glossary.by_slug()
        self.bank = SentenceBank(self.glossary.entries, retriever.index)
        self.embedded = embedded
        self.llm = llm
        self.guard = Guard(settings, self.glossary, embedded, llm)

    # -- routing ---------------------------------------------------------------------------

    def answer(self, message: str, history: list[Turn]) -> Answer:
        sig = signals(message)
        carried = _carried(history)
        if sig.injection:
            return self._fixed("injection", message, carried, refused=True)
        if sig.greeting:
            return self._fixed("greeting", message, carried, thanks=_is_thanks(message))
        if (handoff := triage(message)) is not None:  # refunds, outages, accounts: people decide
            return handoff_answer(handoff, message, carried, self.settings.prompts_dir)
        if sig.not_ours:  # other vendors' prices, stocks, contracts: never calculate or guess
            return self._fixed("out_of_scope", message, carried, refused=True)
        from assistant.tools.solve import solve

        outcome = solve(message, carried)
        if outcome.is_numeric and outcome.missing and outcome.tool:
            outcome = self._fill_with_llm(outcome, message, history, carried) or outcome
        args = outcome.arguments
        if wants_calculation(message, outcome.is_numeric, outcome.missing, args, bool(carried)):
            return self._numeric(message, history, outcome)
        question = self.condense(message, history, sig)
        retrieval = self.retriever.retrieve(question, k=6)
        if sig.counterpart:
            retrieval = self._without_subject(retrieval, message, history)
        scope = decide_scope(question, sig, retrieval, self.glossary)
        if not scope.in_scope:
            return self._outside(message, question, sig, retrieval, scope, carried)
        return self._explain(message, question, history, sig, retrieval, scope, carried)

    def _fill_with_llm(
        self, outcome: Any, message: str, history: list[Turn], carried: dict[str, Any]
    ) -> Any:
        """Offer the calculator to the LLM as a forced tool call; keep only what the user said."""
        if self.llm is None or not self.llm.client.available:
            return None
        from assistant.llm.assist import fill_arguments
        from assistant.tools.registry import get_tool
        from assistant.tools.solve import solve

        tool = get_tool(outcome.tool).openai()
        filled = fill_arguments(self.llm.client, self.settings.prompts_dir, tool, message, history)
        if not filled:
            return None
        retry = solve(message, {**carried, **outcome.params, **filled})
        return retry if retry.is_numeric and len(retry.missing) < len(outcome.missing) else None

    def condense(self, message: str, history: list[Turn], sig: Signals) -> str:
        """Make a follow-up self-contained: the LLM (JSON schema) if healthy, else the topic."""
        prev = next((t for t in reversed(history) if t.role == "assistant" and t.slugs), None)
        if prev is None or not sig.follow_up:
            return message
        if self.llm is not None and self.llm.client.available:
            from assistant.llm.assist import condense

            rewritten = condense(self.llm.client, self.settings.prompts_dir, message, history)
            if rewritten:
                return rewritten
        own = self.retriever.aliases.match(message)
        pronoun = any(w in _PRONOUNS for w in words(message))
        if own and not (pronoun or sig.comparison_cue):
            return message
        topic = [self.entries[s] for s in prev.slugs[:1] if s in self.entries]
        if not topic:
            return message
        if sig.counterpart:  # «а в pytorch есть что-то похожее?»: say what it should resemble
            return f"{message} ({topic[0].title}: {split_sentences(topic[0].text)[0]})"
        return f"{message} ({topic[0].title})"

    def _without_subject(
        self, retrieval: Retrieval, message: str, history: list[Turn]
    ) -> Retrieval:
        """«Аналог NVLink у AMD»: lead with the counterpart, keep the subject as support.

        The subject stays cited because its own text often names the counterpart
        («аналог у AMD — RCCL») even when the counterpart has no entry of its own.
        """
        subject = set(self.retriever.aliases.match(message))
        prev = next((t for t in reversed(history) if t.role == "assistant" and t.slugs), None)
        if prev is not None and not subject:
            subject = set(prev.slugs[:1])
        others = [h for h in retrieval.hits if h.slug not in subject]
        mine = [h for h in retrieval.hits if h.slug in subject]
        if not others or not mine or len(subject) > 1:
            return retrieval
        lead = others[0]
        support = replace(mine[0], score=lead.score - 0.01)
        return replace(retrieval, hits=[lead, support, *others[1:]])

    # -- routes ----------------------------------------------------------------------------

    def _fixed(self, route: Route, message: str, carried: dict[str, Any], **kw: Any) -> Answer:
        ctx = AnswerContext(
            route=route, message=message, question=message, thanks=kw.get("thanks", False)
        )
        meta = AnswerMeta(question=message, params=carried, confidence="high")
        text = self.embedded.generate(ctx)
        return Answer(
            answer=text,
            refused=kw.get("refused", False),
            route=route,
            generator="embedded",
            meta=meta,
        )

    def _outside(
        self,
        message: str,
        question: str,
        sig: Signals,
        retrieval: Retrieval,
        scope: Scope,
        carried: dict[str, Any],
    ) -> Answer:
        route: Route = "not_found" if scope.near_domain else "out_of_scope"
        nearest = (
            tuple(self.entries[h.slug] for h in retrieval.hits[:2]) if scope.near_domain else ()
        )
        term = (
            sig.defined_term
            if sig.defined_term and unknown_term(sig.defined_term, self.glossary)
            else ""
        )
        ctx = AnswerContext(
            route=route, message=message, question=question, entries=nearest, defined_term=term
        )
        meta = AnswerMeta(
            question=question,
            params=carried,
            slugs=[e.slug for e in nearest],
            confidence="low",
            handoff=True,
        )
        return self._finish(ctx, meta, refused=True)

    def _explain(
        self,
        message: str,
        question: str,
        history: list[Turn],
        sig: Signals,
        retrieval: Retrieval,
        scope: Scope,
        carried: dict[str, Any],
    ) -> Answer:
        slugs = general_first(scope.slugs, self.entries, message)  # «HBM» → HBM3e before HBM4
        route: Route = "comparison" if len(slugs) > 1 and scope.comparison else "term"
        if route == "term" and not (sig.defined_term and slugs[0] in retrieval.alias):
            slugs = self._supporting(slugs, retrieval, question)  # «что такое NVLink» stays focused
        seen = {s for t in history[-2:] if t.role == "assistant" for s in t.slugs}
        picked = self._pick(slugs, retrieval, question, comparison=route == "comparison", seen=seen)
        entries = tuple(p.entry for p in picked)
        ctx = AnswerContext(
            route=route,
            message=message,
            question=question,
            history=history,
            entries=entries,
            picked=picked,
        )
        meta = AnswerMeta(
            question=question, params=carried, slugs=list(slugs), confidence=scope.confidence
        )
        meta.evidence = [_evidence(p) for p in picked]
        return self._finish(ctx, meta)

    def _supporting(self, slugs: list[str], retrieval: Retrieval, question: str) -> list[str]:
        """Add a top-3 entry whose best sentence answers the question nearly as well as the
        main entry's best sentence: it earns one sentence and a citation."""
        best = self._best_sentence(slugs[0], retrieval, question)
        out = list(slugs)
        for hit in retrieval.hits[1:3]:
            if len(out) >= 3:
                break
            close = self._best_sentence(hit.slug, retrieval, question) >= best - SUPPORT_DELTA
            if hit.slug not in out and close:
                out.append(hit.slug)
        return out

    def _best_sentence(self, slug: str, retrieval: Retrieval, question: str) -> float:
        entry = self.entries[slug]
        scores = [sc for _, sc in self.bank.scores(entry, retrieval.vector, question)]
        return max(scores, default=0.0)

    def _pick(
        self,
        slugs: list[str],
        retrieval: Retrieval,
        question: str,
        *,
        comparison: bool,
        seen: set[str],
    ) -> tuple[Picked, ...]:
        """Sentences per entry; an entry just explained skips its definition (follow-ups)."""
        out = []
        for n, slug in enumerate(slugs, 1):
            entry = self.entries[slug]
            others = [name for s in slugs if s != slug for name in self.entries[s].names]
            fresh = slug not in seen
            limit = 2 if comparison or not fresh else (3 if n == 1 else 1)
            sents = pick(
                self.bank,
                entry,
                retrieval.vector,
                question,
                limit=limit,
                prefer=others,
                definition=fresh,
            )
            out.append(Picked(entry, n, tuple(sents)))
        return tuple(p for p in out if p.sentences)

    def _numeric(self, message: str, history: list[Turn], outcome: Any) -> Answer:
        route: Route = "clarify" if outcome.missing else "numeric"
        sources = tuple(self.entries[s] for s in outcome.related_slugs if s in self.entries)[:2]
        from assistant.tools.display import build_display

        calls = [
            ToolCall(
                name=r.tool,
                arguments=r.inputs,
                result=r.model_dump(),
                display=build_display(r, outcome.arguments, outcome.notes_ru),
            )
            for r in outcome.results
        ]
        ctx = AnswerContext(
            route=route,
            message=message,
            question=message,
            history=history,
            entries=sources,
            outcome=outcome,
        )
        meta = AnswerMeta(
            question=message,
            params=outcome.params,
            slugs=[e.slug for e in sources],
            confidence="high",
        )
        return self._finish(ctx, meta, tool_calls=calls)

    # -- generation and guarantees ---------------------------------------------------------

    def _finish(
        self,
        ctx: AnswerContext,
        meta: AnswerMeta,
        *,
        refused: bool = False,
        tool_calls: list[ToolCall] | None = None,
    ) -> Answer:
        text, citations, generator = self.guard.produce(ctx, meta)
        return Answer(
            answer=text,
            citations=citations,
            tool_calls=tool_calls or [],
            refused=refused,
            route=ctx.route,
            generator=generator,
            meta=meta,
        )

    def ready(self) -> dict[str, Any]:
        if self.llm is None:
            llm = "disabled"
        else:
            llm = "ok" if self.llm.client.available and self.llm.client.health() else "down"
        generator = "vllm" if llm == "ok" else "embedded"
        return {
            "index": self.retriever.index.vectors.ntotal > 0,
            "llm": llm,
            "generator": generator,
        }


_PRONOUNS = frozenset(
    (
        "его её ее их него неё нее них ним ней нём нем ними он она оно они это этот эта эти "
        "этого этой этим тот та там тут it its this that"
    ).split()
)


def _carried(history: list[Turn]) -> dict[str, Any]:
    prev = next((t for t in reversed(history) if t.role == "assistant"), None)
    return dict(prev.params) if prev else {}


def _is_thanks(message: str) -> bool:
    return message.strip().lower().startswith(("спасибо", "благодар", "спс", "thank"))


def _evidence(p: Picked) -> Evidence:
    return Evidence(
        slug=p.entry.slug, title=p.entry.title, url=p.entry.url, sentences=list(p.sentences)
    )
