"""Two calendar dates (inclusive) in the console's time zone → the epoch span and its days.

    period = Period.parse("2026-03-01", "2026-03-31", "Europe/Moscow")   # or Period.last(30, tz)
    period.span      # Span(start, end): [local midnight of the first day, of the day after last)
    period.offset    # the zone's UTC offset in seconds, for the SQL day buckets
    period.days      # every day number in it, oldest first (empty days are charted too)

A wrong date is a PeriodError with a Russian message (the console shows it as is).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from assistant.storage.rows import Span

MAX_DAYS = 731  # two years: a chart bar per day stays readable, a query stays bounded
EPOCH = date(1970, 1, 1)


class PeriodError(ValueError):
    """A period the console cannot show: the message says why, in Russian."""


@dataclass(frozen=True)
class Period:
    first: date
    last: date
    zone: str

    @classmethod
    def parse(cls, first: str, last: str, zone: str) -> Period:
        try:
            start, end = date.fromisoformat(first), date.fromisoformat(last)
        except ValueError:
            raise PeriodError("Даты периода — в виде ГГГГ-ММ-ДД, например 2026-03-01.") from None
        if end < start:
            raise PeriodError("Конец периода раньше его начала.")
        if (end - start).days + 1 > MAX_DAYS:
            raise PeriodError(f"Период длиннее {MAX_DAYS} дней: выберите покороче.")
        return cls(start, end, zone)

    @classmethod
    def last_days(cls, days: int, zone: str, today: date | None = None) -> Period:
        end = today or datetime.now(ZoneInfo(zone)).date()
        return cls(end - timedelta(days=max(1, days) - 1), end, zone)

    def _midnight(self, day: date) -> float:
        return datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(self.zone)).timestamp()

    @property
    def span(self) -> Span:
        return Span(self._midnight(self.first), self._midnight(self.last + timedelta(days=1)))

    @property
    def offset(self) -> int:
        """Seconds east of UTC at the period's end (days are cut at this offset throughout)."""
        moment = datetime.fromtimestamp(self.span.end - 1, ZoneInfo(self.zone))
        delta = moment.utcoffset()
        return int(delta.total_seconds()) if delta else 0

    @property
    def days(self) -> list[int]:
        first = (self.first - EPOCH).days
        return list(range(first, (self.last - EPOCH).days + 1))


def day_date(day: int) -> date:
    return EPOCH + timedelta(days=day)


def local_time(epoch: float, zone: str) -> datetime:
    return datetime.fromtimestamp(epoch, ZoneInfo(zone))
