"""`assistant eval answers` logic on a scripted pipeline: splits side by side, caught exceptions,
problem-set citations, calculations, follow-ups with threads, robustness expectations, targets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assistant.errors import InputError
from assistant.evaluation import sections
from assistant.evaluation.answers import evaluate
from assistant.evaluation.recorder import Recorder
from assistant.evaluation.rows import DialogueRow, NumericRow, ProblemRow, RobustnessRow
from assistant.evaluation.scoring import section
from assistant.evaluation.sets import R, SplitChoice
from assistant.schema import Answer, Turn
from tests.evaluation.stand_in import ScriptedPipeline, reply


def _write(folder: Path, name: str, rows: list[dict[str, Any]]) -> None:
    text = "\n".join(json.dumps(r, ensure_ascii=False) for r in rows)
    (folder / f"{name}.jsonl").write_text(text + "\n", encoding="utf-8")


def _rows(model: type[R], rows: list[dict[str, Any]]) -> list[R]:
    """Rows as the runner reads them from a file."""
    return [model.model_validate(r) for r in rows]


def test_a_crash_is_counted_and_the_run_goes_on() -> None:
    pipe = ScriptedPipeline(
        {
            "boom": OverflowError("int too large"),
            "пусто": InputError("Пустое сообщение"),
            "🤖": reply("greeting"),
        }
    )
    rows = [
        {"id": "x1", "split": "test", "category": "absurd", "text": "boom"},
        {"id": "x2", "split": "test", "category": "blank", "text": "пусто"},
        {"id": "x3", "split": "test", "category": "emoji", "text": "🤖"},
    ]
    rec = Recorder(pipe)
    items = sections.robustness(rec, _rows(RobustnessRow, rows))
    report = section(items, ("test",)).columns["test"]
    assert [m for m, _ in pipe.seen] == ["boom", "пусто", "🤖"]  # nothing aborted the run
    assert report.value("answered") == round(1 / 3, 4)
    assert report.value("crashed") == round(1 / 3, 4)  # OverflowError is a crash, not InputError
    assert dict(rec.failures) == {"OverflowError": 1, "InputError": 1}


def test_robustness_expectations_catch_a_year_read_as_a_duration() -> None:
    year = "Кто стал чемпионом мира по хоккею в 2019 году?"
    negative = "сколько памяти нужно -13B в FP16?"
    pipe = ScriptedPipeline(
        {
            year: reply("numeric", tool="gpu_cost", values={"hours": 17686440}),
            negative: reply("numeric", tool="vram_inference", values={"weights_gb": 26}),
        }
    )
    rows = [
        {
            "id": "x1",
            "split": "dev",
            "category": "year",
            "text": year,
            "expect": {"refused": True, "not_tool": ["gpu_cost"]},
        },
        {
            "id": "x2",
            "split": "dev",
            "category": "absurd",
            "text": negative,
            "expect": {"not_values": {"weights_gb": 26}},
        },
    ]
    items = sections.robustness(Recorder(pipe), _rows(RobustnessRow, rows))
    assert [i.checks["answered"] for i in items] == [True, True]
    assert [i.checks["expectations"] for i in items] == [False, False]
    problems = items[0].miss.problems if items[0].miss else ()
    assert any("отказ" in p for p in problems) and any("gpu_cost" in p for p in problems)


def test_problem_set_counts_any_gold_in_top_three_and_all_of_separately() -> None:
    q1, q2 = "пять стажёров на одном GPU — можно?", "LoRA или QLoRA?"
    pipe = ScriptedPipeline(
        {
            q1: reply("term", ["gpu-hour", "hopper", "vgpu", "mig"]),  # vgpu is third: a hit
            q2: reply("term", ["lora", "vram"]),  # qlora never cited: all_of fails
        }
    )
    rows = [
        {
            "id": "p1",
            "split": "dev",
            "category": "can-i",
            "question": q1,
            "gold": ["mig", "time-slicing", "vgpu"],
        },
        {
            "id": "p2",
            "split": "dev",
            "category": "choose",
            "question": q2,
            "gold": ["lora", "qlora"],
            "gold_all": ["lora", "qlora"],
        },
    ]
    items = sections.problems(Recorder(pipe), _rows(ProblemRow, rows))
    assert [i.checks["citation_hit@3"] for i in items] == [True, True]
    assert items[0].checks["citation_precision"] == 0.5  # vgpu, mig of four cited
    assert [i.checks["all_of"] for i in items] == [None, False]


def test_problem_set_checks_the_calculator_expectation() -> None:
    q = "Сколько токенов в секунду выдаст H100 на Llama 70B?"
    pipe = ScriptedPipeline({q: reply("clarify", ["vram"], tool="gpu_fit")})
    row = {
        "id": "p1",
        "split": "dev",
        "category": "slow",
        "question": q,
        "gold": ["tokens-per-second"],
        "not_tool": ["gpu_fit", "vram_inference"],
    }
    item = sections.problems(Recorder(pipe), _rows(ProblemRow, [row]))[0]
    assert item.checks["citation_hit@3"] is False and item.checks["expectations"] is False
    assert item.miss is not None and item.miss.cited == ("vram",)


def test_numeric_exact_values_clarify_and_not_a_calculation() -> None:
    pipe = ScriptedPipeline(
        {
            "16 карт H100 в течение 5 дней": reply("term", ["gpu-hour"]),
            "8 H100 на неделю": reply(
                "numeric", tool="gpu_cost", values={"gpu_hours": 1344, "job_cost": 4032.0001}
            ),
            "Влезет ли 8B на RTX 3060?": reply("clarify", text="Сколько памяти у этой карты?"),
            "что такое FP8?": reply("term", ["fp8"], tool="vram_inference"),
        }
    )
    rows = [
        {
            "id": "q1",
            "split": "test",
            "category": "duration-words",
            "question": "16 карт H100 в течение 5 дней",
            "expect": {"tool": "gpu_cost"},
            "values": {"gpu_hours": 1920},
        },
        {
            "id": "q2",
            "split": "test",
            "question": "8 H100 на неделю",
            "expect": {"tool": "gpu_cost"},
            "values": {"gpu_hours": 1344, "job_cost": 4032},
        },
        {
            "id": "q3",
            "split": "test",
            "category": "unknown-gpu",
            "question": "Влезет ли 8B на RTX 3060?",
            "expect": {"tool": "gpu_fit", "missing": ["gpu_memory"]},
        },
        {
            "id": "n1",
            "split": "test",
            "question": "что такое FP8?",
            "expect": {"is_numeric": False},
        },
    ]
    items = sections.numeric(Recorder(pipe), _rows(NumericRow, rows), "numeric_phrased")
    assert [i.checks.get("exact") for i in items] == [False, True, True, None]
    assert items[1].category == "numeric_phrased"  # no category: counted under its file
    assert items[3].checks["not_calculated"] is False  # a definition must not be calculated
    report = section(items, ("test",)).columns["test"]
    assert report.value("exact") == round(2 / 3, 4) and report.count("exact") == 3


def _fit_if_context(history: list[Turn] | Any) -> Answer:
    """Answers the follow-up right only when the earlier calculation's params arrived."""
    carried = [t for t in history if t.role == "assistant" and t.params.get("model")]
    values = {"verdict": "fits"} if carried else {}
    return reply("numeric", tool="gpu_fit", values=values)


