"""Calculator parameters read from a message or carried from the previous turn → one frozen,
typed record (`Params`), and back to the plain mapping a turn stores.

    p = Params.of({"params_b": 70, "precision": "fp8"})     # a stored turn's params
    p.params_b, p.has("model", "params_b")                  # 70, True
    p.updated(precision="bf16").without("params_b")         # new records; None = absent
    p.stored()                                              # {"params_b": 70, …}: JSON again

A value is present when it is not None: the readers never store None on purpose. Values are
kept exactly as read (an int stays an int: «70B» is 70, «7.5B» is 7.5), and out-of-range ones
too («-13B», «1e400» as inf): the limits explain them (calculators/limits.py), the reader does
not judge them. Unknown keys of an old stored turn are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from assistant.calculators.base import Argument

Number = int | float


class Params(BaseModel):
    """Every parameter a calculator takes, what the readers note about a message, and the
    conversation state a follow-up needs (`tool`, `asked`, `price_asked`, `gpus_advised`)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    # the model: a catalogue id or a size in billions; its architecture stated outright
    model: str | None = None
    params_b: Number | None = None
    layers: Number | None = None
    kv_heads: Number | None = None
    head_dim: Number | None = None
    # inference
    precision: str | None = None
    kv_precision: str | None = None
    compare_precisions: tuple[str, ...] | None = None  # «BF16 или FP8?»: each one computed
    context_tokens: Number | None = None
    batch: Number | None = None
    quant_scales: bool | None = None
    overhead_low_pct: Number | None = None
    overhead_high_pct: Number | None = None
    gib: bool | None = None
    # the card: a catalogue GPU, or one outside it by its label and memory
    gpu: str | None = None
    gpus: Number | None = None
    gpu_memory_gb: Number | None = None
    gpu_label: str | None = None
    required_gb: Number | None = None
    # training
    method: str | None = None
    compare_methods: tuple[str, ...] | None = None  # «фулл файнтюн или LoRA?»: each one computed
    sharding: str | None = None
    compare_sharding: tuple[str, ...] | None = None  # «DDP или FSDP?»: a copy on each and sharded
    lora_trainable_pct: Number | None = None
    # cost
    price_month: Number | None = None
    price_hour: Number | None = None
    price_scope: str | None = None
    duration: Number | None = None
    duration_unit: str | None = None
    hours_per_month: Number | None = None
    hours_per_day: Number | None = None  # «гоняем часов 10 в сутки»: the hours used, by the hour
    egress: bool | None = None
    # the conversation so far
    tool: str | None = None  # the calculator of the previous answer
    asked: str | None = None  # the parameter its question back asked for
    price_asked: bool | None = None  # a price was asked about: a cost needs one
    gpus_advised: Number | None = None  # the GPU count a fit advised («столько карт»)

    @classmethod
    def of(cls, stored: object) -> Params:
        """A stored turn's mapping (or a Params) → Params; anything else → no parameters."""
        if isinstance(stored, Params):
            return stored
        if not isinstance(stored, dict):
            return cls()
        return _valid({k: v for k, v in stored.items() if v is not None})

    def has(self, *keys: str) -> bool:
        """Some of these keys has a value."""
        return any(getattr(self, k, None) is not None for k in keys)

    def present(self) -> frozenset[str]:
        """The keys with a value."""
        return frozenset(k for k in type(self).model_fields if getattr(self, k) is not None)

    def __bool__(self) -> bool:
        return bool(self.present())

    def updated(self, **values: Any) -> Params:
        """A copy with these values (None removes a key)."""
        data = self.stored()
        for key, value in values.items():
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
        return _valid(data)

    def without(self, *keys: str) -> Params:
        return self.updated(**dict.fromkeys(keys))

    def merged(self, other: Params) -> Params:
        """These values, then the other's on top (theirs win)."""
        return _valid({**self.stored(), **other.stored()})

    def only(self, keys: frozenset[str] | set[str]) -> Params:
        """The values of these keys only (a calculator's own arguments)."""
        return _valid({k: v for k, v in self.stored().items() if k in keys})

    def stored(self) -> dict[str, Argument]:
        """The plain mapping a turn stores and a calculator validates, in field order; a tuple
        is a list again, as JSON has it."""
        out: dict[str, Argument] = {}
        for key in type(self).model_fields:
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value) if isinstance(value, tuple) else value
        return out


def _valid(data: Mapping[str, object]) -> Params:
    """Params of these values; a value of the wrong type (an LLM's tool call, an old stored
    turn) is dropped rather than failing the message."""
    try:
        return Params.model_validate(data)
    except ValidationError as e:
        bad = {str(err["loc"][0]) for err in e.errors() if err["loc"]}
        return Params.model_validate({k: v for k, v in data.items() if k not in bad})
