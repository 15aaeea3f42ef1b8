"""Eval rows + a Recorder → one `Item` per row (per turn for dialogues) with its checks.

    in_scope      eval/data/retrieval.jsonl     citation hit@3 / precision, false refusals
    problems      eval/data/problems.jsonl      the same for problem-phrased questions, plus
                                                the entries an answer needs together (gold_all)
    out_of_scope  eval/data/out_of_scope.jsonl  refusals by expected kind
    numeric       eval/data/numeric*.jsonl      the answer's calculation equals the expected values
    dialogues     eval/data/dialogues.jsonl     turn by turn; calculation follow-ups separately
    robustness    eval/data/robustness.jsonl    answered without an exception, + expectations
    nuggets       eval/data/nuggets.jsonl       what the answer says, per kind of question

An exception while answering is a miss with every applicable check failed, never the end of
the run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from assistant.conversation.validation import EMPTY_CODE
from assistant.evaluation.checks import check, cited, first_values
from assistant.evaluation.nuggets import score as score_nuggets
from assistant.evaluation.recorder import Failure, Recorder
from assistant.evaluation.rows import (
    DialogueRow,
    Expectations,
    NuggetRow,
    NumericRow,
    OutOfScopeRow,
    ProblemRow,
    RetrievalRow,
    RobustnessRow,
)
from assistant.evaluation.scoring import Check, Item, Miss
from assistant.evaluation.tools import same
from assistant.schema import Answer, Turn

CALC_DIALOGUES = frozenset({"calc-followup", "support-thread"})
Checks = dict[str, Check]
Q = TypeVar("Q", RetrievalRow, ProblemRow, OutOfScopeRow, NumericRow, NuggetRow)


@dataclass(frozen=True)
class Asked:
    """The question an item is about: a row, or one turn of a dialogue."""

    id: str
    split: str
    category: str
    question: str
    gold: tuple[str, ...] | None = None  # a retrieval or problem row's entries


def _miss(asked: Asked, answer: Answer | None, problems: list[str]) -> Miss:
    if answer is None:
        return Miss(asked.id, asked.question, tuple(problems), asked.gold)
    got = first_values(answer) if answer.tool_calls else None
    return Miss(
        asked.id,
        asked.question,
        tuple(problems),
        asked.gold,
        answer.route,
        tuple(cited(answer)),
        got,
    )


def _item(asked: Asked, checks: Checks, miss: Miss | None) -> Item:
    return Item(asked.id, asked.split, asked.category, checks, miss)


def _run(
    rec: Recorder,
    rows: Sequence[Q],
    score: Callable[[Q, Answer], tuple[Checks, list[str]]],
    failed: Callable[[Q], Checks],
    category: str = "",
) -> list[Item]:
    """Answer each row (after its `after` chain, if any) and score it; failures are misses.
    A row without a category is counted under `category`."""
    items = []
    for row in rows:
        gold = row.gold if isinstance(row, RetrievalRow) else None
        asked = Asked(row.id, row.split, row.category or category, row.question, gold)
        after: list[str] = list(row.after) if isinstance(row, NumericRow) else []
        answer = rec.attempt(row.question, rec.history(after))
        if isinstance(answer, Failure):
            items.append(_item(asked, failed(row), _miss(asked, None, [str(answer)])))
            continue
        checks, problems = score(row, answer)
        items.append(_item(asked, checks, _miss(asked, answer, problems) if problems else None))
    return items


def _citations(answer: Answer, gold: set[str], counted: set[str]) -> Checks:
    """hit@1 (the entry the answer leads with) and hit@3 on `gold` (any of them); precision:
    cited entries that are in `counted`."""
    got = cited(answer)
    return {
        "citation_hit@1": bool(set(got[:1]) & gold),
        "citation_hit@3": bool(set(got[:3]) & gold),
        "citation_precision": len([s for s in got if s in counted]) / len(got) if got else 0.0,
        "false_refusal": answer.refused,
    }


def _term(row: RetrievalRow, answer: Answer) -> tuple[Checks, list[str]]:
    gold = set(row.gold)
    checks = _citations(answer, gold, gold)
    comparison = row.category == "comparison"
    checks["comparison_all"] = gold <= set(cited(answer)) if comparison else None
    return checks, [] if checks["citation_hit@3"] else ["нет gold в первых трёх цитатах"]


def _citations_failed() -> Checks:
    return {
        "citation_hit@1": False,
        "citation_hit@3": False,
        "citation_precision": 0.0,
        "false_refusal": True,
    }


def _term_failed(row: RetrievalRow) -> Checks:
    comparison = row.category == "comparison"
    return _citations_failed() | {"comparison_all": False if comparison else None}


def in_scope(rec: Recorder, rows: Sequence[RetrievalRow]) -> list[Item]:
    return _run(rec, rows, _term, _term_failed)


def _problem(row: ProblemRow, answer: Answer) -> tuple[Checks, list[str]]:
    """hit@3 on `gold` (any of them), precision on gold ∪ gold_all, gold_all cited together,
    and the row's own expectations (a calculator it needs or must not get)."""
    gold, every = set(row.gold), set(row.gold_all)
    checks = _citations(answer, gold, gold | every)
    checks["all_of"] = every <= set(cited(answer)) if every else None
    expect = row.expectations
    unmet = check(answer, expect) if expect else []
    checks["expectations"] = not unmet if expect else None
    problems = [] if checks["citation_hit@3"] else ["нет gold в первых трёх цитатах"]
    return checks, problems + unmet


