"""Text → its sentences, cut the same way everywhere (the index, the composer, the guard).

split_sentences("NVLink — интерконнект. Он быстрее PCIe.") → ["NVLink — интерконнект.",
                                                              "Он быстрее PCIe."]
"""

from __future__ import annotations

import re

# A sentence ends at . ! ? before a capital, a quote or a camel-case name such as «vLLM»; not
# after «См.» («См. GPU для дообучения.» is one reference, not «См.» and a stray fragment).
_SENTENCE_RE = re.compile(r"(?<=[.!?])(?<!См\.)\s+(?=[A-ZА-ЯЁ«]|[a-z]+[A-Z])")


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_RE.split(text) if s.strip()]
