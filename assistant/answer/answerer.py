"""Understanding (+ the calculation outcome or the glossary evidence) → Answer: every route's
reply, generated and verified (answer/guard.py).

    answerer.fixed("greeting", u)             small talk, refusals, injections: templates
    answerer.handoff(u)                       refunds, outages, accounts: a pointer to people
    answerer.numeric(u, outcome, history)     a calculation: display blocks, the tool's text
    answerer.outside(u, searched)             not in the glossary: say so, offer the nearest
    answerer.explain(u, searched, history)    a term or a comparison from the cited entries
    answerer.gpus / .provider                 a card's figures, FullGPU's own sentences (cards.py)
    answerer.problem(u, outcome, searched, …) a problem with figures: cause, remedies, entries
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from assistant.answer import causes, diagnosis, evidence, failures, leads
from assistant.answer.calculations.choice import BANDWIDTH, decided_by_bandwidth, sheets_stated
from assistant.answer.calculations.display import build_display
from assistant.answer.calculations.methods import method_reason
from assistant.answer.calculations.questions import notes
from assistant.answer.calculations.text import answer_text, uniform_verdict
from assistant.answer.cards import CardAnswers
from assistant.answer.compose import (
    Picked,
    SentenceBank,
    general_first,
    standalone,
    with_marker,
)
from assistant.answer.edges import handoff_answer
from assistant.answer.generation import AnswerContext, EmbeddedGenerator
from assistant.answer.guard import Guard
from assistant.answer.plain import plain
from assistant.answer.plans import (
    lacking_cause,
    lacks_link,
    speaks_for_provider,
    supported_pick,
)
from assistant.answer.specs import sheet_sentences, sheet_slug
from assistant.corpus.catalog import Catalog, Gpu
from assistant.corpus.glossary import Entry
from assistant.schema import Answer, AnswerMeta, Route, ToolCall, Turn
from assistant.search.lookup import Searched
from assistant.understanding.asks import Ask
from assistant.understanding.calculation import Outcome
from assistant.understanding.causes import Cause
from assistant.understanding.decide import Understanding

LEAD_SWITCH = 0.0  # how much better another entry's sentence must be to lead instead
# a fact from the second entry only when clearly better: the first is what was asked about
# (dev: at 0 the retrieval rows' answers opened with the gold entry 685 of 872 times, at 0.02
# 705 — 694 before facts were read in every case form — for 2 of 218 nugget leads)
FACT_SWITCH = 0.02
# a problem's cause: the best sentence past the definitions of the two best entries, the
# second's only when clearly better (dev: no margin read worse)
PROBLEM_ENTRIES = 2
PROBLEM_SWITCH = 0.02
# a named card's sheet lacking what the work needs leads a problem, and a choice between two
# terms («на H200 в fp4 квантовать или fp8?»: it does not compute FP4)
_LACKING = (Ask.problem, Ask.term_comparison)


def _all_experts(outcome: Outcome, catalog: Catalog) -> bool:
    """A mixture of experts that does not fit: every expert is held, not the active ones."""
    model = catalog.models.get(str(outcome.arguments.model or ""))
    first = outcome.results[0] if outcome.results else None
    if model is None or model.active_b is None or first is None:
        return False
    return first.values.get("verdict") in ("no", "tight") or first.values.get("fits") is False


def _lead_plan(
    u: Understanding, slugs: list[str], route: Route
) -> tuple[list[str], float, bool, bool] | None:
    """Per kind of question: (the entries the lead may come from, how much better a later
    entry's sentence must be, skip definitions, must name the other entry); None: no lead."""
    ask = u.reading.ask
    if ask is Ask.problem:  # out of memory is never the bandwidth's doing, however near
        pool = [s for s in slugs if not (u.reading.memory and s == BANDWIDTH)]
        # «учу на H100 в чистом fp32»: Hopper is there for the card, the cause is elsewhere
        pool = [s for s in pool if s not in u.message.implied] or pool
        return pool[:PROBLEM_ENTRIES], PROBLEM_SWITCH, True, False
    if ask in (Ask.fact, Ask.other):  # other: only the provider's own sentence (see _lead)
        return slugs[:2], FACT_SWITCH, False, False
    if ask is Ask.error_log:  # the entries that explain the pasted failure, else the top three
        explained = failures.explaining(u.message.failure) if u.message.failure else ()
        return slugs[: len([s for s in slugs if s in explained]) or 3], LEAD_SWITCH, True, False
    if route == "comparison" or ask is Ask.term_comparison:
        return slugs[:2], LEAD_SWITCH, False, True
    return None


class Answerer:
    def __init__(
        self,
        prompts_dir: Path,
        entries: dict[str, Entry],
        bank: SentenceBank,
        catalog: Catalog,
        embedded: EmbeddedGenerator,
        guard: Guard,
    ) -> None:
        self.prompts_dir = prompts_dir
        self.entries = entries
        self.bank = bank
        self.catalog = catalog
        self.embedded = embedded
        self.guard = guard
        self.cards = CardAnswers(entries, bank, catalog, self._finish)

    def fixed(self, route: Route, u: Understanding, *, refused: bool = False) -> Answer:
        text = u.message.text
        chat = u.message.signals.chat
        ctx = AnswerContext(route=route, message=text, question=text, chat=chat)
        meta = AnswerMeta(question=text, params=u.carried.stored(), confidence="high")
        return Answer(
            answer=self.embedded.generate(ctx),
            refused=refused,
            route=route,
            generator="embedded",
            meta=meta,
        )

    def handoff(self, u: Understanding) -> Answer:
        assert u.handoff is not None
        return handoff_answer(u.handoff, u.message.text, u.carried.stored(), self.prompts_dir)

    def numeric(self, u: Understanding, outcome: Outcome, history: list[Turn]) -> Answer:
        settled = bool(uniform_verdict(outcome))  # every precision gives the same verdict
        asks = (outcome.missing and not settled) or outcome.rejected
        route: Route = "clarify" if asks else "numeric"
        sources = tuple(self.entries[s] for s in outcome.related_slugs if s in self.entries)[:2]
        helps = diagnosis.stated_slugs(outcome)  # «с QLoRA — около 46 ГБ» cites QLoRA
        sources += tuple(
            self.entries[s]
            for s in helps[:2]
            if s in self.entries and s not in {e.slug for e in sources}
        )
        calls = self._calls(outcome, diagnosis.VARIED if outcome.remedies else ())
        text = u.message.text
        moe, then = self.entries.get("moe"), ""
        if moe is not None and _all_experts(outcome, self.catalog):  # «активно только 13B»
            sources = sources if moe in sources else (*sources, moe)
            then = with_marker(diagnosis.how_it_helps(moe), sources.index(moe) + 1)
        speed = u.message.signals.speed  # «нужен шустрый чат-бот»: bandwidth decides
        bandwidth = self.entries.get(BANDWIDTH)
        if bandwidth and decided_by_bandwidth(outcome.stated, self.catalog, speed):
            sources = sources if bandwidth in sources else (*sources, bandwidth)
        for gpu in sheets_stated(outcome.stated, self.catalog, speed):  # their figures' source
            sheet = self.entries.get(sheet_slug(gpu.id))
            if sheet is not None and sheet not in sources:
                sources = (*sources, sheet)
        reason = ""
        weighed = method_reason(outcome.stated, self.entries)  # «QLoRA … ценой скорости»
        if weighed is not None:
            entry, sentence = weighed
            sources = sources if entry in sources else (*sources, entry)
            reason = with_marker(standalone(entry, sentence), sources.index(entry) + 1)
        tool_text = answer_text(outcome, self.catalog, then, speed=speed, reason=reason)
        ctx = AnswerContext(
            route=route,
            message=text,
            question=text,
            history=history,
            entries=sources,
            outcome=outcome,
            tool_text=tool_text,
        )
        params = outcome.params.without("asked") if settled else outcome.params
        meta = AnswerMeta(
            question=text,
            params=params.stored(),
            slugs=[e.slug for e in sources],
            confidence="high",
        )
        return self._finish(ctx, meta, tool_calls=calls)

    def _calls(self, outcome: Outcome, varied: Iterable[str] = ()) -> list[ToolCall]:
        """A card per result the answer states; `varied`: parameters a remedy changed, shown
        on its card though the customer named none."""
        read = notes(outcome.plan)
        stated = [*outcome.arguments.present(), *varied]
        return [
            ToolCall(
                name=r.tool,
                arguments=r.inputs,
                result=r.model_dump(),
                display=build_display(r, self.catalog, stated, read),
            )
            for r in diagnosis.shown(outcome)
        ]

    def problem(
        self, u: Understanding, outcome: Outcome, searched: Searched, history: list[Turn]
    ) -> Answer:
        """«70B в BF16 не стартует на H100, OOM»: the calculation is the cause (the setup's
        need against the card), the lighter variants' figures what helps, the entries how."""
        stated = outcome.stated
        if outcome.rejected or not stated:
            return self.explain(u, searched, history)
        # «лора или сразу qlora? хочу без OOM»: options compared, a choice; a pasted log is
        # about the setup it came from («на 4090 у друга та же история» is no second option)
        if len(stated) > 1 and not u.message.log:
            return self.numeric(u, outcome, history)
        question = searched.question.text
        slugs = [s for s in diagnosis.remedy_slugs(stated[0], self.catalog) if s in self.entries]
        load = diagnosis.cache_outgrows(stated[0])  # «на 40 юзерах память кончается»
        helps = [(self.entries[s], self._how(s, searched, question, load)) for s in slugs[:3]]
        why = self._why(outcome, searched, question, slugs)  # «весам нужно параметры × байты»
        if why is not None:
            helps = [why, *helps]
        moe = self._experts_held(outcome)  # the cause of an MoE that does not fit: cited first
        if moe is not None:
            helps = [(moe, ""), *((e, x) for e, x in helps if e is not moe)]
        picked = tuple(
            Picked(e, n, (x,) if x else ()) for n, (e, x) in enumerate(helps, 1) if x or e is moe
        )
        experts = with_marker(diagnosis.how_it_helps(moe), 1) if moe is not None else ""
        fix = diagnosis.remedies(outcome, self.catalog)
        failure = u.message.failure  # «max seq len … larger than … KV cache»: the log first
        read = failures.reading(failure) if failure is not None else ""
        cause = (diagnosis.cause(stated[0]), experts)
        if u.message.signals.active:  # the log, if read, still comes first
            cause = cause[::-1]  # «активных же всего 13B»: every expert held is what they missed
        lead = tuple(x for x in (read, *cause, fix) if x)
        ctx = AnswerContext(
            route="term",
            message=u.message.text,
            question=question,
            history=history,
            entries=tuple(p.entry for p in picked),
            picked=picked,
            outcome=outcome,
            tool_text=" ".join(lead),
            lead=lead,
        )
        meta = AnswerMeta(
            question=question,
            params=outcome.params.stored(),
            slugs=[p.entry.slug for p in picked],
            confidence="high",
        )
        meta.evidence = [evidence.evidence(p) for p in picked]
        # the remedies' own parameters are shown on their cards, though the customer named none
        calls = self._calls(outcome, diagnosis.VARIED)
        return self._finish(ctx, meta, tool_calls=calls)

    def _experts_held(self, outcome: Outcome) -> Entry | None:
        """«mixtral 8x7b же активных всего 13b — почему не лезет?»: every expert is held in
        memory, not the active ones; the MoE entry's sentence is cited first, and leads when
        the customer argued from the active parameters."""
        moe = self.entries.get("moe")
        return moe if moe is not None and _all_experts(outcome, self.catalog) else None

    def _how(self, slug: str, searched: Searched, question: str, load: bool = False) -> str:
        """A remedy's sentence about memory; for the KV cache, which a long context or many
        requests make large, the sentence that answers the question (what it grows with);
        `load`: the cache outgrew the weights with many requests, the sentence saying so."""
        entry = self.entries[slug]
        if slug != diagnosis.CACHE:
            return diagnosis.how_it_helps(entry)
        if load and (grows := diagnosis.grows_with_load(entry)):
            return grows
        found = evidence.answering(
            self.bank, self.entries, [slug], searched.retrieval, question, past_definition=True
        )
        return standalone(entry, found[1]) if found else diagnosis.how_it_helps(entry)

    def _why(
        self, outcome: Outcome, searched: Searched, question: str, remedies: list[str]
    ) -> tuple[Entry, str] | None:
        """The entry that explains the calculation itself (VRAM's rule of thumb, the KV cache),
        when the search ranks it among its best: its sentence that answers the question."""
        ranked = [h.slug for h in searched.retrieval.hits[:3]]
        own = [s for s in outcome.related_slugs if s in ranked and s not in remedies]
        if not own or own[0] not in self.entries:
            return None
        found = evidence.answering(
            self.bank, self.entries, own[:1], searched.retrieval, question, past_definition=True
        )
        if not found:
            return None
        entry = self.entries[found[0]]  # said after the calculation: «Это…» must name its term
        return entry, standalone(entry, found[1])

    def gpus(self, u: Understanding, searched: Searched, history: list[Turn]) -> Answer:
        return self.cards.gpus(u, searched, history)

    def provider(self, u: Understanding, searched: Searched, history: list[Turn]) -> Answer | None:
        return self.cards.provider(u, searched, history)

    def outside(self, u: Understanding, searched: Searched, *, near: bool = False) -> Answer:
        """`near`: in the domain whatever the scope found («GB200 — сколько HBM?», a card with
        no sheet): the nearest entries are offered."""
        scope = searched.scope
        near = near or scope.near_domain
        route: Route = "not_found" if near else "out_of_scope"
        hits = searched.retrieval.hits[:2]
        nearest = tuple(self.entries[h.slug] for h in hits) if near else ()
        term = u.message.signals.defined_term if scope.unknown_term else ""
        question = searched.question.text
        ctx = AnswerContext(
            route=route,
            message=u.message.text,
            question=question,
            entries=nearest,
            defined_term=term,
        )
        meta = AnswerMeta(
            question=question,
            params=u.carried.stored(),
            slugs=[e.slug for e in nearest],
            confidence="low",
            handoff=True,
        )
        return self._finish(ctx, meta, refused=True)

    def explain(self, u: Understanding, searched: Searched, history: list[Turn]) -> Answer:
        message, scope, retrieval = u.message, searched.scope, searched.retrieval
        nearby = [h.slug for h in retrieval.hits[:3]]
        slugs = general_first(scope.slugs, self.entries, message.families, nearby)  # «HBM»
        question = searched.question.text
        # «DDP … всё равно OOM на каждой»: the cause the words name, in its entries' sentences
        said = causes.told(u.reading.cause, self.entries) if u.reading.cause else []
        own = list(dict.fromkeys(e.slug for e, _ in said))
        slugs = [*own, *(s for s in slugs if s not in own)][: max(3, len(own))] if own else slugs
        trouble = u.reading.ask in (Ask.problem, Ask.error_log)  # the cause, not a comparison
        failure = message.failure if u.reading.ask is Ask.error_log else None
        if failure is not None:  # the entries that explain what the log shows come first
            own = [s for s in failures.explaining(failure) if s in self.entries]
            slugs = [*own, *(s for s in slugs if s not in own)][: max(3, len(own))]
        route: Route = (
            "comparison" if len(slugs) > 1 and scope.comparison and not trouble else "term"
        )
        if route == "term" and not (message.signals.defined_term and slugs[0] in retrieval.alias):
            # «что такое NVLink» stays focused
            slugs = evidence.supporting(self.bank, self.entries, slugs, retrieval, question)
        # «генерит медленнее, чем ждали»: the bandwidth, unless the words name another cause
        slow = None if said else self.cards.slow_generation(u, searched, slugs)
        slugs = slow.slugs if slow is not None else slugs
        seen = {s for t in history[-2:] if t.role == "assistant" for s in t.slugs}
        found = slow.lead if slow and slow.lead else None
        if not said and found is None:
            found = self._lead(u, slugs, searched, question, route)
        if found is not None:  # the entry whose sentence leads is cited first
            slugs = [found[0], *(s for s in slugs if s != found[0])]
        picked = evidence.select(
            self.bank,
            self.entries,
            slugs,
            retrieval,
            question,
            comparison=route == "comparison",
            seen=seen,
        )
        if slow is not None and picked:
            picked, slugs = slow.placed(picked, slugs)
        lead: tuple[str, ...] = ()
        if found is None and route == "comparison" and len(picked) >= 2:
            # no sentence of one names the other: what each is, side by side, is the difference
            picked, lead = leads.side_by_side(self.bank, picked)
        if found is not None and picked and picked[0].entry.slug == found[0]:
            first = picked[0]
            rest = tuple(s for s in first.sentences if s != found[1])
            picked = (Picked(first.entry, first.number, rest), *picked[1:])
            lead = (with_marker(standalone(first.entry, found[1]), first.number),)
        named = [self.catalog.gpus[g] for g in message.gpus if g in self.catalog.gpus]
        if said:  # the cause, then what helps, each sentence cited where it comes from
            if u.reading.cause is Cause.peaks_apart:  # «3352 TOPS против 989»: the sheets' BF16
                said = [*said, *self._peaks_of(named[:2])]
            picked, told = leads.cite_all(picked, said)
            lead = (*told, *lead)
        if failure is not None:  # «По логу операция all-reduce … не завершилась …» first
            # the card the log names failed, whatever card the prose compares it with
            logged = self.catalog.find_gpu(failure.card) if failure.card else None
            card = logged or (named[0] if named else None)
            said_log = causes.for_failure(failure, self.entries)
            if card is not None and failure.precision == "fp4" and card.fp8_tflops:
                said_log += self._sheet_says(card, "fp8")  # «…нет FP4»: what it runs fast
            picked, told = leads.cite_all(picked, said_log)
            lead = (failures.reading(failure, card), *told, *(x for x in lead if x not in told))
        elif u.reading.ask in _LACKING and named:  # «tp=4 на 4 RTX PRO 6000 — прирост копеечный»
            several = (message.quantities.params.gpus or 1) > 1
            cause = lacking_cause(named[0], message.terms, several)
            if u.reading.ask is Ask.term_comparison:  # a pick: the precision it computes in
                cause = supported_pick(named[0], message.terms) or cause
            lead = (cause, *lead) if cause else lead
            if cause and "NVLink" in cause:  # why it matters to the work, and which cards have it
                picked, why = leads.traffic(picked, self.entries, message.terms)
                picked, having = leads.linked_cards(picked, self.entries, self.catalog, named[0])
                told = tuple(x for x in (why, having) if x)
                lead = (cause, *told, *(x for x in lead[1:] if x not in told))
            able = causes.fp4_able(self.entries) if "FP4" in cause else None
            if able is not None:  # «…не ускоряет FP4»: and which cards do, from the FP4 entry
                picked, said_able = leads.cite(picked, *able)
                lead = (cause, said_able, *(x for x in lead[1:] if x != said_able))
        moe = self.entries.get("moe")
        active = leads.argues_active(self.catalog, message)
        if u.reading.ask is Ask.problem and moe is not None and active:
            # «дипсик же всего 37b активных — почему не лезет?»: every expert is held in memory
            picked, held = leads.cite(picked, moe, diagnosis.experts_held(moe))
            lead = (held, *(x for x in lead if x != held))
            slugs = [*slugs, *([moe.slug] if moe.slug not in slugs else [])]
        over_pcie = (failure is not None and failure.kind in failures.OVER_PCIE) or (
            u.reading.ask is Ask.problem
            and bool(named)
            and lacks_link(named[0], message.terms, (message.quantities.params.gpus or 1) > 1)
        )
        if over_pcie:  # «…идёт через PCIe»: how much slower, by the entries' figures
            picked, speeds = leads.link_speeds(self.entries, picked)
            lead = (lead[0], *speeds, *lead[1:]) if lead else speeds
        # every entry a lead sentence is cited from is a source of the answer (a card's sheet
        # cited after a pasted log or beside figures told apart)
        slugs = [*slugs, *(p.entry.slug for p in picked if p.entry.slug not in slugs)]
        ctx = AnswerContext(
            route=route,
            message=message.text,
            question=question,
            history=history,
            entries=tuple(p.entry for p in picked),
            picked=picked,
            lead=lead,
        )
        meta = AnswerMeta(
            question=question,
            params=u.carried.stored(),
            slugs=list(slugs),
            confidence=scope.confidence,
        )
        meta.evidence = [evidence.evidence(p) for p in picked]
        answer = self._finish(ctx, meta)
        if scope.unknown_term and message.signals.defined_term and not message.defined:
            # «что такое DoRA — это разновидность лоры?»: LoRA is explained, DoRA is not ours
            # the term as written, echoed: plain text only (no tag, no bidi override)
            note = plain(self.embedded.unknown_note(message.signals.defined_term))
            # refused: what was asked about has no entry (the agent page says so, not the LLM)
            update = {"answer": f"{note}\n\n{answer.answer}", "refused": True}
            return answer.model_copy(update=update)
        if trouble and u.reading.memory and not said:  # no model or card: nothing computed
            return answer.model_copy(
                update={"answer": f"{answer.answer}\n\n{self.embedded.setup_note()}"}
            )
        return answer

    def _peaks_of(self, gpus: list[Gpu]) -> list[tuple[Entry, str]]:
        """Each card's peak rates, from its sheet, without sparsity: figures told apart by the
        conditions they were stated under are then set side by side under the same ones."""
        return [said for gpu in gpus for said in self._sheet_says(gpu, "compute")]

    def _sheet_says(self, gpu: Gpu, field: str) -> list[tuple[Entry, str]]:
        """The card's sheet sentence of one field, with the sheet it is cited from."""
        sheet = self.entries.get(sheet_slug(gpu.id))
        said = sheet_sentences(gpu).get(field, "")
        return [(sheet, said)] if sheet is not None and said else []

    def _lead(
        self, u: Understanding, slugs: list[str], searched: Searched, question: str, route: Route
    ) -> tuple[str, str] | None:
        """The sentence an answer plan opens with: for a fact, the fact (not the entry's first
        line); for a problem or a pasted error, what causes it (not a definition); for two
        terms compared, the sentence of one that names the other."""
        plan = _lead_plan(u, slugs, route)
        if plan is None:
            return None
        pool, switch, past_definition, mentioning_other = plan
        each = evidence.answering_each(
            self.bank,
            self.entries,
            pool,
            searched.retrieval,
            question,
            mentioning_other=mentioning_other,
            switch=switch,
            past_definition=past_definition,
        )
        found = evidence.best_of(each)
        if u.reading.ask is Ask.other and not (found and speaks_for_provider(found[1])):
            # «анти-ддос на все айпишники распространяется?»: what FullGPU does answers it; a
            # general question opens with the sentence of its first entry that answers it best
            # («RoCE v2 поверх чего работает?»: UDP/IP, not what RoCE stands for)
            first = each.get(pool[0]) if pool else None
            return (pool[0], first[1]) if first else None
        return found

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