def _problem_failed(row: ProblemRow) -> Checks:
    failed = _citations_failed() | {"comparison_all": None}
    failed |= {"all_of": False if row.gold_all else None}
    return failed | {"expectations": False if row.expectations else None}


def problems(rec: Recorder, rows: Sequence[ProblemRow]) -> list[Item]:
    return _run(rec, rows, _problem, _problem_failed)


def _refusal(row: OutOfScopeRow, answer: Answer) -> tuple[Checks, list[str]]:
    kind = row.expect
    ok = answer.route == "injection" if kind == "injection" else answer.refused
    return {"refusal": ok, f"refusal_{kind}": ok}, [] if ok else [f"ожидался отказ ({kind})"]


def _refusal_failed(row: OutOfScopeRow) -> Checks:
    return {"refusal": False, f"refusal_{row.expect}": False}


def out_of_scope(rec: Recorder, rows: Sequence[OutOfScopeRow]) -> list[Item]:
    return _run(rec, rows, _refusal, _refusal_failed)


def _numeric_problems(row: NumericRow, answer: Answer) -> list[str]:
    """What makes a calculation answer differ from the row's expectation: values, a question
    back when something is missing, or (without values) the calculator called."""
    expect = row.expect
    got = first_values(answer)
    problems = [
        f"{k}: {got.get(k)} ≠ {v}"
        for k, v in row.values.items()
        if k not in got or not same(v, got[k])
    ]
    if expect.missing and answer.route != "clarify":
        wanted = list(expect.missing)
        problems.append(f"маршрут {answer.route} ≠ clarify (нужно спросить {wanted})")
    names = [c.name for c in answer.tool_calls]
    if not row.values and not expect.missing and expect.tool not in names:
        problems.append(f"калькулятор {names} ≠ {expect.tool}")
    return problems


def _calculation(source: str) -> Callable[[NumericRow, Answer], tuple[Checks, list[str]]]:
    def score(row: NumericRow, answer: Answer) -> tuple[Checks, list[str]]:
        if not row.expect.is_numeric:
            called = [c.name for c in answer.tool_calls]
            problems = [f"вызван калькулятор {called}"] if called else []
            return {"not_calculated": not problems}, problems
        problems = _numeric_problems(row, answer)
        exact = not problems
        return {
            "exact": exact,
            f"exact_{source}": exact,
            "routed": bool(answer.tool_calls),
        }, problems

    return score


def _calculation_failed(source: str) -> Callable[[NumericRow], Checks]:
    def failed(row: NumericRow) -> Checks:
        if not row.expect.is_numeric:
            return {"not_calculated": False}
        return {"exact": False, f"exact_{source}": False, "routed": False}

    return failed


def numeric(rec: Recorder, rows: Sequence[NumericRow], source: str) -> list[Item]:
    """exact: the calculation matches; not_calculated: a question that is not a calculation got
    no calculator call. Rows without a category are counted under their file's name."""
    return _run(rec, rows, _calculation(source), _calculation_failed(source), source)


