"""Pure rendering: escaping, citation links, monospace tables, splitting at safe boundaries."""

from __future__ import annotations

import html

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.channels.telegram.render import (
    absolute_url,
    escape,
    render_answer,
    render_citations,
    render_display,
    render_table,
    split_message,
    text_length,
    visible_text,
)
from assistant.schema import (
    Answer,
    Citation,
    Display,
    DisplayItem,
    DisplayRow,
    DisplayTable,
    ToolCall,
)
from tests.channels.tg_html import ApiError, parse_html


def answer(text: str, **kw: object) -> Answer:
    return Answer(answer=text, route="term", generator="embedded", **kw)  # type: ignore[arg-type]


def test_escape_only_what_telegram_requires() -> None:
    assert escape('<b> & "x"') == '&lt;b&gt; &amp; "x"'
    assert escape('a"b', quote=True) == "a&quot;b"
    assert (
        parse_html(escape("<script>alert('&amp;')</script>")) == "<script>alert('&amp;')</script>"
    )


def test_absolute_url() -> None:
    assert (
        absolute_url("/glossary/nvlink", "https://x.example/")
        == "https://x.example/glossary/nvlink"
    )
    assert absolute_url("https://a.example/g", "") == "https://a.example/g"
    assert absolute_url("/glossary/nvlink", "") is None


def test_citations_are_links_with_escaped_titles() -> None:
    cites = [Citation(slug="nvlink", title='NVLink <"4">', url="/glossary/nvlink")]
    out = render_citations(cites, "https://fullgpu.example")
    assert '<a href="https://fullgpu.example/glossary/nvlink">NVLink &lt;"4"&gt;</a>' in out
    assert out.startswith("<b>Источники:</b>\n[1] ")
    assert "<code>/glossary/nvlink</code>" in render_citations(cites, "")
    hostile = [Citation(slug="x", title="x", url='/g/x"><b>')]
    assert 'href="https://e.example/g/x&quot;&gt;&lt;b&gt;"' in render_citations(
        hostile, "https://e.example"
    )
    assert render_citations([], "https://e.example") == ""


def test_tool_table_is_aligned_pre() -> None:
    call = ToolCall(
        name="vram_inference",
        arguments={},
        result={"values": {"params_b": 70.6, "weights_gb": 70.6, "total_high_gb": 91.78,
                           "options": [1, 2], "unit": "GB", "verdict": "fits"}},
    )  # fmt: skip
    table = render_table(call)
    assert table.startswith("<pre>") and table.endswith("</pre>")
    rows = html.unescape(table[5:-6]).splitlines()
    assert rows[1].split("  ")[0].strip() == "веса" and rows[1].endswith("70,6 ГБ")
    assert rows[-1].endswith("поместится")
    assert len({row.index(row.split()[-1]) for row in rows[:2]}) >= 1
    assert render_table(ToolCall(name="t", arguments={}, result={})) == ""


def test_render_answer_escapes_everything_and_drops_plain_sources_line() -> None:
    a = answer(
        "Ответ <i>не тег</i> & [1].\nИсточники: [1] NVLink — /glossary/nvlink",
        citations=[Citation(slug="nvlink", title="NVLink", url="/glossary/nvlink")],
    )
    out = render_answer(a, "https://fullgpu.example")
    assert "&lt;i&gt;не тег&lt;/i&gt; &amp; [1]." in out
    assert "Источники: [1] NVLink — /glossary/nvlink" not in out
    plain = parse_html(out)
    assert "Ответ <i>не тег</i> & [1]." in plain


def test_short_message_is_one_part() -> None:
    assert split_message("<b>Привет</b>") == ["<b>Привет</b>"]
    assert split_message("  \n ") == []


def test_split_prefers_paragraphs_then_sentences() -> None:
    para = "Первое предложение. Второе предложение."
    text = "\n\n".join([para] * 4)
    parts = split_message(text, limit=len(para) * 2 + 5)
    assert parts == [f"{para}\n\n{para}"] * 2
    parts = split_message("Раз два три. Четыре пять шесть. Семь восемь девять.", limit=35)
    assert parts[0] == "Раз два три. Четыре пять шесть."


def test_split_never_breaks_entities_and_reopens_tags() -> None:
    body = "<b>" + ("слово &amp; &lt;тег&gt; " * 300) + "</b>"
    parts = split_message(body, limit=200)
    assert len(parts) > 10
    for part in parts:
        assert text_length(part) <= 200
        assert part.startswith("<b>") and part.endswith("</b>")
        parse_html(part)  # balanced and every entity whole


