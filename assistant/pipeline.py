"""Conversation (question + history) → Answer; the composition root `build_pipeline(settings)`.

Interface used by every channel (CLI, HTTP, widget, Telegram):

    pipeline = build_pipeline(Settings())
    answer: Answer = pipeline.answer("что такое nvlink", history=[])
    for event in pipeline.stream("а в FP8?", history=turns):   # StreamEvent: delta… then done
        ...

`history` is a list of `schema.Turn` (oldest first). The returned Answer's route/params let the
caller store the turn; `pipeline.turns_for(question, answer)` gives the two Turns to persist.
"""

from __future__ import annotations
