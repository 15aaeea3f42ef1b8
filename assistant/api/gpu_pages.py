"""`GET /gpus/{id}` → a plain HTML page of one catalogue card: where a spec sheet's citation lands.

An answer that states a card's memory, bandwidth or TFLOPS cites its sheet («Характеристики
NVIDIA H100 SXM», answer/specs.py); this page shows the same figures as a table, each with the
source the catalogue names for it (corpus/gpus.yaml), so a reader can check where it came from.
Every text is HTML-escaped.
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from assistant.answer.specs import short_name
from assistant.api.deps import CatalogDep
from assistant.api.errors import ApiError
from assistant.api.pages import PAGE_HEADERS
from assistant.calculators.units import NBSP, bandwidth, num
from assistant.corpus.catalog import Gpu

router = APIRouter(include_in_schema=False)


def _tflops(value: float | None) -> str:
    return f"{num(value)}{NBSP}TFLOPS" if value is not None else "—"


def rows(gpu: Gpu) -> list[tuple[str, str, str]]:
    """(label, value, source) of every figure the sheet states, in the sheet's order."""
    src = gpu.sources
    return [
        ("Архитектура", gpu.architecture, src.get("architecture", "")),
        ("Форм-фактор", gpu.form_factor, src.get("form_factor", "")),
        ("Память", f"{num(gpu.memory_gb)}{NBSP}ГБ {gpu.memory_type}", src.get("memory_gb", "")),
        (
            "Пропускная способность памяти",
            bandwidth(gpu.bandwidth_tbs),
            src.get("bandwidth_tbs", ""),
        ),
        ("BF16 без разреженности", _tflops(gpu.bf16_tflops), src.get("bf16_tflops", "")),
        ("FP8 без разреженности", _tflops(gpu.fp8_tflops), src.get("fp8_tflops", "")),
        ("FP4 без разреженности", _tflops(gpu.fp4_tflops), src.get("fp4_tflops", "")),
        ("FP4 аппаратно", "да" if gpu.fp4_support else "нет", src.get("fp4_support", "")),
        ("TDP", f"{num(gpu.tdp_w)}{NBSP}Вт" if gpu.tdp_w else "—", src.get("tdp_w", "")),
        ("Связь между GPU", gpu.interconnect, src.get("interconnect", "")),
        ("В аренде у FullGPU", "да" if gpu.offered else "нет", ""),
    ]


def render_gpu(gpu: Gpu) -> str:
    body = "".join(
        f'<tr><th scope="row">{escape(label)}</th><td>{escape(value)}</td>'
        f"<td><small>{escape(source)}</small></td></tr>"
        for label, value, source in rows(gpu)
    )
    title = f"Характеристики {short_name(gpu)}"
    return (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} — FullGPU</title>"
        '<link rel="stylesheet" href="/widget.css"></head>'
        '<body class="fg-page"><main class="fg-article">'
        '<p><a href="/">← Глоссарий FullGPU</a></p>'
        f"<h1>{escape(title)}</h1>"
        '<div class="fg-table-wrap"><table class="fg-specs">'
        "<thead><tr><th>Характеристика</th><th>Значение</th><th>Источник</th></tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
        "<p><small>Производительность — пиковая, без разреженности, по данным "
        "производителя.</small></p>"
        '</main><script src="/widget.js" data-api=""></script></body></html>'
    )


@router.get("/gpus/{gpu_id}", response_class=HTMLResponse)
async def gpu_page(gpu_id: str, catalog: CatalogDep) -> HTMLResponse:
    gpu = catalog.gpus.get(gpu_id)
    if gpu is None:
        raise ApiError(404, "unknown_gpu", "Такой карты в каталоге нет.")
    return HTMLResponse(render_gpu(gpu), headers=PAGE_HEADERS)
