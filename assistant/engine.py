"""Message + history → verified Answer: route, condense, retrieve, calculate, generate, check."""

from __future__ import annotations

import logging
from dataclasses import dataclass, fields, replace
from typing import Any

from assistant.answer.calculations.questions import notes
from assistant.answer.compose import Picked, SentenceBank, general_first, pick
from assistant.answer.edges import handoff_answer, no_throughput_figure, safe_answer
from assistant.answer.generation import AnswerContext, EmbeddedGenerator, LLMGenerator
from assistant.answer.guard import Guard
from assistant.corpus.catalog import Catalog
from assistant.errors import UNAVAILABLE
from assistant.numeric import Calculations
from assistant.schema import Answer, AnswerMeta, Evidence, Route, ToolCall, Turn
from assistant.search.retrieval import Retrieval, Retriever
from assistant.search.scope import Scope, decide_scope
from assistant.settings import Settings
from assistant.text.sentences import split_sentences
from assistant.text.tokens import Tokens, tokenize
from assistant.understanding.calculation import Outcome
from assistant.understanding.gate import wants_calculation
from assistant.understanding.params import Params
from assistant.understanding.reader import ParsedMessage, Reader
from assistant.understanding.thread import unthread
from assistant.understanding.triage import triage
from assistant.understanding.vocabulary import Vocabulary

log = logging.getLogger(__name__)
SUPPORT_DELTA = 0.03  # sentence-score gap under which another top-3 entry joins an answer


@dataclass(frozen=True)
class Request:
    """One message on its way through the engine: read once, with the conversation so far."""

    message: ParsedMessage
    history: list[Turn]
    carried: Params  # the previous answer's numeric parameters

    @property
    def text(self) -> str:
        return self.message.text

    def searched(self, question: Tokens, retrieval: Retrieval, scope: Scope) -> Searched:
        mine = {f.name: getattr(self, f.name) for f in fields(Request)}
        return Searched(**mine, question=question, retrieval=retrieval, scope=scope)


@dataclass(frozen=True)
class Searched(Request):
    """A request the glossary was searched for: the question asked, the evidence, the scope."""

    question: Tokens  # self-contained (a follow-up is condensed), read
    retrieval: Retrieval
    scope: Scope