def test_dialogue_turns_carry_history_and_count_calculation_follow_ups() -> None:
    first = "Планируем Mistral 7B в FP16, контекст 8k, 10 пользователей"
    pipe = ScriptedPipeline(
        {
            first: reply("numeric", tool="vram_inference", params={"model": "mistral-7b"}),
            "одной L40S хватит?": _fit_if_context,
            "L40S или H100 — что взять?": reply("clarify"),
        }
    )
    fits = {"route": "numeric", "tool": "gpu_fit", "values": {"verdict": "fits"}}
    rows = [
        {
            "id": "d1",
            "split": "dev",
            "category": "calc-followup",
            "turns": [
                {"user": first, "expect": {"route": "numeric"}},
                {"user": "одной L40S хватит?", "expect": fits},
            ],
        },
        {
            "id": "d2",
            "split": "dev",
            "category": "support-thread",
            "thread": [
                {"role": "customer", "content": "Llama 2 13B, FP16, контекст 4k"},
                {"role": "agent", "content": "На каких картах?"},
            ],
            "turns": [{"user": "L40S или H100 — что взять?", "expect": fits}],
        },
        {"id": "d3", "split": "dev", "turns": [{"user": "одной L40S хватит?", "expect": fits}]},
    ]
    items = sections.dialogues(Recorder(pipe), _rows(DialogueRow, rows))
    assert [i.id for i in items] == ["d1#1", "d1#2", "d2#1", "d3#1"]
    assert [i.checks["turns"] for i in items] == [True, True, False, False]
    # the first turn has no context; d3 is not a calculation dialogue
    assert [i.checks["calc_followup_turns"] for i in items] == [None, True, False, None]
    assert [i.checks.get("dialogues") for i in items] == [True, None, False, False]
    thread = pipe.seen[2][1]
    assert [(t.role, t.content) for t in thread] == [
        ("user", "Llama 2 13B, FP16, контекст 4k"),
        ("assistant", "На каких картах?"),
    ]


