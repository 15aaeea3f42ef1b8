"""The words the understanding stage reads messages with, each list defined once: regex
fragments (no anchors, no flags) that the readers compose into their patterns.

    CARD        a graphics card, slang included: stems («видеокарт», «видюх», «карт», «gpu»…)
    CARD_WORD   a whole card word: «карта», «картами», «видюху», «GPUs» — not «картинка»
    RUN_VERB    running a model: «запустить», «крутить», «гонять», «задеплоить» (stems)
    FIT         whether something fits: «поместится», «влезет», «хватит», «потянет» (stems)
    PRICE       a price or a cost: «стоит», «стоимость», «цена», «обойдётся», «оплата» (stems)
    PRICE_EN    the same in English: «cost», «price»
    OPENER      how a follow-up opens: «а», «и», «ну а», «тогда», «ок, а» (whole words)
    DEFINITION  asking what something is: «что такое», «что значит», «что означает»
    PRONOUN     a word that points back at the previous answer's topic («его», «это», «it»)
    DURATION    rental units by name: hours, days, weeks, months, years (whole words)
    HOUR_WORD   «час», «часа», «часов», «часик» — not «часть», «частично»
    OURS        FullGPU addressed as the owner of what is asked: «у вас», «ваш…», «FullGPU»
    YOU         FullGPU addressed as the one who acts: «вы», «вам», «с вас», «у себя»
    OUR_THING   what FullGPU has, after «ваш…»: «сервер», «тариф», «сеть», «нода», a card
    ACTIVE      an MoE's active parameters: «активных всего 13B», «active params», «на токен»
    AI_TOPS     AI TOPS as written: «ai tops», «TOPS», «топсов»
    FP64        double precision as written: «fp64», «double», «двойной точности»
    FIGURES     a kind of figure: how a question asks for it, how a text states it

Changing a list changes every reader that uses it; `assistant eval answers` on dev shows what
that does.
"""

from __future__ import annotations

CARD = r"(?:видеокарт|видюх|видях|карточ|гпушк|карт|gpu|гпу|джипию|ускорител)"
CARD_WORD = (
    r"(?:(?:видеокарт|видюх|видях|карточ|гпушк|ускорител)\w*|"
    r"карт(?:[аыуе]|ой|ою|ам|ами|ах)?(?![\w])|gpus?(?![\w])|гпу(?![\w])|джипию(?![\w]))"
)
RUN_VERB = r"(?:запуск|запуст|крут|гоня|гнать|подня|подним|разверн|развора|держ|хост|(?:за)?депло)"
FIT = r"(?:помест|влез|влаз|хват|войд|уместит|запуст|потян)"
PRICE = r"(?:стои|стоимост|цен|заплат|обойд|обход|бюджет|оплат)"
PRICE_EN = r"(?:cost\w*|pric\w*)"
OPENER = r"(?:а|и|ну а|тогда|если|а если|а теперь|(?:ок|окей|ok|okay),? а|хорошо,? а)"
DEFINITION = r"(?:что так\w*|что значит|что означа\w*)"
# wanting it fast, or finding it slow («шустрый», «тормозит», «ползёт»)
FAST = (
    r"быстр\w*|шустр\w*|скорост\w*|медленн\w*|вял\w*|тормоз\w*|полз[её]т|ползут|latency|задержк\w*|\bfast\w*|"
    r"speed"
)
# a model writing its answer, not training: what memory bandwidth bounds
GENERATION = r"генер\w*|токен\w*|инференс\w*|decod\w*|inference|tok/s|tokens?"
PRONOUN = (
    r"(?:его|её|ее|их|него|неё|нее|них|ним|ней|нём|нем|ними|он|она|оно|они|это|этот|эта|эти|"
    r"этого|этой|этим|тот|та|там|тут|it|its|this|that)"
)
# the words by which a customer addresses FullGPU (whole words; readers add the boundaries)
OURS = r"(?:у вас|ваш\w*|fullgpu|фулгпу|фуллгпу)"
YOU = r"(?:вы|вами|вам|с вас|у себя)"
OUR_THING = (
    rf"(?:сервер\w*|тариф\w*|{CARD}\w*|сет[иь]\w*|нод\w*|машин\w*|инфраструктур\w*|"
    r"дата-?центр\w*|облак\w*|вм\w*|виртуалк\w*)"
)
# double precision as written: «fp64», «double precision», «двойной точности»
# plain data parallelism, a full copy on each card («DDP», «обычный data parallel»)
DATA_PARALLEL = r"(?<![\w])(?:ddp|distributeddataparallel|data parallel\w*|дп)(?![\w])"
FP64 = r"(?:fp ?64|фп ?64|float ?64|double(?: precision)?|двойн\w* точност\w*)"
# AI TOPS, the peak vendors state for AI at low precision with sparsity («3352 AI TOPS»)
AI_TOPS = r"(?:ai[- ]?tops|tops|топс\w*)"
# the parameters an MoE computes with per token, which a customer takes for what must fit
ACTIVE = r"актив\w*|active|на (?:каждый |один )?токен\b|per token"
HOUR_WORD = r"час(?:ами|ах|ам|ов|ы|а|ик\w*|ок)?\b"
DURATION = {
    "hours": rf"{HOUR_WORD}|ч\b|h\b|hours?",
    "days": r"сут\w*|дн\w*|день|days?",
    "weeks": r"недел\w*|weeks?",
    "months": r"месяц\w*|мес\b|months?",
    "years": r"год\w*|лет\b|years?",
}


