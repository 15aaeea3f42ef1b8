"""Calculation blocks in the widget, drawn from each tool call's `display`: a headline, then a
collapsed «Как считали» with the inputs, the breakdown, the GPU options and the assumptions —
and nothing raw (no `[object Object]`, result keys or catalogue ids) at 1280 and 390 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import (
    ANSWER,
    SIZES,
    ask,
    assert_fits_width,
    open_demo,
    raw_leaks,
    snake_keys,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
FIT = "на какую GPU поместится Llama 3 70B в FP8?"
COST = "сколько стоит аренда 8 H100 на неделю?"


def calculation(
    page: Any, server: str, size: str, question: str, title: str, ids: list[str]
) -> Any:
    """The one calculation block of the answer to `question` in a new conversation: titled
    `title`, readable (check_readable), opened."""
    open_demo(page, server, **SIZES[size])
    page.get_by_role("button", name="Новый разговор").click()
    answer = ask(page, question)
    calc = answer.locator(".fg-calc")
    assert calc.count() == 1, "one calculation block per tool call"
    assert calc.locator(".fg-calc-title").text_content() == title
    check_readable(answer, calc, ids)
    return calc


def check_readable(answer: Any, calc: Any, ids: list[str]) -> None:
    """Collapsed at first; once opened, every row once, Russian, no keys or ids anywhere."""
    details = calc.locator("details")
    assert details.evaluate("d => d.open") is False
    headline = calc.locator(".fg-calc-headline").inner_text().strip()
    text = answer.locator(".fg-text").inner_text()
    assert headline and headline not in text, "the headline must not repeat the answer"
    summary = details.locator("summary").inner_text()
    assert summary not in text and len(summary) < 60
    details.locator("summary").click()
    rows = [r.strip() for r in calc.locator("tr").all_inner_texts()]
    assert len(rows) == len(set(rows)), f"duplicated rows: {rows}"
    assert raw_leaks(answer.inner_text(), ids) == []
    assert snake_keys(calc.inner_text()) == []


@pytest.mark.parametrize("size", SIZES)
def test_fit_answer_has_a_gpu_table(
    page: Any, server: str, shots: Path, catalogue_ids: list[str], size: str
) -> None:
    calc = calculation(page, server, size, FIT, "Подбор GPU", catalogue_ids)
    table = calc.locator(".fg-calc-options")
    header = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    assert header[0] == "GPU" and len(header) >= 3
    gpus = [g.strip() for g in table.locator("tbody tr > :first-child").all_inner_texts()]
    assert len(gpus) >= 3 and all(gpus), gpus
    assert any("H200" in g for g in gpus), gpus  # Llama 3 70B in FP8 fits one H200
    assert calc.locator(".fg-calc-rows tr.fg-strong").count() == 1  # the total, in bold
    box = calc.locator(".fg-scroll").evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert box[0] <= box[1], f"the GPU table is cut off: {box}"  # every column in view
    assert_fits_width(page)
    calc.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"fit-{size}.png"))

    page.reload()  # a restored conversation draws the same block
    page.locator(ANSWER).filter(has_text="ГБ").last.locator(".fg-calc").wait_for()
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_cost_answer_shows_hours_price_and_total(
    page: Any, server: str, shots: Path, catalogue_ids: list[str], size: str
) -> None:
    calc = calculation(page, server, size, COST, "Стоимость аренды", catalogue_ids)
    total = calc.locator(".fg-calc-rows tr.fg-strong")
    assert total.count() == 1 and "$" in total.inner_text()
    labels = calc.locator(".fg-calc-rows th").all_inner_texts()
    assert len(labels) >= 3, labels  # hours × price = total
    assert_fits_width(page)
    calc.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"cost-{size}.png"))
    assert page.errors == []


def test_every_answer_kind_stays_free_of_raw_values(
    page: Any, server: str, catalogue_ids: list[str]
) -> None:
    open_demo(page, server)
    page.get_by_role("button", name="Новый разговор").click()
    for question in (
        "сколько видеопамяти нужно для 70B в FP8?",
        "сколько памяти нужно для обучения 7B модели?",
        "а в две L40S влезет?",
        "что такое NVLink?",
    ):
        answer = ask(page, question)
        for summary in answer.locator(".fg-calc summary").all():
            summary.click()
        assert raw_leaks(answer.inner_text(), catalogue_ids) == [], question
        assert snake_keys(" ".join(answer.locator(".fg-calc").all_inner_texts())) == []
    assert page.errors == []
