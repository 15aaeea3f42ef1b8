"""A period → its exchanges as CSV (for people: Russian headers and labels) or JSONL (for
programs: codes), one text chunk per database batch, so memory stays flat at any size.

    for chunk in export_chunks(store, period, "csv", titles):   # also `assistant export`
        out.write(chunk)

One row per question with the answer to it (empty when the engine failed on it); deleted
conversations are not there, because they are not in the database. CSV opens in Excel as is
(UTF-8 with a byte-order mark) and a cell that starts like a formula is quoted with «'», so a
question such as «=HYPERLINK(…)» stays text.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping
from typing import Literal

from assistant.console import labels
from assistant.console.period import Period, local_time
from assistant.storage.console import ConsoleStore
from assistant.storage.rows import ExportRow

Format = Literal["csv", "jsonl"]
FORMATS: tuple[Format, ...] = ("csv", "jsonl")
MEDIA = {"csv": "text/csv; charset=utf-8", "jsonl": "application/x-ndjson; charset=utf-8"}
CSV_HEADER = (
    "Время вопроса",
    "Разговор",
    "Канал",
    "Вопрос",
    "Ответ",
    "Исход",
    "Тип вопроса",
    "Генератор",
    "Запасной ответ",
    "Источники",
    "Время ответа, мс",
    "Из них движок, мс",
    "Оценка",
    "Комментарий",
)
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA) else text


def _ms(value: float | None) -> str:
    return "" if value is None else str(round(value))


def csv_row(row: ExportRow, zone: str, titles: Mapping[str, str]) -> list[str]:
    return [
        local_time(row.asked_at, zone).strftime("%Y-%m-%d %H:%M:%S"),
        row.conversation_id,
        labels.channel(row.channel),
        _cell(row.question),
        _cell(row.answer),
        labels.outcome(row.outcome) or ("без ответа" if not row.answer else ""),
        labels.route(row.route),
        labels.generator(row.generator),
        labels.fallback(row.fallback),
        "; ".join(titles.get(s, s) for s in row.cited),
        _ms(row.total_ms),
        _ms(row.engine_ms),
        labels.FEEDBACK.get(row.score, "") if row.score is not None else "",
        _cell(row.comment),
    ]


def json_row(row: ExportRow, zone: str) -> dict[str, object]:
    return {
        "asked_at": local_time(row.asked_at, zone).isoformat(timespec="seconds"),
        "conversation_id": row.conversation_id,
        "channel": row.channel,
        "question": row.question,
        "answer": row.answer,
        "outcome": row.outcome or None,
        "route": row.route or None,
        "generator": row.generator or None,
        "fallback": row.fallback or None,
        "cited": row.cited,
        "answer_ms": row.total_ms,
        "engine_ms": row.engine_ms,
        "feedback": row.score,
        "comment": row.comment,
    }


def export_chunks(
    store: ConsoleStore, period: Period, fmt: Format, titles: Mapping[str, str]
) -> Iterator[str]:
    """The header (CSV), then one chunk of text per batch of exchanges."""
    zone = period.zone
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(CSV_HEADER)
        yield "\ufeff" + buffer.getvalue()
        for batch in store.export_batches(period.span):
            buffer.seek(0)
            buffer.truncate()
            writer.writerows(csv_row(r, zone, titles) for r in batch)
            yield buffer.getvalue()
        return
    for batch in store.export_batches(period.span):
        yield "".join(json.dumps(json_row(r, zone), ensure_ascii=False) + "\n" for r in batch)


def filename(period: Period, fmt: Format) -> str:
    return f"assistant-{period.first.isoformat()}-{period.last.isoformat()}.{fmt}"
