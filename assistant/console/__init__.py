"""The operations console's logic: stored facts → what editors and support leads read.

period.py         two dates in the console's time zone → epoch span, offset, days
overview.py       per-day series, totals and per-channel rows of a period
labels.py         stored codes → Russian words
"""
