"""Customer message → Handoff (billing, refunds, complaints, outages, legal, account) or None.

    handoff = triage("Верните деньги за прошлый месяц, сервер не работал три дня!")
    handoff.topics   ("refund", "outage")   (answer/edges.py words the reply and the reason)

These questions are decided by people, not by the glossary: a refund complaint that mentions
«три дня» must not become a GPU-hours calculation. The patterns are deliberately specific
(«за счёт чего» or «какой счёт?» is not an invoice, «простой способ» is not downtime,
«ассистент для юристов» is not a legal question); a miss falls through to
the ordinary routing, which still refuses what the glossary does not cover.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from assistant.text.tokens import fold

Topic = Literal["refund", "billing", "outage", "complaint", "legal", "account"]
_SERVER = r"(?:сервер|машин|инстанс|виртуалк|сервис|панел|кабинет|ssh)\w*"
_PATTERNS: dict[Topic, re.Pattern[str]] = {
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
        r"\bжалоб\w*|пожаловаться|\bпретензи\w*|\bбезобрази\w*|возмутительн\w*|"
        # «вы нас обманули» is about the service; «нвидиа пишет 3352 AI TOPS… нас обманули?» is not
        r"(?:\bвы|\bваш\w*|fullgpu|сервис\w*|поддержк\w*) (?:\w+ ){0,3}?обман\w*|"
        r"\bобман\w* (?:\w+ ){0,3}?(?:\bвы\b|\bвас\b|ваш\w*|сервис\w*|fullgpu)|"
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


# «сервис упал с OOM, когда трейн разогнался»: the customer's own process ran out of memory, a
# problem the entries explain, not the provider's server being down
_OWN_CRASH = re.compile(
    r"(?:упал|упада|пада|вылет|крашн|лег|лежит)\w*\s+(?:\w+\s+){0,2}?(?:с|по|из-за|от)\s+"
    r"(?:oom|out of memory|памят\w*|cuda|nccl)"
)
_UNREACHABLE = re.compile(r"недоступ\w*|не (?:могу|можем|получается) (?:зайти|подключиться)")


@dataclass(frozen=True)
class Handoff:
    """What a person must handle, in a stable order (answer/edges.py says it in Russian)."""

    topics: tuple[Topic, ...]


def triage(message: str) -> Handoff | None:
    """The topics a person must handle, in a stable order; None when there are none."""
    text = re.sub(r"\s+", " ", fold(message))
    found = tuple(topic for topic, pattern in _PATTERNS.items() if pattern.search(text))
    if "outage" in found and _OWN_CRASH.search(text) and not _UNREACHABLE.search(text):
        found = tuple(t for t in found if t != "outage")
    return Handoff(found) if found else None