def _thread(row: DialogueRow) -> list[Turn]:
    """A support thread as the agent helper receives it: text only, customer = user side."""
    return [
        Turn(role="user" if m.role in ("customer", "user") else "assistant", content=m.content)
        for m in row.thread
    ]


def _dialogue(rec: Recorder, row: DialogueRow) -> list[Item]:
    """Turns in order in one conversation; a calculation follow-up is a turn of a calculation
    dialogue with anything before it (earlier turns or the pasted thread)."""
    history = _thread(row)
    calc = row.category in CALC_DIALOGUES
    items = []
    for n, turn in enumerate(row.turns, 1):
        follow_up = calc and bool(history)
        answer = rec.attempt(turn.user, history)
        if isinstance(answer, Failure):
            problems = [str(answer)]
        else:
            problems = check(answer, turn.expect)
            history.extend(rec.pipeline.turns_for(turn.user, answer))
        ok = not problems
        checks: Checks = {"turns": ok, "calc_followup_turns": ok if follow_up else None}
        asked = Asked(f"{row.id}#{n}", row.split, row.category, turn.user)
        miss = _miss(asked, None if isinstance(answer, Failure) else answer, problems)
        items.append(_item(asked, checks, miss if problems else None))
    whole = all(i.checks["turns"] for i in items)
    return [replace(items[0], checks={**items[0].checks, "dialogues": whole}), *items[1:]]


def dialogues(rec: Recorder, rows: Sequence[DialogueRow]) -> list[Item]:
    """One item per turn; `dialogues` (all turns right) is set on the first turn of each."""
    return [item for row in rows for item in _dialogue(rec, row)]


def _robust(expect: Expectations, answer: Answer) -> tuple[Checks, list[str]]:
    problems = check(answer, expect)
    return {
        "answered": True,
        "crashed": False,
        "expectations": not problems if expect.given else None,
    }, problems


def robustness(rec: Recorder, rows: Sequence[RobustnessRow]) -> list[Item]:
    """answered: an Answer came back, or — for a whitespace-only message — the validator's one
    Russian reply («Пустое сообщение: напишите вопрос…»), which every channel shows instead of
    an answer (counted apart as `validator_reply`); crashed: an exception that is not an
    AssistantError."""
    items = []
    for row in rows:
        asked = Asked(row.id, row.split, row.category, row.text)
        answer = rec.attempt(row.text)
        if isinstance(answer, Failure):
            expect = row.expect.given
            replied = answer.code == EMPTY_CODE
            checks: Checks = {"answered": replied, "crashed": answer.crash}
            checks["validator_reply"] = replied
            checks["expectations"] = False if expect else None
            miss = None if replied and not expect else _miss(asked, None, [str(answer)])
            items.append(_item(asked, checks, miss))
            continue
        checks, problems = _robust(row.expect, answer)
        checks["validator_reply"] = False
        items.append(_item(asked, checks, _miss(asked, answer, problems) if problems else None))
    return items


def _nugget(row: NuggetRow, answer: Answer) -> tuple[Checks, list[str]]:
    s = score_nuggets(row, answer)
    decline = row.expect == "decline"
    checks: Checks = {
        "complete": s.complete,
        "recall": s.recall,
        "lead": s.lead,
        "declined": s.declined if decline else None,
        "false_refusal": None if decline else s.declined,
    }
    problems = [f"не сказано: {', '.join(s.missed)}"] if s.missed and not decline else []
    if s.lead is False:
        problems.append("первое предложение не о главном")
    if s.forbidden:
        problems.append("сказано лишнее: " + ", ".join(s.forbidden))
    if decline and not s.declined:
        problems.append("не отказ: глоссарий на это не отвечает")
    if s.declined and not decline:
        problems.append("ложный отказ")
    return checks, problems


def _nugget_failed(row: NuggetRow) -> Checks:
    decline = row.expect == "decline"
    return {
        "complete": False,
        "recall": None if decline else 0.0,
        "lead": False if any(n.lead for n in row.nuggets) else None,
        "declined": False if decline else None,
        "false_refusal": None if decline else False,
    }


def nuggets(rec: Recorder, rows: Sequence[NuggetRow]) -> list[Item]:
    """What the answers say, per kind of question (assistant/evaluation/nuggets.py)."""
    categorised = [r.model_copy(update={"category": r.kind}) for r in rows]
    return _run(rec, categorised, _nugget, _nugget_failed)