def test_split_link_keeps_href_in_every_part() -> None:
    link = '<a href="https://e.example/g">' + "очень длинная ссылка " * 20 + "</a>"
    parts = split_message(link, limit=120)
    assert all(p.startswith('<a href="https://e.example/g">') for p in parts)


def test_split_counts_utf16_like_telegram() -> None:
    text = "😀" * 3000  # 6000 UTF-16 units
    parts = split_message(text)
    assert len(parts) == 2 and all(text_length(p) <= 4096 for p in parts)


def _normal(text: str) -> str:
    return "".join(html.unescape(text).split())


fragments = st.lists(
    st.one_of(
        st.text(alphabet="абв xyz.!?\n&<>\"'😀", min_size=1, max_size=40).map(escape),
        st.sampled_from(["\n\n", ". ", "\n"]),
        st.text(alphabet="где. \n<&", min_size=1, max_size=30).map(lambda t: f"<b>{escape(t)}</b>"),
        st.text(alphabet="ёжз \n&", min_size=1, max_size=30).map(
            lambda t: f'<a href="https://e.example/?a=1&amp;b=2">{escape(t)}</a>'
        ),
        st.text(alphabet="0123 =\n<", min_size=1, max_size=60).map(
            lambda t: f"<pre>{escape(t)}</pre>"
        ),
    ),
    min_size=1,
    max_size=60,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(fragments, st.integers(min_value=60, max_value=400))
def test_split_properties(html_text: str, limit: int) -> None:
    parts = split_message(html_text, limit=limit)
    for part in parts:
        assert text_length(part) <= limit
        try:
            plain = parse_html(part)
        except ApiError as e:  # pragma: no cover - shown on failure
            pytest.fail(f"{e.description}: {part!r}")
        assert plain.strip()
    assert _normal("".join(visible_text(p) for p in parts)) == _normal(visible_text(html_text))


# --- calculations (the display block) -------------------------------------------------------

LEAKS = ("_gb", "_pct", "{'", "[object", "h100-sxm", "gpu_fit", "gpu_cost", "None", "True")


@pytest.mark.parametrize(
    "question",
    [
        "поместится ли Llama 3 70B в FP8 на H100?",
        "сколько стоит аренда 8 H100 на неделю?",
        "сколько памяти для полного дообучения 8B на 4 GPU с zero3",
        "сколько видеопамяти нужно для 70B?",  # three precisions side by side
    ],
)
def test_real_calculation_renders_within_one_message(pipeline: object, question: str) -> None:
    a = pipeline.answer(question)  # type: ignore[attr-defined]
    assert a.tool_calls and all(c.display is not None for c in a.tool_calls)
    out = render_answer(a, "https://fullgpu.example")
    assert text_length(out) <= 4096 and split_message(out) == [out]
    plain = parse_html(out)  # valid Telegram HTML: balanced, only allowed tags and entities
    for leak in LEAKS:
        assert leak not in plain, (leak, plain)
    for call in a.tool_calls:
        assert call.display is not None and f"<b>{call.display.title}</b>" in out
    assert out.count("Допущения:") == 1  # stated once: by the text, or by the first block


def test_display_block_escapes_and_aligns() -> None:
    display = Display(
        title="Подбор <GPU>",
        headline="—",
        inputs=[DisplayItem(label="Модель", value="A & B")],
        rows=[
            DisplayRow(label="Веса", value="70,6 ГБ", note="70,6 млрд × 1 байт"),
            DisplayRow(label="Итого", value="77–92 ГБ", strong=True),
        ],
        table=DisplayTable(
            caption="Варианты GPU", columns=["GPU", "Память"], rows=[["H200", "141 ГБ"]]
        ),
        assumptions=["Контекст <4k> — по умолчанию"],
    )
    out = render_display(display)
    parse_html(out)
    assert out.startswith("<b>Подбор &lt;GPU&gt;</b>\n<i>Модель: A &amp; B</i>")
    breakdown = html.unescape(out.split("<pre>")[1].split("</pre>")[0]).splitlines()
    assert breakdown == ["Веса    70,6 ГБ", "Итого  77–92 ГБ"]
    assert "<i>Веса — 70,6 млрд × 1 байт</i>" in out
    assert "<b>Варианты GPU</b>\n<pre>GPU   Память\nH200  141 ГБ</pre>" in out
    assert "Допущения: Контекст &lt;4k&gt; — по умолчанию." in out
    assert "Допущения" not in render_display(display, assumptions=[])
