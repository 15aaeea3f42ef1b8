"""Message text → Pasted(prose, log): what the person wrote apart from the log they pasted.

    pasted("vllm не стартует:\n\nINFO 03-14 … Model loading took 61.04 GiB\n…\nчто делать?")
    -> Pasted(prose="vllm не стартует:\nчто делать?", log="INFO 03-14 … GiB\n…")

A traceback's «GiB», «train.py» or «_load_pretrained_model» is what the program printed, not
what the customer asks about: the calculator parameters are read from the prose only (reader.py),
while the log still tells what kind of question this is (asks.py) and what to search for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# a line a program printed: an indented code or stack line, a logger's or a stack's first word,
# a timestamp, a REPL prompt, a table of a benchmark («#  size  count …»)
_LOG_LINE = re.compile(
    r"^(?:\s{2,}\S|\t|Traceback\b|File \"|>>>|\.\.\.\s|#|\^|\$ |"
    r"(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)\b|"
    r"\[(?:rank|E\d|W\d|I\d|\d)|\(\w+(?:Worker|Process)\w*\b|[EWIF]\d{4}\s|"
    r"[\w.]*(?:Error|Exception|Warning)\b:?|"
    r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\d\d:\d\d:\d\d|/[\w.-]+/|[\w.-]+:\d+:\d+ \[\d+\]|"
    r"(?:True|False|None)\s*$|(?:Name|Version|Location|Requires|Summary): |Process \w+-\d+:)"
)
_INLINE = re.compile(
    r'\.py", line \d+|\b\w+\.py:\d+\]|\bpid=\d+|\bNCCL (?:INFO|WARN)\b|'
    r"\[(?:ERROR|WARNING|INFO)\]|\b\w*(?:Error|Exception|Warning):"
)


_FAILED = re.compile(
    r"error|exception|fail|fatal|traceback|refused|denied|abort|not compatible|incompatible|"
    r"not supported|unsupported|too old|insufficient|out of memory|overflow|loss: nan|"
    r"is disabled|timed out|killed",
    re.IGNORECASE,
)
# a whole line in `…`: what a program printed, as the person marked it («`NVIDIA GeForce RTX 5090
# with CUDA capability sm_120 is not compatible with the current PyTorch installation.`»)
_INLINE_CODE = re.compile(r"^\s*`[^`]{20,}`[\s.,:;!?]*$")


@dataclass(frozen=True)
class Pasted:
    prose: str  # the person's own lines, in order
    log: str  # the lines a program printed ("" when nothing was pasted)


def is_log_line(line: str) -> bool:
    return bool(_LOG_LINE.match(line) or _INLINE.search(line))


def pasted(text: str) -> Pasted:
    """Split a message into its prose and its pasted log; a one-line message is all prose
    («CUDA out of memory что делать» names the error in the person's own words)."""
    lines = text.splitlines()
    if len(lines) < 2:
        return Pasted(text, "")
    prose: list[str] = []
    log: list[str] = []
    for block, fenced in _blocks(lines):
        # inside ``` … ```: a program's failure as the person marked it, though no line of it
        # looks like a log's («nvidia-container-cli: requirement error: …»); a table is prose
        failed = fenced and bool(_FAILED.search("\n".join(block)))
        for line in block:
            marked = bool(_INLINE_CODE.match(line) and _FAILED.search(line))
            (log if failed or marked or is_log_line(line) else prose).append(line)
    if not log or not prose:  # all log: the first line still says what it is about
        return Pasted(text, "")
    return Pasted("\n".join(prose), "\n".join(log))


def _blocks(lines: list[str]) -> list[tuple[list[str], bool]]:
    """The non-empty lines in runs: (lines, inside a ``` fence); the fence lines dropped."""
    out: list[tuple[list[str], bool]] = [([], False)]
    for line in lines:
        if line.strip().startswith("```"):
            out.append(([], not out[-1][1]))
        elif line.strip():
            out[-1][0].append(line)
    return [(block, fenced) for block, fenced in out if block]