def _eval_dir(tmp_path: Path) -> Path:
    _write(
        tmp_path,
        "retrieval",
        [
            {
                "id": "r1",
                "split": "dev",
                "question": "что такое nvlink",
                "gold": ["nvlink"],
                "category": "direct",
            },
            {
                "id": "r2",
                "split": "test",
                "question": "что такое mig",
                "gold": ["mig"],
                "category": "direct",
            },
        ],
    )
    _write(
        tmp_path,
        "problems",
        [
            {
                "id": "p1",
                "split": "dev",
                "question": "карты не видят друг друга",
                "gold": ["nvlink"],
                "category": "symptom",
            },
            {
                "id": "p2",
                "split": "test",
                "question": "пять стажёров на одном GPU",
                "gold": ["mig"],
                "category": "can-i",
            },
        ],
    )
    _write(
        tmp_path,
        "out_of_scope",
        [
            {
                "id": "o1",
                "split": "test",
                "question": "погода в москве",
                "expect": "refuse",
                "category": "weather",
            },
        ],
    )
    _write(
        tmp_path,
        "numeric",
        [
            {
                "id": "v1",
                "split": "test",
                "question": "70B в FP8",
                "expect": {"tool": "vram_inference"},
                "values": {"weights_gb": 70},
            },
        ],
    )
    _write(tmp_path, "numeric_phrased", [])
    _write(tmp_path, "dialogues", [])
    _write(
        tmp_path,
        "robustness",
        [
            {"id": "x1", "split": "test", "category": "absurd", "text": "boom"},
        ],
    )
    memory = {"id": "mem", "any": ["288 ?гб"], "lead": True}
    kind = {"id": "type", "any": ["hbm3e"]}
    _write(
        tmp_path,
        "nuggets",
        [
            {
                "id": "n1",
                "split": "dev",
                "kind": "fact",
                "question": "сколько памяти у B300?",
                "nuggets": [memory, kind],
            },
            {
                "id": "n2",
                "split": "dev",
                "kind": "fact",
                "question": "а у B300 какая память?",
                "nuggets": [memory, kind],
            },
            {
                "id": "n3",
                "split": "test",
                "kind": "out_of_scope",
                "expect": "decline",
                "question": "как писать ядра на Triton?",
            },
        ],
    )
    return tmp_path


def _pipe() -> ScriptedPipeline:
    return ScriptedPipeline(
        {
            "что такое nvlink": reply("term", ["nvlink"]),
            "что такое mig": reply("term", ["mig"]),
            "карты не видят друг друга": reply("term", ["cuda"]),
            "пять стажёров на одном GPU": reply("term", ["mig"]),
            "70B в FP8": reply("numeric", tool="vram_inference", values={"weights_gb": 70.0}),
            "boom": ValueError("bug"),
            # the fact first, then its type: complete
            "сколько памяти у B300?": reply(text="У B300 288 ГБ. Это память HBM3e [1]."),
            # the type first, the figure later: complete, but the lead is not the fact
            "а у B300 какая память?": reply(text="Память HBM3e. Её 288 ГБ [1]."),
            "как писать ядра на Triton?": reply(refused=True, text="В глоссарии нет ответа."),
        }
    )


def test_report_puts_dev_and_test_side_by_side_with_targets_and_dev_misses_only(
    tmp_path: Path,
) -> None:
    report = evaluate(_pipe(), _eval_dir(tmp_path))
    assert report.columns == ("dev", "test")
    said = report.sections["nuggets_complete"].columns["dev"]
    assert said.value("complete") == 1.0 and said.value("recall") == 1.0
    assert report.sections["nuggets_lead"].columns["dev"].value("lead") == 0.5
    assert report.sections["nuggets"].columns["test"].value("declined") == 1.0
    problems = report.sections["problems"].columns
    assert problems["dev"].value("citation_hit@3") == 0.0
    assert problems["test"].value("citation_hit@3") == 1.0
    assert [m.id for m in report.sections["problems"].misses] == ["p1"]
    assert report.sections["robustness"].misses == ()  # x1 is a test row: not listed
    met = {(t.section, t.metric): t.met for t in report.targets}
    assert met[("problems", "citation_hit@3")] is True  # the test figure, not dev's 0.0
    assert met[("numeric", "exact")] is True
    assert met[("robustness", "answered")] is False
    assert report.exceptions == {"ValueError": 1}
    printed = json.loads(json.dumps(report.as_json()))  # what `--json` prints
    assert list(printed) == [
        "generator_config",
        "columns",
        "sections",
        "targets",
        "grounding",
        "exceptions",
        "generators",
        "latency",
    ]
    assert printed["sections"]["problems"]["misses"][0]["id"] == "p1"


def test_split_choice_answers_only_the_rows_it_reports(tmp_path: Path) -> None:
    pipe = _pipe()
    report = evaluate(pipe, _eval_dir(tmp_path), choice=SplitChoice.test)
    assert report.columns == ("test",)
    assert "что такое nvlink" not in [m for m, _ in pipe.seen]
    assert all(not data.misses for data in report.sections.values())
    pooled = evaluate(_pipe(), _eval_dir(tmp_path), choice=SplitChoice.all)
    assert pooled.columns == ("all",) and pooled.targets == ()
    assert pooled.sections["in_scope"].columns["all"].n == 2
