"""Customer message → Handoff (billing, refunds, complaints, outages, legal, account) or None.

    handoff = triage("Верните деньги за прошлый месяц, сервер не работал три дня!")
    handoff.topics   ("refund", "outage")
    handoff.reason   «Возврат денег, недоступность сервера: глоссарий и калькуляторы на это не
                      отвечают. Передать специалисту (оплата и инциденты).»
    handoff_answer(handoff, message, carried, prompts_dir) -> Answer   (no calculation, no sources)

These questions are decided by people, not by the glossary: a refund complaint that mentions
«три дня» must not become a GPU-hours calculation. The patterns are deliberately specific
(«за счёт чего» or «какой счёт?» is not an invoice, «простой способ» is not downtime,
«ассистент для юристов» is not a legal question); a miss falls through to
the ordinary routing, which still refuses what the glossary does not cover.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.text.tokens import fold

if TYPE_CHECKING:
    from assistant.schema import Answer

# topic → (what it is about, who decides it), Russian
TOPICS: dict[str, tuple[str, str]] = {
    "refund": ("возврат денег", "оплата"),
    "billing": ("оплата и счета", "оплата"),
    "outage": ("недоступность сервера", "инциденты"),
    "complaint": ("жалоба на сервис", "поддержка"),
    "legal": ("юридический вопрос", "юристы"),
    "account": ("доступ к аккаунту", "поддержка"),
}
_SERVER = r"(?:сервер|машин|инстанс|виртуалк|сервис|панел|кабинет|ssh)\w*"
_PATTERNS: dict[str, re.Pattern[str]] = {
    "refund": re.compile(
        r"\bверн(?:и|ите|уть|ете|ут)\w*\s+(?:\w+\s+){0,2}(?:деньг|средств|оплат|плат)|"
        r"\bвозврат\w*|\bвозмест\w*|компенсац\w*|\brefund\w*|chargeback|чарджбэк\w*"
    ),
    "billing": re.compile(
        # «какой счёт?» is a cost question and «счёт у прошлого облака» a comparison: an invoice
        # only with a billing verb or object around it
        r"\bсчет\w*[- ]фактур\w*|(?:выстав|пришл|пришли|оплат|скин|отправ)\w* (?:\w+ )?счет\w*|"
        r"\bсчет\w* (?:на оплату|не пришел|не оплачен|для бухгалтерии)|\bинвойс\w*|\binvoice|"
        r"\bсписа(?:л|ли|ние|ния|но)\w*|\bсписыва\w*|\bреквизит\w*|"
        r"(?:на|по|пополн\w*|отрицательн\w*|нулев\w*) баланс\w*|баланс\w* (?:счет|аккаунт)\w*|"
        r"закрывающ\w* документ\w*|\bакт\w* (?:сверки|выполненных)|двойн\w* (?:оплат|списан)\w*|"
        r"не прош\w* (?:оплат|платеж)\w*|\bпостоплат\w*|\bпредоплат\w*"
    ),
    "outage": re.compile(
        rf"{_SERVER}.{{0,30}}\bне (?:работа|отвеча|доступ|запуска|включа|грузит)\w*|"
        rf"\bне (?:работа|отвеча)\w*.{{0,30}}{_SERVER}|{_SERVER} (?:упал|лежит|лежал|недоступ)\w*|"
        r"\b(?:упал|лежит)\w* (?:сервер|сервис)\w*|\bпросто(?:я|ем|ю)\b|за простой|\bдаунтайм\w*|"
        rf"\bdowntime|\boutage|при простое|\bинцидент\w*|\bсбо(?:й|я|ем|и) {_SERVER}|"
        r"не (?:могу|можем|получается) (?:зайти|подключиться|достучаться)"
    ),
    "complaint": re.compile(
        r"\bжалоб\w*|пожаловаться|\bпретензи\w*|\bбезобрази\w*|возмутительн\w*|\bобман\w*|"
        r"\bмошенни\w*|\bнедовол\w*|\bхамств\w*|издевательств\w*|(?:ужасн|отвратительн)\w* "
        r"(?:сервис|поддержк|обслуживани)\w*|позовите (?:руководств|начальств)\w*"
    ),
    "legal": re.compile(
        r"\bдоговор\w*|\bоферт\w*|\bюрлиц\w*|\bюридическ\w*|\bв суд\b|\bсуд(?:ом|е|а)?\b|"
        r"\bиск(?:ом|а)?\b|\bgdpr\b|152-?фз|персональн\w* данн\w*|\bnda\b|\bндс\b|"
        r"\bдосудебн\w*"
    ),
    "account": re.compile(
        r"\bаккаунт\w*|учетн\w* запис\w*|личн\w* кабинет\w*|\bпарол\w*|\bлогин\w*|\b2fa\b|"
        r"двухфактор\w*|восстанов\w* доступ\w*|\bзаблокир\w*|"
        r"(?:сменить|поменять|изменить) (?:почту|email|e-mail|телефон)|\bapi[- ]?ключ\w*|"
        r"\bapi key|ssh-?ключ\w*"
    ),
}


@dataclass(frozen=True)
class Handoff:
    topics: tuple[str, ...]

    @property
    def about(self) -> str:
        """«возврат денег, недоступность сервера»"""
        return ", ".join(TOPICS[t][0] for t in self.topics)

    @property
    def teams(self) -> str:
        """«оплата и инциденты»"""
        names = list(dict.fromkeys(TOPICS[t][1] for t in self.topics))
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " и " + names[-1]

    @property
    def reason(self) -> str:
        """Why a person should answer: shown to the support agent next to the draft."""
        about = self.about[0].upper() + self.about[1:]
        return (
            f"{about}: глоссарий и калькуляторы на это не отвечают. "
            f"Передать специалисту ({self.teams})."
        )


def triage(message: str) -> Handoff | None:
    """The topics a person must handle, in a stable order; None when there are none."""
    text = re.sub(r"\s+", " ", fold(message))
    found = tuple(topic for topic, pattern in _PATTERNS.items() if pattern.search(text))
    return Handoff(found) if found else None


def handoff_answer(
    handoff: Handoff, message: str, carried: dict[str, Any], prompts_dir: Path
) -> Answer:
    """A polite pointer to the people who decide it: no calculation, no glossary sources."""
    from assistant.schema import Answer, AnswerMeta
    from assistant.text.templates import render

    text = render(prompts_dir, "embedded/handoff.j2", about=handoff.about, teams=handoff.teams)
    meta = AnswerMeta(
        question=message,
        params=carried,
        confidence="low",
        handoff=True,
        handoff_reason=handoff.reason,
    )
    return Answer(answer=text, refused=True, route="out_of_scope", generator="embedded", meta=meta)