class Engine:
    def __init__(
        self,
        settings: Settings,
        retriever: Retriever,
        embedded: EmbeddedGenerator,
        llm: LLMGenerator | None = None,
        *,
        catalog: Catalog,
    ) -> None:
        self.settings = settings
        self.retriever = retriever
        self.glossary = retriever.glossary
        self.entries = self.glossary.by_slug()
        self.bank = SentenceBank(self.glossary.entries, retriever.index)
        self.vocabulary = Vocabulary(self.glossary, catalog)
        self.reader = Reader(catalog, terms=retriever.aliases)
        self.calculations = Calculations(catalog, self.reader)
        self.embedded = embedded
        self.llm = llm
        self.guard = Guard(settings, self.glossary, catalog, embedded, llm)

    # -- routing ---------------------------------------------------------------------------

    def answer(self, message: str, history: list[Turn]) -> Answer:
        """Never raises on what a person wrote: a bug while understanding a message is logged
        and answered with a safe Russian request to rephrase. Only an unavailable index, model
        or LLM (the service's own state) propagates, for the channel to report."""
        try:
            return self._answer(message, history)
        except UNAVAILABLE:
            raise
        except Exception:
            log.exception("could not understand a message of %d characters", len(message))
            return safe_answer(message)

    def _answer(self, message: str, history: list[Turn]) -> Answer:
        message, history = unthread(message, history)
        req = Request(self.reader.read(message), history, self._carried(history))
        sig = req.message.signals
        if sig.injection:
            return self._fixed("injection", req, refused=True)
        if sig.greeting:
            return self._fixed("greeting", req, thanks=sig.thanks)
        if (handoff := triage(req.text)) is not None:  # refunds, outages, accounts: people decide
            return handoff_answer(
                handoff, req.text, req.carried.stored(), self.settings.prompts_dir
            )
        if sig.not_ours:  # other vendors' prices, stocks, contracts: never calculate or guess
            return self._fixed("out_of_scope", req, refused=True)
        outcome = self._calculate(req)
        if outcome is not None and (
            outcome.rejected
            or wants_calculation(
                req.message,
                True,
                list(outcome.missing),
                outcome.arguments.stored(),
                bool(req.carried),
            )
        ):
            return self._numeric(req, outcome)
        searched = self._search(req)
        if not searched.scope.in_scope:
            return self._outside(searched)
        return no_throughput_figure(self._explain(searched), req.message)

    def _carried(self, history: list[Turn]) -> Params:
        """The previous answer's parameters; a history of text only (a pasted support thread,
        an OpenAI-style client) has none, so the customer's turns are read again in order."""
        if any(t.role == "assistant" and t.params for t in history):
            return _carried(history)
        state = Params()
        for turn in history:
            if turn.role != "user":
                continue
            outcome = self._compute(self.reader.read(turn.content), state)
            if outcome is not None and not outcome.rejected:
                state = outcome.params
        return state

    def _compute(self, message: ParsedMessage, carried: Params) -> Outcome | None:
        plan = self.calculations.plan(message, carried)
        return None if plan is None else self.calculations.compute(plan)

    def _calculate(self, req: Request) -> Outcome | None:
        outcome = self._compute(req.message, req.carried)
        if outcome is not None and outcome.missing:
            return self._fill_with_llm(outcome, req) or outcome
        return outcome

    def _fill_with_llm(self, outcome: Outcome, req: Request) -> Outcome | None:
        """Offer the calculator to the LLM as a forced tool call; keep only what the user said."""
        if self.llm is None or not self.llm.available:
            return None
        tool = self.calculations.get(outcome.tool).openai()
        filled = self.llm.fill_arguments(tool, req.message, req.history)
        if not filled:
            return None
        state = req.carried.merged(outcome.params).merged(Params.of(filled))
        retry = self._compute(req.message, state)
        return retry if retry is not None and len(retry.missing) < len(outcome.missing) else None

    def _search(self, req: Request) -> Searched:
        text = self.condense(req)
        own = text == req.text
        question = req.message.tokens if own else tokenize(text)
        message = req.message
        retrieval = self.retriever.retrieve(
            text,
            k=6,
            named=message.terms if own else None,
            defined=message.defined if own else None,
        )
        if req.message.signals.counterpart:
            retrieval = self._without_subject(retrieval, req)
        scope = decide_scope(req.message, question, retrieval, self.vocabulary)
        return req.searched(question, retrieval, scope)

    def condense(self, req: Request) -> str:
        """Make a follow-up self-contained: the LLM (JSON schema) if healthy, else the topic."""
        message, sig = req.text, req.message.signals
        prev = _previous_topic(req.history)
        if prev is None or not sig.follow_up:
            return message
        if self.llm is not None and self.llm.available:
            rewritten = self.llm.condense(req.message, req.history)
            if rewritten:
                return rewritten
        own = req.message.terms
        pronoun = any(w in _PRONOUNS for w in req.message.words)
        if own and not (pronoun or sig.comparison_cue):
            return message
        topic = [self.entries[s] for s in prev.slugs[:1] if s in self.entries]
        if not topic:
            return message
        if sig.counterpart:  # «а в pytorch есть что-то похожее?»: say what it should resemble
            return f"{message} ({topic[0].title}: {split_sentences(topic[0].text)[0]})"
        return f"{message} ({topic[0].title})"

    def _without_subject(self, retrieval: Retrieval, req: Request) -> Retrieval:
        """«Аналог NVLink у AMD»: lead with the counterpart, keep the subject as support.

        The subject stays cited because its own text often names the counterpart
        («аналог у AMD — RCCL») even when the counterpart has no entry of its own.
        """
        subject = set(req.message.terms)
        prev = _previous_topic(req.history)
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

    def _fixed(
        self, route: Route, req: Request, *, refused: bool = False, thanks: bool = False
    ) -> Answer:
        ctx = AnswerContext(route=route, message=req.text, question=req.text, thanks=thanks)
        meta = AnswerMeta(question=req.text, params=req.carried.stored(), confidence="high")
        return Answer(
            answer=self.embedded.generate(ctx),
            refused=refused,
            route=route,
            generator="embedded",
            meta=meta,
        )

    def _outside(self, req: Searched) -> Answer:
        scope = req.scope
        route: Route = "not_found" if scope.near_domain else "out_of_scope"
        nearest = (
            tuple(self.entries[h.slug] for h in req.retrieval.hits[:2]) if scope.near_domain else ()
        )
        term = req.message.signals.defined_term if scope.unknown_term else ""
        ctx = AnswerContext(
            route=route,
            message=req.text,
            question=req.question.text,
            entries=nearest,
            defined_term=term,
        )
        meta = AnswerMeta(
            question=req.question.text,
            params=req.carried.stored(),
            slugs=[e.slug for e in nearest],
            confidence="low",
            handoff=True,
        )
        return self._finish(ctx, meta, refused=True)

    def _explain(self, req: Searched) -> Answer:
        nearby = [h.slug for h in req.retrieval.hits[:3]]
        slugs = general_first(req.scope.slugs, self.entries, req.text, nearby)  # «HBM» → HBM3e
        retrieval, question = req.retrieval, req.question.text
        route: Route = "comparison" if len(slugs) > 1 and req.scope.comparison else "term"
        if route == "term" and not (
            req.message.signals.defined_term and slugs[0] in retrieval.alias
        ):
            slugs = self._supporting(slugs, retrieval, question)  # «что такое NVLink» stays focused
        seen = {s for t in req.history[-2:] if t.role == "assistant" for s in t.slugs}
        picked = self._pick(slugs, retrieval, question, comparison=route == "comparison", seen=seen)
        ctx = AnswerContext(
            route=route,
            message=req.text,
            question=question,
            history=req.history,
            entries=tuple(p.entry for p in picked),
            picked=picked,
        )
        meta = AnswerMeta(
            question=question,
            params=req.carried.stored(),
            slugs=list(slugs),
            confidence=req.scope.confidence,
        )
        meta.evidence = [_evidence(p) for p in picked]
        answer = self._finish(ctx, meta)
        if req.scope.unknown_term and req.message.signals.defined_term and not req.message.defined:
            # «что такое DoRA — это разновидность лоры?»: LoRA is explained, DoRA is not ours
            note = self.embedded.unknown_note(req.message.signals.defined_term)
            # refused: what was asked about has no entry (the agent page says so, not the LLM)
            update = {"answer": f"{note}\n\n{answer.answer}", "refused": True}
            return answer.model_copy(update=update)
        return answer

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

    def _numeric(self, req: Request, outcome: Outcome) -> Answer:
        route: Route = "clarify" if outcome.missing or outcome.rejected else "numeric"
        sources = tuple(self.entries[s] for s in outcome.related_slugs if s in self.entries)[:2]
        read = notes(outcome.plan)
        calls = [
            ToolCall(
                name=r.tool,
                arguments=r.inputs,
                result=r.model_dump(),
                display=self.calculations.display(r, outcome.arguments.present(), read),
            )
            for r in outcome.results
        ]
        ctx = AnswerContext(
            route=route,
            message=req.text,
            question=req.text,
            history=req.history,
            entries=sources,
            outcome=outcome,
            tool_text=self.calculations.text(outcome),
        )
        meta = AnswerMeta(
            question=req.text,
            params=outcome.params.stored(),
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
        llm = "disabled" if self.llm is None else "ok" if self.llm.healthy() else "down"
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


def _previous_topic(history: list[Turn]) -> Turn | None:
    """The last answer that cited entries: what a follow-up refers back to."""
    return next((t for t in reversed(history) if t.role == "assistant" and t.slugs), None)


def _carried(history: list[Turn]) -> Params:
    prev = next((t for t in reversed(history) if t.role == "assistant"), None)
    return Params.of(prev.params) if prev else Params()


def _evidence(p: Picked) -> Evidence:
    return Evidence(
        slug=p.entry.slug, title=p.entry.title, url=p.entry.url, sentences=list(p.sentences)
    )
