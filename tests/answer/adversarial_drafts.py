"""Adversarial LLM drafts for the answer checks: what a careless or lying model writes.

Each draft answers a question whose retrieved context is fixed by the real corpus (the markers
[1], [2] … refer to the entries the engine puts in the prompt, in that order; numeric questions
add the calculator's result). `good` drafts state only what their cited sentence or tool result
says — they measure false rejections. Bad kinds:

- moved: a number taken from another claim (another sentence, another entry or tool figure);
- unit: the right number with a swapped unit (ГБ ↔ ГБ/с, $ в месяц ↔ $ в час, GPU ↔ GPU-часы);
- entity: the right number on the wrong GPU, model or precision;
- rounded: a figure rounded away from its source («около 2 ГБ» for 2,15 ГБ, 140 for 141 ГБ);
- citation: a marker with no source, or the right fact cited to the wrong entry;
- outside: a citation of a glossary page that is not in the context;
- invented: a number no source has; headline: a numeric answer without the calculator's
  result (the total, the cost, the fit verdict).

Claims without digits, found from outside (a probe's drafts and a batch written blind,
eval/data/guard_drafts.jsonl), and the kinds added for them:

- words: a wrong number written in words («тысячу двести гигабайт в секунду»);
- relative: a comparison nothing states or implies («у H200 вдвое больше памяти, чем у B300»);
- uncited: an unmarked sentence inventing a fact about the provider; unbacked: a sentence its
  cited entry does not say (a name, a negation, «все», «по данным AMD», «на сервер»);
- alias: another version's figure under an alias («У H100 94 ГБ памяти»);
- markup, hidden: tags, comments, links, bidi and zero-width characters.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Draft:
    question: str
    text: str
    good: bool
    kind: str = "good"


NVLINK = "что такое NVLink?"  # [1] NVLink
GPU_HOUR = "что такое GPU-час?"  # [1] GPU-час
H200 = "какая память у H200?"  # [1] the H200 sheet [2] HBM3e [3] Hopper
NVLINK_PCIE = "чем NVLink отличается от PCIe?"  # [1] NVLink [2] PCIe Gen5
VRAM_70B = "сколько памяти нужно 70B в FP8"  # vram_inference; [1] VRAM [2] FP8
COST = "сколько стоит аренда восьми H100 на неделю?"  # gpu_cost; [1] GPU-час
FIT = "влезет ли Llama 3 70B в FP8 на две L40S?"  # gpu_fit; [1] VRAM [2] FP8
QWEN = "сколько памяти нужно для Qwen 32B в FP8 с контекстом 8k?"  # vram_inference
TDP = "что такое TDP?"  # [1] TDP
NVL72 = "что такое NVL72?"  # [1] NVL72
HBM_GDDR = "чем HBM3e отличается от GDDR7?"  # [1] GDDR7 [2] HBM3e
NCCL = "зачем нужен NCCL?"  # [1] NCCL (a purpose question stays on its entry)
FP8 = "что такое FP8?"  # [1] FP8
LORA = "дообучение 70B с LoRA на H100 влезет?"  # vram_training; [1] VRAM [2] LoRA [3] QLoRA
H100 = "сколько памяти у H100?"  # [1] the H100 SXM sheet [2] Hopper [3] TDP
H200_B300 = "у H200 больше памяти, чем у B300?"  # [1] H200 [2] B300 sheets [3] HBM3e [4] Hopper
H200_H100 = "H200 или H100 по памяти?"  # [1] H200 [2] H100 SXM sheets [3] Hopper [4] HBM3e


def good(question: str, text: str) -> Draft:
    return Draft(question, text, True)


def bad(kind: str, question: str, text: str) -> Draft:
    return Draft(question, text, False, kind)


DIGIT_DRAFTS: tuple[Draft, ...] = (
    # -- NVLink ------------------------------------------------------------------------------------
    good(
        NVLINK,
        "NVLink — высокоскоростной интерконнект NVIDIA для связи между GPU [1]. NVLink "
        "четвёртого поколения в Hopper обеспечивает 900 ГБ/с на GPU, а пятого поколения в "
        "Blackwell — 1,8 ТБ/с [1]. Важнее всего он для тензорного параллелизма [1].",
    ),
    good(
        NVLINK,
        "NVLink — интерконнект NVIDIA, который связывает GPU намного быстрее, чем PCIe: "
        "900 ГБ/с на GPU в Hopper и 1,8 ТБ/с в Blackwell [1]. У карт PCIe, таких как RTX 5090, "
        "его нет [1].",
    ),
    bad(
        "entity",
        NVLINK,
        "NVLink в Hopper обеспечивает 1,8 ТБ/с на GPU, а в Blackwell — 900 ГБ/с [1].",
    ),
    bad("entity", NVLINK, "NVLink пятого поколения даёт 1,8 ТБ/с на GPU у RTX 5090 [1]."),
    bad("unit", NVLINK, "NVLink четвёртого поколения в Hopper обеспечивает 900 ГБ на GPU [1]."),
    bad("rounded", NVLINK, "NVLink пятого поколения в Blackwell даёт около 2 ТБ/с [1]."),
    bad(
        "citation",
        NVLINK,
        "NVLink — интерконнект NVIDIA для связи между GPU [1]; коммутаторы NVSwitch дают "
        "ещё больше [2].",
    ),
    # -- GPU-час -----------------------------------------------------------------------------------
    good(
        GPU_HOUR,
        "GPU-час — час работы одного GPU, стандартная единица для расчёта стоимости GPU-времени "
        "[1]. Например, 8 GPU, работающих 10 часов, расходуют 80 GPU-часов [1]. Один H100 за "
        "2 190 $ в месяц обходится примерно в 3,00 $ за GPU-час [1].",
    ),
    good(
        GPU_HOUR,
        "GPU-час — это час работы одного GPU [1]. Чтобы сравнить цену в месяц с почасовой, "
        "разделите её на число GPU и на 730 — среднее число часов в месяце [1].",
    ),
    bad("moved", GPU_HOUR, "8 GPU, работающих 730 часов, расходуют 80 GPU-часов [1]."),
    bad(
        "moved",
        GPU_HOUR,
        "Один H100 за 2 190 $ в месяц обходится примерно в 80 $ за GPU-час [1].",
    ),
    bad(
        "unit",
        GPU_HOUR,
        "Один H100 за 2 190 $ в час обходится примерно в 3,00 $ за GPU-час [1].",
    ),
    bad("unit", GPU_HOUR, "8 GPU, работающих 10 часов, расходуют 80 GPU [1]."),
    bad("rounded", GPU_HOUR, "Один H100 стоит около 2 000 $ в месяц [1]."),
    bad(  # written by the instruct model: the hourly price called monthly, the period first
        "unit",
        GPU_HOUR,
        "Час одной H100 выходит дешевле, потому что в месяце 730 часов, и цена одной H100 за "
        "месяц составляет примерно 3,00 $ (2 190 $ ÷ 730 часов) [1].",
    ),
    bad(
        "entity",
        GPU_HOUR,
        "Один H200 за 2 190 $ в месяц обходится примерно в 3,00 $ за GPU-час [1].",
    ),
    # -- H200 memory -------------------------------------------------------------------------------
    good(
        H200,
        "H200 построен на архитектуре Hopper и получил память HBM3e [3]. По данным NVIDIA, "
        "HBM3e даёт H200 141 ГБ с пропускной способностью 4,8 ТБ/с [2].",
    ),
    good(
        H200,
        "У H200 память HBM3e: 141 ГБ с пропускной способностью 4,8 ТБ/с [2]. Это улучшенное "
        "поколение HBM3 [2].",
    ),
    bad(
        "entity",
        H200,
        "По данным NVIDIA, HBM3e даёт H200 288 ГБ с пропускной способностью около 8 ТБ/с [2].",
    ),
    bad("entity", H200, "Пропускная способность памяти H200 — около 1,8 ТБ/с [3]."),  # RTX 5090's
    good(H200, "У H200 141 ГБ памяти HBM3e, пропускная способность — 4,8 ТБ/с [1]."),
    bad("citation", H200, "HBM3e даёт H200 141 ГБ с пропускной способностью 4,8 ТБ/с [3]."),
    bad("rounded", H200, "У H200 около 140 ГБ памяти HBM3e [2]."),
    bad("unit", H200, "HBM3e даёт H200 141 ТБ/с [2]."),
    bad(
        "outside",
        H200,
        "У H200 141 ГБ HBM3e [2]; сравнение с H100 — на странице /glossary/h100-vs-h200.",
    ),
    # -- NVLink vs PCIe ----------------------------------------------------------------------------
    good(
        NVLINK_PCIE,
        "NVLink — интерконнект между GPU: 900 ГБ/с на GPU в Hopper и 1,8 ТБ/с в Blackwell [1]. "
        "Канал PCIe Gen5 x16 передаёт около 64 ГБ/с в каждом направлении [2]. Поэтому в "
        "системах без NVLink, как с RTX 5090, связь между GPU медленнее [2].",
    ),
    good(
        NVLINK_PCIE,
        "Оба соединяют GPU, но NVLink намного быстрее: в Blackwell он даёт 1,8 ТБ/с [1], "
        "а канал PCIe Gen5 x16 — около 64 ГБ/с в каждом направлении [2].",
    ),
    bad(
        "moved",
        NVLINK_PCIE,
        "NVLink передаёт около 64 ГБ/с в каждом направлении [1], а PCIe Gen5 — 900 ГБ/с [2].",
    ),
    bad("entity", NVLINK_PCIE, "NVLink передаёт около 64 ГБ/с в каждом направлении [2]."),
    bad(  # written by Qwen2.5-Coder-1.5B-Instruct in the instruct tier: NVLink's figure on PCIe
        "entity",
        NVLINK_PCIE,
        "NVLink значительно быстрее PCIe [1]. Он обеспечивает 900 ГБ/с на GPU, а PCIe пятого "
        "поколения в Blackwell — 1,8 ТБ/с [1].",
    ),
    bad("citation", NVLINK_PCIE, "Канал PCIe Gen5 x16 передаёт около 64 ГБ/с [1]."),
    bad("unit", NVLINK_PCIE, "Канал PCIe Gen5 x16 передаёт около 64 ГБ в каждом направлении [2]."),
    bad("rounded", NVLINK_PCIE, "Канал PCIe Gen5 x16 даёт около 60 ГБ/с [2]."),
    bad("citation", NVLINK_PCIE, "NVLink быстрее PCIe [1][3]."),
    # -- VRAM for 70B in FP8 -----------------------------------------------------------------------
    good(
        VRAM_70B,
        "Для модели 70B в FP8 понадобится около 70 ГБ под веса: 70 млрд параметров × 1 байт. "
        "С запасом 10–30 % на KV-кэш и служебные расходы выйдет около 77–91 ГБ.",
    ),
    good(
        VRAM_70B,
        "Около 77–91 ГБ: веса в FP8 занимают около 1 байта на параметр [2], то есть примерно "
        "70 ГБ, плюс запас 10–30 % на KV-кэш и служебные расходы.",
    ),
    bad("headline", VRAM_70B, "Веса модели 70B в FP8 займут около 70 ГБ: 70 млрд × 1 байт."),
    bad("entity", VRAM_70B, "В BF16 модель 70B займёт около 70 ГБ, а с запасом — 77–91 ГБ."),
    bad("rounded", VRAM_70B, "Для 70B в FP8 понадобится около 80–90 ГБ с запасом."),
    bad(
        "moved",
        VRAM_70B,
        "Для 70B в FP8 нужно около 140 ГБ под веса [1], с запасом — около 77–91 ГБ.",
    ),
    bad("unit", VRAM_70B, "Для 70B в FP8 с запасом понадобится около 77–91 ТБ."),
    # -- cost of eight H100 for a week -------------------------------------------------------------
    good(
        COST,
        "Неделя аренды восьми H100 обойдётся примерно в 4 032 $: 8 GPU × 168 ч = 1 344 GPU-часа "
        "по 3,00 $ за GPU-час. Цена взята для примера: H100 за 2 190 $ в месяц.",
    ),
    good(
        COST,
        "Примерно 4 032 $ (1 344 GPU-часа × 3,00 $) [1]. Месяц считаем как 730 часов, а цену — "
        "как пример из глоссария: 2 190 $ в месяц за один H100 [1].",
    ),
    bad(
        "moved",
        COST,
        "8 GPU, работающих 168 часов, расходуют 80 GPU-часов [1], а неделя обойдётся примерно "
        "в 4 032 $.",
    ),
    bad("headline", COST, "Неделя аренды восьми H100 обойдётся примерно в 2 190 $."),
    bad("headline", COST, "Это 1 344 GPU-часа по 3,00 $ за GPU-час."),
    bad("unit", COST, "Неделя аренды восьми H100 — это 4 032 GPU-часа по 3,00 $ за GPU-час."),
    bad("rounded", COST, "Неделя аренды восьми H100 обойдётся примерно в 4 000 $."),
    bad("entity", COST, "Неделя аренды восьми H200 обойдётся примерно в 4 032 $."),
    good(COST, "Аренда восьми H100 за неделю обойдётся примерно в 4 032 $."),
    # -- fit: Llama 3 70B FP8 on two L40S (79,1–93,5 ГБ; 39,6–46,8 ГБ per GPU) -----------------
    good(
        FIT,
        "Да, поместится: модели нужно около 79–94 ГБ, а на двух L40S по 48 ГБ при тензорном "
        "параллелизме выходит около 46,76 ГБ на GPU.",
    ),
    good(
        FIT,
        "Поместится: Llama 3 70B в FP8 с запасом 10–30 % требует около 79–94 ГБ, это около "
        "47 ГБ на каждую из двух L40S.",
    ),
    bad("headline", FIT, "Не поместится: модели нужно около 79–94 ГБ, а у двух L40S по 48 ГБ."),
    bad("entity", FIT, "Поместится: нужно около 79–94 ГБ, а у L40S 96 ГБ памяти."),
    bad("moved", FIT, "Поместится: около 93,52 ГБ на GPU при тензорном параллелизме."),
    bad("rounded", FIT, "Поместится: нужно около 70–80 ГБ, по 48 ГБ на каждой L40S."),
    # -- Qwen 32B in FP8 with 8k context -----------------------------------------------------------
    good(
        QWEN,
        "Для Qwen3 32B в FP8 с контекстом 8 192 токена нужно около 38–46 ГБ: 32,76 ГБ под веса "
        "и около 2,15 ГБ на KV-кэш, плюс запас 10–30 %.",
    ),
    good(
        QWEN,
        "Около 38–46 ГБ. Веса Qwen3 32B в FP8 займут примерно 32,76 ГБ (1 байт на параметр), "
        "KV-кэш на 8 192 токена в FP16 — около 2,15 ГБ.",
    ),
    bad("entity", QWEN, "Веса Qwen3 32B в BF16 займут около 32,76 ГБ, с запасом — 38–46 ГБ."),
    bad("rounded", QWEN, "KV-кэш добавит около 2 ГБ, итого около 38–46 ГБ."),
    bad(
        "moved",
        QWEN,
        "KV-кэш для контекста 8 192 токена займёт около 32,76 ГБ, итого около 38–46 ГБ.",
    ),
    bad("unit", QWEN, "Итого около 38–46 ГБ, из них KV-кэш — 8 192 ГБ."),
    # -- TDP ---------------------------------------------------------------------------------------
    good(
        TDP,
        "TDP — расчётная тепловая мощность: максимальная длительная мощность в ваттах, которую "
        "чип рассчитан потреблять [1]. Производители указывают около 700 Вт для H100 SXM и "
        "575 Вт для GeForce RTX 5090 [1].",
    ),
    good(
        TDP,
        "TDP (thermal design power) — мощность, которую чип рассчитан потреблять, а система "
        "охлаждения — отводить [1]. Например, для AMD Instinct MI355X с жидкостным охлаждением "
        "производитель указывает 1 400 Вт [1].",
    ),
    bad(
        "entity",
        TDP,
        "Производители указывают около 575 Вт для H100 SXM и 700 Вт для RTX 5090 [1].",
    ),
    bad("rounded", TDP, "У AMD Instinct MI355X TDP около 1 500 Вт [1]."),
    bad("unit", TDP, "Производители указывают около 700 ГБ для H100 SXM [1]."),
    bad("citation", TDP, "TDP — тепловая мощность, для RTX 5090 это 575 Вт [2]."),
    # -- NVL72 -------------------------------------------------------------------------------------
    good(
        NVL72,
        "NVL72 — стоечная архитектура NVIDIA, которая объединяет 72 GPU в один домен NVLink [1]. "
        "GB300 NVL72 объединяет 72 GPU Blackwell Ultra и 36 процессоров Grace, а суммарная "
        "пропускная способность NVLink в ней — около 130 ТБ/с [1].",
    ),
    good(
        NVL72,
        "NVL72 связывает 72 GPU одной стойки через коммутационные модули с NVSwitch, так что "
        "каждый GPU обменивается данными с каждым [1].",
    ),
    bad("moved", NVL72, "GB300 NVL72 объединяет 36 GPU Blackwell Ultra и 72 процессора Grace [1]."),
    bad(
        "rounded",
        NVL72,
        "Суммарная пропускная способность NVLink в GB300 NVL72 — около 100 ТБ/с [1].",
    ),
    bad(
        "unit", NVL72, "Суммарная пропускная способность NVLink в GB300 NVL72 — около 130 ГБ/с [1]."
    ),
    # -- HBM3e vs GDDR7 ----------------------------------------------------------------------------
    good(
        HBM_GDDR,
        "HBM3e размещается в одном корпусе с GPU, и её пропускная способность намного выше, чем "
        "у GDDR [2]. Микросхемы GDDR7 стоят на плате вокруг GPU: это дешевле, но для RTX 5090 "
        "NVIDIA указывает около 1,8 ТБ/с [1], тогда как HBM3e даёт H200 4,8 ТБ/с [2].",
    ),
    good(
        HBM_GDDR,
        "Главное различие — в пропускной способности: у GDDR7 в RTX 5090 около 1,8 ТБ/с, "
        "тогда как у HBM3e в B200 — 8 ТБ/с [1]. HBM3e стоит в одном корпусе с GPU [2].",
    ),
    bad("entity", HBM_GDDR, "Для RTX 5090 с GDDR7 NVIDIA указывает около 8 ТБ/с [1]."),
    bad("entity", HBM_GDDR, "HBM3e даёт B200 288 ГБ [2], а GDDR7 стоит на плате [1]."),
    bad("moved", HBM_GDDR, "HBM3e даёт H200 1,8 ТБ/с [2], GDDR7 — дешевле [1]."),
    bad("citation", HBM_GDDR, "GDDR7 дешевле HBM3e [1], подробнее — в статье о HBM4 [3]."),
    # -- NCCL (no numbers in the sources) ----------------------------------------------------------
    good(
        NCCL,
        "NCCL — библиотека NVIDIA для коллективных операций между GPU: all-reduce, all-gather и "
        "broadcast [1]. Она выбирает самый быстрый путь: NVLink внутри сервера, InfiniBand или "
        "RoCE между серверами [1].",
    ),
    bad("invented", NCCL, "NCCL ускоряет all-reduce в 8 раз по сравнению с PCIe [1]."),
    bad(
        "outside",
        NCCL,
        "NCCL — библиотека NVIDIA для коллективных операций [1]; про RCCL см. /glossary/rocm.",
    ),
    bad("citation", NCCL, "NCCL выбирает самый быстрый путь между GPU [3]."),
    # -- FP8 ---------------------------------------------------------------------------------------
    good(
        FP8,
        "FP8 — 8-битный формат с плавающей запятой в вариантах E4M3 и E5M2 [1]. Веса в FP8 "
        "занимают около 1 байта на параметр, а пиковая скорость матричных вычислений у Hopper "
        "и Blackwell в FP8 вдвое выше, чем в BF16 [1].",
    ),
    bad("entity", FP8, "В BF16 веса занимают около 1 байта на параметр [1]."),
    bad("invented", FP8, "Веса в FP8 занимают около 2 байт на параметр [1]."),
    # -- LoRA fine-tuning fit ----------------------------------------------------------------------
    good(
        LORA,
        "Не поместится: для LoRA-дообучения 70B нужно около 151 ГБ без активаций, а у одной "
        "H100 SXM 80 ГБ.",
    ),
    bad("headline", LORA, "Поместится: нужно около 151 ГБ, у H100 SXM 80 ГБ."),
    good(
        LORA,
        "База 70B хранится в BF16 по 2 байта на параметр, а у H100 SXM 80 ГБ — не поместится.",
    ),
)

# -- claims without digits ------------------------------------------------------------------------
CLAIM_DRAFTS: tuple[Draft, ...] = (
    bad("alias", H100, "У H100 94 ГБ памяти HBM3 [1]."),  # «h100 94 гб» names H100 NVL
    bad("alias", H100, "У H100 94 ГБ памяти HBM3, TDP 700 Вт [1]."),
    good(H100, "У H100 SXM 80 ГБ памяти HBM3, пропускная способность — 3,35 ТБ/с [1]."),
    bad(
        "words",
        NVLINK,
        "NVLink четвёртого поколения в Hopper обеспечивает тысячу двести гигабайт в секунду "
        "на GPU [1].",
    ),
    bad("words", H100, "У H100 SXM восемьдесят гигабайт памяти HBM3 и TDP девятьсот ватт [1]."),
    good(
        NVLINK,
        "NVLink четвёртого поколения в Hopper обеспечивает девятьсот гигабайт в секунду на GPU, "
        "а пятого поколения в Blackwell — одну целую восемь десятых терабайта в секунду [1].",
    ),
    good(H100, "У H100 SXM восемьдесят гигабайт памяти HBM3 [1]. TDP — семьсот ватт [1]."),
    bad("relative", H200_B300, "Да, у H200 вдвое больше памяти, чем у B300 [1][2]."),
    bad("relative", H200_H100, "У H100 SXM памяти больше, чем у H200 [1][2]."),
    bad("relative", H200_H100, "У H200 в три раза больше памяти, чем у H100 SXM [1][2]."),
    bad("relative", NVLINK_PCIE, "PCIe Gen5 передаёт данные намного быстрее, чем NVLink [1]."),
    good(
        H200_B300,
        "Нет: у B300 288 ГБ памяти HBM3e [2], а у H200 — 141 ГБ [1]. Памяти у B300 примерно "
        "вдвое больше [1][2].",
    ),
    good(
        H200_H100,
        "У H200 141 ГБ памяти HBM3e [1], а у H100 SXM — 80 ГБ HBM3 [2]. Памяти у H200 почти "
        "вдвое больше [1][2].",
    ),
    good(
        NVLINK_PCIE,
        "NVLink передаёт данные намного быстрее, чем PCIe: в Hopper — 900 ГБ/с на GPU [1]. "
        "Канал PCIe Gen5 x16 даёт около 64 ГБ/с в каждом направлении — вдвое больше, чем "
        "Gen4 [2].",
    ),
    bad(
        "uncited",
        NVLINK,
        "NVLink — высокоскоростной интерконнект NVIDIA для связи между GPU [1]. Аренда "
        "серверов с NVLink бесплатна для всех клиентов FullGPU.",
    ),
    bad(
        "uncited",
        GPU_HOUR,
        "GPU-час — час работы одного GPU [1]. У нас первый GPU-час для новых клиентов бесплатный.",
    ),
    bad(
        "unbacked",
        NVLINK,
        "NVLink — интерконнект NVIDIA для связи между GPU [1]. У карт PCIe, таких как RTX PRO "
        "6000 Blackwell и RTX 5090, он тоже есть [1].",
    ),
    bad("unbacked", H100, "H100 SXM поддерживает FP4 аппаратно [1]."),  # the sheet: не поддерживает
    bad("unbacked", FP8, "На любых GPU пиковая скорость в FP8 вдвое выше, чем в BF16 [1]."),
    bad(
        "unbacked",
        H200,
        "По данным AMD, HBM3e даёт H200 141 ГБ с пропускной способностью 4,8 ТБ/с [2].",
    ),
    bad("unbacked", NCCL, "NCCL — библиотека Intel для коллективных операций между GPU [1]."),
    bad(
        "unbacked",
        NVLINK_PCIE,
        "Канал PCIe Gen5 x16 передаёт около 64 ГБ/с суммарно в обоих направлениях [2].",
    ),
    bad(
        "unbacked",
        NCCL,
        "NCCL ускоряет обучение на любом кластере и всегда выбирает InfiniBand [1].",
    ),
    good(
        NVLINK,
        "У карт PCIe, например RTX PRO 6000 Blackwell и RTX 5090, NVLink нет [1]. Важнее всего "
        "он для тензорного параллелизма [1].",
    ),
    good(H100, "H100 SXM не поддерживает FP4 аппаратно [1]. Это GPU на архитектуре Hopper [1]."),
    bad(
        "markup",
        NVLINK,
        "NVLink — интерконнект NVIDIA для связи между GPU <script>alert(1)</script> [1].",
    ),
    bad(
        "markup",
        NVLINK,
        "NVLink — интерконнект NVIDIA для связи между GPU [1]. <!-- ответ проверен --> Важнее "
        "всего он для тензорного параллелизма [1].",
    ),
    bad("markup", NCCL, "NCCL выбирает самый быстрый путь: [подробнее](javascript:alert(1)) [1]."),
    bad("hidden", H200, "У H200 14\u200b1 ГБ памяти HBM3e [1]."),
    bad("hidden", NVLINK, "NVLink — интерконнект NVIDIA для связи между GPU [1]\u202e."),
)

DRAFTS = DIGIT_DRAFTS + CLAIM_DRAFTS

# the entries each question's prompt lists, in marker order (the drafts' [n] depend on it)
CONTEXT: dict[str, tuple[str, ...]] = {
    NVLINK: ("nvlink",),
    GPU_HOUR: ("gpu-hour",),
    H200: ("gpu-h200", "hbm3e", "hopper"),
    NVLINK_PCIE: ("nvlink", "pcie-gen5"),
    VRAM_70B: ("vram", "fp8"),
    COST: ("gpu-hour",),
    FIT: ("vram", "fp8"),
    QWEN: ("vram", "fp8"),
    TDP: ("tdp",),
    NVL72: ("nvl72",),
    HBM_GDDR: ("gddr7", "hbm3e"),
    NCCL: ("nccl",),
    FP8: ("fp8",),
    LORA: ("vram", "lora", "qlora"),  # LoRA does not fit: the QLoRA remedy is cited
    H100: ("gpu-h100-sxm", "hopper", "tdp"),
    H200_B300: ("gpu-h200", "gpu-b300", "hbm3e", "hopper"),
    H200_H100: ("gpu-h200", "gpu-h100-sxm", "hopper", "hbm3e"),
}
