"""One JSON object of an eval set → a frozen, validated row of that set (eval/README.md).

    retrieval.jsonl        RetrievalRow    question, gold entries, category
    problems.jsonl         ProblemRow      + gold_all, and the calculator it needs or must not get
    out_of_scope.jsonl     OutOfScopeRow   question, the refusal kind expected
    numeric*.jsonl         NumericRow      question (+ earlier ones), expected extraction, values
    dialogues.jsonl        DialogueRow     turns with their expectations, a pasted thread
    robustness.jsonl       RobustnessRow   a string that must get an answer, + expectations
    nuggets.jsonl          NuggetRow       what a correct answer must state, per kind of question
    guard_drafts.jsonl     GuardDraftRow   an LLM draft over listed sources, good or bad, and why

Every row names its split and an id. Unknown keys are errors, so a misspelt key fails loudly
instead of leaving a check out; sets.read_rows turns a bad row into a CorpusError naming the
file, the row and the field.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue, model_validator

from assistant.schema import Route

Split = Literal["dev", "test"]
Values = dict[str, JsonValue]  # result values or calculator arguments, as the tools name them


def _one_or_many(value: object) -> object:
    return (value,) if isinstance(value, str) else value


Names = Annotated[tuple[str, ...], BeforeValidator(_one_or_many)]  # a name or a list of names


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Row(_Frozen):
    """What every row of every set has."""

    id: str = Field(min_length=1)
    split: Split
    category: str = ""
    seen: bool = False  # an example the issue reports as seen by hand: kept in dev


class Expectations(_Frozen):
    """What an answer must show (checks.py); a field left out is not checked."""

    route: Route | None = None
    refused: bool | None = None
    slugs_any: tuple[str, ...] | None = None  # at least one of these entries cited
    slugs_all: tuple[str, ...] | None = None  # all of them cited
    tool: str | None = None  # this calculator was called
    not_tool: Names = ()  # none of these was
    values: Values = Field(default_factory=dict)  # the first calculation's values
    not_values: Values = Field(default_factory=dict)  # values it must not have
    arguments: Values = Field(default_factory=dict)  # its inputs include these
    asks_any: tuple[str, ...] | None = None  # the text holds one of these lower-case fragments

    @property
    def given(self) -> bool:
        """Whether the row wrote any expectation at all (`"expect": {}` writes none)."""
        return bool(self.model_fields_set)


class RetrievalRow(Row):
    """A term question and the entries that answer it (two for a comparison)."""

    question: str
    gold: tuple[str, ...] = Field(min_length=1)
    category: str


class ProblemRow(RetrievalRow):
    """A problem as customers write it; any `gold` entry among the first three is a hit."""

    gold_all: tuple[str, ...] = ()  # entries an answer needs together (reported as all_of)
    route: Route | None = None
    tool: str | None = None
    not_tool: Names = ()

    @property
    def expectations(self) -> Expectations | None:
        """The row's own expectations on the answer (route, calculator), if it has any."""
        if not {"route", "tool", "not_tool"} & self.model_fields_set:
            return None
        return Expectations(route=self.route, tool=self.tool, not_tool=self.not_tool)


class OutOfScopeRow(Row):
    """A question the glossary must not answer, and how the assistant must decline it."""

    question: str
    expect: Literal["refuse", "not_found", "injection"]


class NumericExpect(_Frozen):
    """What the understanding must extract from a calculation question."""

    is_numeric: bool = True
    tool: str | None = None
    arguments: Values = Field(default_factory=dict)  # exactly these; durations in hours
    missing: tuple[str, ...] = ()  # what the assistant must ask for


class NumericRow(Row):
    """A calculation question (after earlier ones of the same conversation), its extraction and
    the values its first result must have."""

    question: str
    after: tuple[str, ...] = ()
    expect: NumericExpect
    values: Values = Field(default_factory=dict)


class DialogueTurn(_Frozen):
    user: str
    expect: Expectations = Field(default_factory=Expectations)


class ThreadMessage(_Frozen):
    """A message of a pasted support thread: the customer's side is the user's."""

    role: Literal["customer", "agent", "user", "assistant"]
    content: str


class DialogueRow(Row):
    """Turns answered in order in one conversation, after the pasted thread if any."""

    turns: tuple[DialogueTurn, ...] = Field(min_length=1)
    thread: tuple[ThreadMessage, ...] = ()


class RobustnessRow(Row):
    """A string that must always get an answer, with optional expectations on it."""

    text: str
    expect: Expectations = Field(default_factory=Expectations)


class DraftSource(_Frozen):
    """One source a draft's markers point to: a glossary entry, a GPU's spec sheet or a
    model's record in the catalogue (exactly one of them)."""

    entry: str | None = None
    gpu: str | None = None
    model: str | None = None

    @model_validator(mode="after")
    def _one(self) -> DraftSource:
        if sum(x is not None for x in (self.entry, self.gpu, self.model)) != 1:
            raise ValueError("нужно ровно одно из entry, gpu, model")
        return self


class GuardDraftRow(Row):
    """An LLM draft answering `question` from `sources` ([1] is the first), written blind: a
    `good` one the guard must deliver, a `bad` one it must reject; `category` is the kind of
    mistake (or of correct wording), `why` says what is wrong or right with it."""

    category: str = Field(min_length=1)
    verdict: Literal["good", "bad"]
    question: str
    sources: tuple[DraftSource, ...] = Field(min_length=1)
    draft: str
    why: str = ""


# file stem → the row of that set (both numeric sets share one format)


class NuggetSpec(_Frozen):
    """One fact an answer must state: alternative patterns over the normalised answer text."""

    id: str = Field(min_length=1)
    any: tuple[str, ...] = Field(min_length=1)
    lead: bool | None = None  # the first sentence must state it
    source: str = ""  # where the fact comes from (an entry, a catalogue field, a calculation)


class NuggetRow(Row):
    """A question of a kind (fact, choice, error_log…), written blind, and its facts."""

    kind: str = Field(min_length=1)
    question: str
    gold: tuple[str, ...] = ()  # the entries a good answer would cite
    nuggets: tuple[NuggetSpec, ...] = ()
    forbid: tuple[str, ...] = ()  # patterns that must not appear
    expect: Literal["decline"] | None = None  # out of scope: a correct answer declines
    nearest: tuple[str, ...] = ()
    note: str = ""


SET_ROWS: dict[str, type[Row]] = {
    "retrieval": RetrievalRow,
    "problems": ProblemRow,
    "out_of_scope": OutOfScopeRow,
    "numeric": NumericRow,
    "numeric_phrased": NumericRow,
    "dialogues": DialogueRow,
    "robustness": RobustnessRow,
    "nuggets": NuggetRow,
    "guard_drafts": GuardDraftRow,
}
