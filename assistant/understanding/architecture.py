"""Normalised text → a model architecture stated outright: layers, KV heads, head dimension.

    architecture("kv-кэш: 80 слоев, 8 kv-голов, размерность головы 128", out)
        → out.params == {"layers": 80, "kv_heads": 8, "head_dim": 128}

Read only when all three are written (the KV cache needs each of them); Russian and English
(«28 layers, 4 kv heads, head_dim 128», «num_key_value_heads: 8») and «8 kv-голов по 128».
"""

from __future__ import annotations

import re

from assistant.understanding.amounts import Found, count

_N = r"(\d{1,7})"
_LAYERS = (
    rf"{_N} ?(?:сло[йяе]\w*|layers?)(?![\w])",
    rf"(?:num[_ ]hidden[_ ]layers|n[_ ]layers|layers|сло[её]в)\s*[=:]?\s*{_N}(?![\w.])",
)
_KV_HEADS = (
    rf"{_N} ?(?:kv|кв|key[- ]value)[ _-]?(?:голов\w*|heads?|групп\w*)(?![\w])",
    rf"{_N} ?(?:групп\w*|голов\w*|heads?) (?:kv|кв)(?![\w])",
    rf"(?:num[_ ]key[_ ]value[_ ]heads|n[_ ]kv[_ ]heads|kv[ _-]?heads|kv[ _-]?голов\w*)"
    rf"\s*[=:]?\s*{_N}(?![\w.])",
)
_HEAD_DIM = (
    rf"(?:размерност\w*(?: кажд\w*)?(?: голов\w*)?|размер\w* голов\w*|head[ _]?dim\w*|head[ _]size)"
    rf"\s*[=:-]?\s*(?:в |по )?{_N}(?![\w.])",
    rf"(?:kv|кв)[ _-]?голов\w* по {_N}(?![\w.])",
    rf"{_N} (?:на голову|per head)",
    rf"(?<![\w-])голов[аы]? (?:по |в |= ?)?{_N}(?![\w.])",  # «голова 128»
)


def _first(patterns: tuple[str, ...], t: str) -> int | None:
    for p in patterns:
        m = re.search(p, t)
        if m:
            return count(m.group(1))
    return None


def architecture(t: str, out: Found) -> None:
    """layers, kv_heads, head_dim — all three or nothing."""
    layers, heads, dim = _first(_LAYERS, t), _first(_KV_HEADS, t), _first(_HEAD_DIM, t)
    if layers is not None and heads is not None and dim is not None:
        out.params.update(layers=layers, kv_heads=heads, head_dim=dim)
