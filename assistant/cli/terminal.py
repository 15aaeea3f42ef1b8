"""Text bound for a terminal → the same text with control and bidi characters made visible.

A stored question, a comment or an answer can carry what someone typed: ESC sequences that set a
window title or clear the screen, BEL, 8-bit C1 controls (U+009B is a CSI on some terminals),
a U+202E that reverses the rest of the line. Printed raw they act on the operator's terminal;
here each becomes a visible mark instead (␛ ␇ for C0 controls, ⟨U+202E⟩ for the others), and
JSON output gets `\\u` escapes for them, so the data stays exact and the terminal stays inert.
"""

from __future__ import annotations

import json
import re
from typing import Any

# C0 controls but tab and line feed, DEL, C1 controls, the bidirectional formatting characters
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# JSON escapes C0 itself; these it would print as they are
_JSON_RAW = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode's control pictures: ␛ for ESC, ␇ for BEL
    if code == 0x7F:
        return "␡"
    return f"⟨U+{code:04X}⟩"


def terminal_safe(text: str) -> str:
    """`text` with every control and bidi formatting character shown as a visible mark."""
    return _CONTROL.sub(_visible, text)


def terminal_json(value: Any, **dumps: Any) -> str:
    """`json.dumps(value, ensure_ascii=False)` with the characters above as `\\u` escapes: the
    same data for a program, nothing a terminal would act on."""
    text = json.dumps(value, ensure_ascii=False, **dumps)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
