"""A support thread pasted as text → turns (customer / agent) and a warning when it is not one.

    parsed = parse_thread('''клиент: сколько памяти нужно 70B?
    оператор: около 140 ГБ в BF16''')
    parsed.turns     [ThreadTurn("customer", "сколько памяти нужно 70B?"), ThreadTurn("agent", …)]
    parsed.warning   "" — or a Russian sentence for the agent when nothing could be read

Two formats, line by line:
  * role prefixes: «клиент: …», «оператор: …» (also пользователь, поддержка, customer, agent…);
  * helpdesk exports: «Иван Петров, 10:31 …» or «[10:31] Иван Петров: …», the message on the
    same line or the lines below. A name with a role word («Оператор Мария») is the agent; other
    names are customers; with no role words at all the first speaker is the customer.
Lines that follow a turn continue it.

    unthread("Иван, 10:31\\nПланируем Qwen 2.5 32B…\\nАнна (поддержка), 10:35\\n…\\nИван, 10:40\\n"
             "Хватит одной H100?", [])  → ("Хватит одной H100?", [Turn(user…), Turn(assistant…)])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from assistant.schema import Turn

Role = Literal["customer", "agent"]

_AGENT_WORDS = (
    "оператор|поддержка|техподдержка|саппорт|агент|менеджер|специалист|консультант|"
    "ассистент|бот|support|agent|operator|assistant|bot"
)
_CUSTOMER_WORDS = "клиент|пользователь|покупатель|заказчик|customer|client|user"
_ROLE_LINE = re.compile(
    rf"^\s*(?P<role>{_AGENT_WORDS}|{_CUSTOMER_WORDS})\s*[:>—-]\s*(?P<text>.*)$", re.IGNORECASE
)
_NAME = r"[A-ZА-ЯЁ][\w.'-]*(?:\s+[A-ZА-ЯЁ][\w.'-]*){0,3}"
_TIME = r"\d{1,2}:\d{2}(?::\d{2})?"
_DATE = r"(?:\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?,?\s+)?"
# «Иван Петров, 10:31 текст» / «Оператор Мария (поддержка) 10:32: текст»
_NAME_TIME = re.compile(
    rf"^\s*(?P<name>{_NAME})\s*(?:\([^)]*\))?\s*[,·|—-]?\s*\[?{_DATE}(?P<time>{_TIME})\]?"
    rf"\s*[:—-]?\s*(?P<text>.*)$"
)
# «[10:31] Иван Петров: текст» / «10:31 — Иван Петров: текст»
_TIME_NAME = re.compile(
    rf"^\s*\[?{_DATE}(?P<time>{_TIME})\]?\s*[—-]?\s*(?P<name>{_NAME})\s*(?:\([^)]*\))?\s*[:—-]"
    r"\s*(?P<text>.*)$"
)
_AGENT_NAME = re.compile(rf"\b(?:{_AGENT_WORDS})\b", re.IGNORECASE)
_CUSTOMER_NAME = re.compile(rf"\b(?:{_CUSTOMER_WORDS})\b", re.IGNORECASE)

WARNING = (
    "Не удалось разобрать переписку: ожидаются строки вида «клиент: …» и «оператор: …» или "
    "«Иван Петров, 10:31 …». Черновик составлен только по последнему сообщению клиента."
)
NO_CUSTOMER = (
    "В переписке не найдено ни одного сообщения клиента — проверьте, кто есть кто: "
    "реплики оператора помечают словом «оператор»."
)


@dataclass(frozen=True)
class ThreadTurn:
    role: Role
    content: str


@dataclass(frozen=True)
class ParsedThread:
    turns: list[ThreadTurn] = field(default_factory=list)
    warning: str = ""


@dataclass
class _Speaker:
    """Who a header line names: an explicit role, or a name to resolve later."""

    name: str
    role: Role | None


def parse_thread(text: str) -> ParsedThread:
    """Turns of a pasted thread (in order, blank ones dropped) and a warning if unreadable."""
    if not text.strip():
        return ParsedThread()
    blocks = _blocks(text.splitlines())
    if not blocks:
        return ParsedThread(warning=WARNING)
    roles = _resolve([speaker for speaker, _ in blocks])
    turns = [
        ThreadTurn(role, content)
        for role, (_, lines) in zip(roles, blocks, strict=True)
        if (content := "\n".join(lines).strip())
    ]
    if not turns:
        return ParsedThread(warning=WARNING)
    if all(t.role == "agent" for t in turns):
        return ParsedThread(turns, NO_CUSTOMER)
    return ParsedThread(_merged(turns))


def _blocks(lines: list[str]) -> list[tuple[_Speaker, list[str]]]:
    """Header lines open a block, other lines continue the open one; text before any header
    is not a thread."""
    blocks: list[tuple[_Speaker, list[str]]] = []
    for line in lines:
        header = _header(line)
        if header is not None:
            blocks.append((header[0], [header[1]]))
        elif blocks:
            blocks[-1][1].append(line.strip())
    return blocks


def _header(line: str) -> tuple[_Speaker, str] | None:
    m = _ROLE_LINE.match(line)
    if m:
        word = m.group("role")
        role: Role = "agent" if _AGENT_NAME.fullmatch(word) else "customer"
        return _Speaker(word.lower(), role), m.group("text").strip()
    m = _NAME_TIME.match(line) or _TIME_NAME.match(line)
    if m:
        name = m.group("name").strip()
        return _Speaker(name, _role_of(name, line)), m.group("text").strip()
    return None


def _role_of(name: str, line: str) -> Role | None:
    head = line[: line.find(name) + len(name) + 40]  # the name and a «(поддержка)» after it
    if _AGENT_NAME.search(head):
        return "agent"
    if _CUSTOMER_NAME.search(head):
        return "customer"
    return None


def _resolve(speakers: list[_Speaker]) -> list[Role]:
    """Names without a role word: an agent is named as such somewhere, so every other name is
    a customer; with no role words at all, the first speaker is the customer."""
    known = {s.name: s.role for s in speakers if s.role is not None}
    anyone_agent = "agent" in known.values()
    first = next((s.name for s in speakers), "")
    out: list[Role] = []
    for s in speakers:
        role = s.role or known.get(s.name)
        if role is None:
            role = "customer" if anyone_agent or s.name == first else "agent"
        out.append(role)
    return out


def _merged(turns: list[ThreadTurn]) -> list[ThreadTurn]:
    """Consecutive messages of one side become one turn (a customer writing in three lines)."""
    out: list[ThreadTurn] = []
    for t in turns:
        if out and out[-1].role == t.role:
            out[-1] = ThreadTurn(t.role, f"{out[-1].content}\n{t.content}")
        else:
            out.append(t)
    return out


def unthread(message: str, history: list[Turn]) -> tuple[str, list[Turn]]:
    """A support thread pasted as one message («Иван Петров, 10:31 …», «клиент: …»): its last
    customer message is the question, the turns before it are the conversation so far (an
    operator's «уточняю у коллег» after it changes nothing)."""
    if "\n" not in message:
        return message, history
    parsed = parse_thread(message)
    turns = parsed.turns
    asked = [i for i, t in enumerate(turns) if t.role == "customer"]
    if parsed.warning or not asked:
        return message, history
    last = asked[-1]
    earlier = [
        Turn(role="user" if t.role == "customer" else "assistant", content=t.content)
        for t in turns[:last]
    ]
    return turns[last].content, [*history, *earlier]
