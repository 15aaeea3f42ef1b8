"""One answer + the expectations written for it → the list of unmet expectations (Russian).

Expectation keys (rows.Expectations; any subset, absent = not checked), shared by dialogues,
robustness and the problem set:
    route        the answer's route («numeric», «clarify», …)
    refused      whether the answer must be a refusal
    slugs_any    at least one of these entries is cited;  slugs_all — all of them are
    tool         this calculator was called;  not_tool — none of these (a name or a list)
    values       the first calculation's values equal these (numbers within 0,5 % or 0,01)
    not_values   the first calculation's values must not equal these (e.g. «-13B» read as 13B)
    arguments    the first calculation's inputs include these (defaults count as inputs)
    asks_any     the answer text contains one of these lower-case fragments (a question back)
"""

from __future__ import annotations

from pydantic import JsonValue

from assistant.evaluation.rows import Expectations
from assistant.evaluation.tools import same
from assistant.schema import Answer


def cited(answer: Answer) -> list[str]:
    return [c.slug for c in answer.citations]


def first_values(answer: Answer) -> dict[str, JsonValue]:
    if not answer.tool_calls:
        return {}
    values = answer.tool_calls[0].result.get("values", {})
    return values if isinstance(values, dict) else {}


def first_arguments(answer: Answer) -> dict[str, JsonValue]:
    return answer.tool_calls[0].arguments if answer.tool_calls else {}


def _citations(answer: Answer, expect: Expectations) -> list[str]:
    got = set(cited(answer))
    problems = []
    if expect.slugs_any is not None and not got & set(expect.slugs_any):
        problems.append(f"нет ни одного из {list(expect.slugs_any)} в {sorted(got)}")
    if expect.slugs_all is not None and not set(expect.slugs_all) <= got:
        problems.append(f"не все из {list(expect.slugs_all)} в {sorted(got)}")
    return problems


def _tools(answer: Answer, expect: Expectations) -> list[str]:
    names = [c.name for c in answer.tool_calls]
    problems = []
    if expect.tool is not None and expect.tool not in names:
        problems.append(f"калькулятор {names} ≠ {expect.tool}")
    banned = [n for n in expect.not_tool if n in names]
    if banned:
        problems.append(f"вызван лишний калькулятор {banned}")
    return problems


def _numbers(answer: Answer, expect: Expectations) -> list[str]:
    got, args = first_values(answer), first_arguments(answer)
    problems = [
        f"{k}: {got.get(k)} ≠ {v}"
        for k, v in expect.values.items()
        if k not in got or not same(v, got[k])
    ]
    problems += [
        f"{k}: не должно быть {v}"
        for k, v in expect.not_values.items()
        if k in got and same(v, got[k])
    ]
    problems += [
        f"аргумент {k}: {args.get(k)} ≠ {v}"
        for k, v in expect.arguments.items()
        if k not in args or not same(v, args[k])
    ]
    return problems


def check(answer: Answer, expect: Expectations) -> list[str]:
    """Every unmet expectation, in words; [] when the answer meets all of them."""
    problems = []
    if expect.route is not None and answer.route != expect.route:
        problems.append(f"маршрут {answer.route} ≠ {expect.route}")
    if expect.refused is not None and answer.refused != expect.refused:
        problems.append(f"отказ {answer.refused} ≠ {expect.refused}")
    problems += _citations(answer, expect) + _tools(answer, expect) + _numbers(answer, expect)
    asks = expect.asks_any
    if asks is not None and not any(a in answer.answer.lower() for a in asks):
        problems.append(f"в ответе нет ни одного из {list(asks)}")
    return problems
