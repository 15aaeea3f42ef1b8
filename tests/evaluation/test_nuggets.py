"""The nugget scorer: normalised text, lead sentence, forbidden patterns, declines."""

from __future__ import annotations

from assistant.evaluation.nuggets import normalised, score
from assistant.evaluation.rows import NuggetRow
from tests.evaluation.stand_in import reply


def _row(**extra: object) -> NuggetRow:
    base: dict[str, object] = {
        "id": "n",
        "split": "dev",
        "kind": "fact",
        "question": "?",
        "nuggets": [
            {"id": "bw", "any": ["3.35 ?тб/с"], "lead": True},
            {"id": "ctx", "any": ["32768 токен"]},
        ],
    }
    return NuggetRow.model_validate(base | extra)


def test_numbers_are_read_as_people_write_them() -> None:
    assert normalised("3,35\u00a0ТБ/с и 32 768 токенов, **ГБ**") == "3.35 тб/с и 32768 токенов, гб"
    assert normalised("у H200 141 ГБ") == "у h200 141 гб"  # a name's digits are not a group
    assert normalised("Ёмкость  1 120\u202fГБ") == "емкость 1120 гб"


def test_complete_needs_every_fact_and_the_lead_the_first_sentence() -> None:
    good = score(_row(), reply(text="У H100 3,35 ТБ/с [1]. Контекст 32 768 токенов [1]."))
    assert good.complete and good.lead and good.recall == 1.0
    late = score(_row(), reply(text="Контекст 32 768 токенов. А ещё 3,35 ТБ/с."))
    assert late.complete and late.lead is False
    half = score(_row(), reply(text="У H100 3,35 ТБ/с."))
    assert not half.complete and half.missed == ("ctx",) and half.recall == 0.5


def test_forbidden_text_and_refusals_fail_an_answer() -> None:
    row = _row(forbid=["94 ?гб"])
    wrong = score(row, reply(text="3,35 ТБ/с, 32 768 токенов и 94 ГБ памяти."))
    assert not wrong.complete and wrong.forbidden
    assert not score(_row(), reply(refused=True, text="3,35 ТБ/с, 32 768 токенов")).complete


def test_a_decline_row_is_complete_only_when_declined() -> None:
    row = NuggetRow.model_validate(
        {"id": "o", "split": "dev", "kind": "out_of_scope", "question": "?", "expect": "decline"}
    )
    assert score(row, reply(refused=True)).complete
    assert not score(row, reply(text="Triton — это…")).complete
    assert score(row, reply(refused=True)).recall is None