# A kind of figure a customer asks for, and how a text states one: (asked, stated). A question
# that asks for a figure none of its entries states is not answered by them («сколько CUDA-ядер
# у 5090?», «задержка NVLink в микросекундах?», «какой номер драйвера под CUDA 12.8?»).
_UNIT_TIME = r"(?:мс|мкс|нс|ms|µs|us|ns|миллисекунд\w*|микросекунд\w*|наносекунд\w*)"
_LATENCY = (
    r"(?:задержк\w*|латентн\w*|latency|ttft|time to first token|времен?\w* до перв\w* токен\w*)"
)
_COUNTED = r"(?:ядер|ядра|cores?|sm|мультипроцессор\w*|транзистор\w*)"
_VERSIONED = r"(?:драйвер\w*|cuda|куд[аыу]|rocm|nccl)"
_TOKENS_RATE = r"(?:ток\w*/с|tok/s|t/s|токен\w* в (?:секунду|сек))"
FIGURES: dict[str, tuple[str, str]] = {
    # «сколько токенов в секунду выдаст … нужна цифра для презентации»: a benchmark figure
    "throughput": (
        rf"{_TOKENS_RATE}.{{0,120}}(?:нужн\w* (?:\w+ )?цифр\w*|для презентаци\w*|"
        r"конкретн\w* цифр\w*|дайте цифр\w*|назовите цифр\w*)|"
        rf"(?:нужн\w* (?:\w+ )?цифр\w*|для презентаци\w*).{{0,120}}{_TOKENS_RATE}",
        rf"\d[\d\s.,]*\s?{_TOKENS_RATE}",
    ),
    "latency": (
        rf"{_LATENCY}[^.?!]{{0,60}}(?:в {_UNIT_TIME}|сколько {_UNIT_TIME}|цифр\w*|в числах)|"
        rf"(?:в|сколько) {_UNIT_TIME}[^.?!]{{0,60}}{_LATENCY}",
        rf"\d[\d.,]*\s?{_UNIT_TIME}(?!\w)",
    ),
    "count": (
        rf"(?:сколько|скока|скок)\s+(?:[\w-]+\s+){{0,2}}?{_COUNTED}\s+(?:у|в|на)\s",
        rf"\d[\d\s]*\s(?:\w+\s)?{_COUNTED}(?!\w)",
    ),
    "version": (
        rf"(?:какой|какая|какую|минимальн\w*)\s+(?:[\w-]+\s+){{0,2}}?(?:номер|верси)\w*\s+"
        rf"(?:[\w-]+\s+){{0,2}}?{_VERSIONED}|\b\d{{3}}\.x+\b|"
        # «какой минимальный драйвер нужен для CUDA 12.8? номер версии подскажите»
        rf"минимальн\w*\s+(?:[\w-]+\s+){{0,1}}?{_VERSIONED}[^.?!]{{0,60}}(?:нуж\w*|требу\w*|под\b)",
        rf"{_VERSIONED}\s+\d+\.\d+|верси\w*\s+\d+\.\d+",
    ),
}
