"""The operations console's logic: stored facts → what editors and support leads read.

Served by api/admin.py (/admin/api, behind ASSISTANT_ADMIN_API_KEY); the content-gap groups
are printed by `assistant report` too, the export written by `assistant export`.

    period.py         two dates in the console's time zone → epoch span, offset, days
    overview.py       per-day series, totals and per-channel rows of a period
    gaps.py           declined and «не помогло» questions → groups by meaning (content gaps)
    lens.py           the one seam to the answer pipeline: embeddings, nearest entries, words
    conversations.py  a page of conversations and one conversation, in Russian labels
    export.py         a period as CSV or JSONL, in chunks
    labels.py         stored codes → Russian words
"""
