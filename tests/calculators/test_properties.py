"""Property tests: monotonicity, precision ordering, hourly↔monthly round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import TOOLBOX

SIZES = st.floats(min_value=0.1, max_value=2000, allow_nan=False)
CTX = st.integers(min_value=1, max_value=1_000_000)
BATCH = st.integers(min_value=1, max_value=512)


def mem(**args: object) -> float:
    v = TOOLBOX.run("vram_inference", dict(args)).values["total_high_gb"]
    assert isinstance(v, float)
    return v


@settings(max_examples=60, deadline=None)
@given(a=SIZES, b=SIZES)
def test_monotone_in_parameters(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assert mem(params_b=lo, precision="bf16") <= mem(params_b=hi, precision="bf16")


@settings(max_examples=60, deadline=None)
@given(a=CTX, b=CTX, batch=BATCH)
def test_monotone_in_context(a: int, b: int, batch: int) -> None:
    lo, hi = sorted((a, b))
    args = {"model": "llama-3-8b", "precision": "fp8", "batch": batch}
    assert mem(**args, context_tokens=lo) <= mem(**args, context_tokens=hi)


@settings(max_examples=60, deadline=None)
@given(a=BATCH, b=BATCH, ctx=CTX)
def test_monotone_in_batch(a: int, b: int, ctx: int) -> None:
    lo, hi = sorted((a, b))
    args = {"params_b": 70, "precision": "bf16", "context_tokens": ctx}
    assert mem(**args, batch=lo) <= mem(**args, batch=hi)


@settings(max_examples=40, deadline=None)
@given(size=SIZES, ctx=st.integers(min_value=0, max_value=100_000))
def test_precision_ordering(size: float, ctx: int) -> None:
    order = ["fp32", "bf16", "fp8", "fp4"]
    values = [mem(params_b=size, precision=p, context_tokens=ctx) for p in order]
    assert values == sorted(values, reverse=True)
    assert mem(params_b=size, precision="bf16") == pytest.approx(
        mem(params_b=size, precision="fp16")
    )


@settings(max_examples=80, deadline=None)
@given(price=st.floats(min_value=1, max_value=1_000_000, allow_nan=False))
def test_hourly_monthly_round_trip(price: float) -> None:
    hourly = TOOLBOX.run("gpu_cost", {"price_month": price}).values["price_per_gpu_hour"]
    assert isinstance(hourly, float)
    back = TOOLBOX.run("gpu_cost", {"price_hour": hourly}).values["price_per_gpu_month"]
    assert back == pytest.approx(price, rel=1e-6)


@settings(max_examples=60, deadline=None)
@given(
    gpus=st.integers(min_value=1, max_value=1024), hours=st.floats(min_value=0.1, max_value=5000)
)
def test_gpu_hours_is_product(gpus: int, hours: float) -> None:
    v = TOOLBOX.run("gpu_cost", {"gpus": gpus, "duration": hours}).values
    assert v["gpu_hours"] == pytest.approx(gpus * hours, rel=1e-6)


@settings(max_examples=40, deadline=None)
@given(size=SIZES, n=st.sampled_from([2, 4, 8, 16]))
def test_sharding_never_increases_per_gpu_memory(size: float, n: int) -> None:
    per = [
        float(
            TOOLBOX.run("vram_training", {"params_b": size, "gpus": n, "sharding": s}).values[
                "per_gpu_gb"
            ]  # type: ignore[arg-type]
        )
        for s in ("none", "zero1", "zero2", "zero3")
    ]
    assert per == sorted(per, reverse=True)
