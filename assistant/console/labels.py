"""Stored codes → the Russian words the console, the export and the report show instead.

Codes never reach a person: a code without a label (a channel added later) reads as «другое».
"""

from __future__ import annotations

CHANNELS = {
    "web": "Виджет",
    "telegram": "Telegram",
    "agent": "Помощник оператора",
    "openai": "API (OpenAI)",
}
OUTCOMES = {
    "answered": "Ответ",
    "declined": "Отказ",
    "handoff": "Передано людям",
    "clarify": "Уточнение",
}
ROUTES = {
    "term": "термин",
    "comparison": "сравнение",
    "numeric": "расчёт",
    "clarify": "уточнение",
    "greeting": "приветствие",
    "out_of_scope": "не по теме",
    "injection": "попытка обхода",
    "not_found": "нет в глоссарии",
}
GENERATORS = {
    "embedded": "Встроенный генератор (предложения глоссария)",
    "vllm": "Языковая модель (vLLM), проверено по источникам",
}
FALLBACKS = {
    "llm_unavailable": "модель недоступна",
    "llm_circuit_open": "модель временно отключена после сбоев",
    "llm_timeout": "модель не успела ответить",
    "llm_error": "модель ответила ошибкой",
    "grounding_citations": "ссылки черновика не подтвердились",
    "grounding_numbers": "числа черновика не подтвердились",
    "grounding_tool_result": "в черновике нет результата расчёта",
    "unsupported_text": "текст черновика не опирается на источники",
    "echo": "черновик повторял инструкции",
    "degenerate": "черновик зациклился",
    "foreign_link": "в черновике чужая ссылка",
    "length": "черновик слишком короткий или длинный",
}
CONFIDENCE = {"high": "высокая", "medium": "средняя", "low": "низкая"}
# the widget's own words for 👍/👎 (its buttons read «✓ Полезно» and «✗ Не помогло»)
FEEDBACK = {1: "полезно", -1: "не помогло"}
OTHER = "другое"


def label(table: dict[str, str], code: str) -> str:
    return table.get(code, OTHER) if code else ""


def channel(code: str) -> str:
    return label(CHANNELS, code)


def outcome(code: str) -> str:
    return label(OUTCOMES, code)


def route(code: str) -> str:
    return label(ROUTES, code)


def generator(code: str) -> str:
    return label(GENERATORS, code)


def fallback(code: str) -> str:
    return label(FALLBACKS, code)
