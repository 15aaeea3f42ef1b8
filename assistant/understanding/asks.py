"""Parsed question → Ask: what kind of answer it wants, decided once (the answer plans key off it).

    classify(read("сколько памяти у B300?"))              → Ask.gpu_fact, fields ("memory",)
    classify(read("B200 или MI355X — чем отличаются?"))    → Ask.gpu_comparison
    classify(read("у вас можно взять L4?"))                → Ask.provider
    classify(read("vllm падает с OOM на Mixtral на L40S")) → Ask.problem

The cues are words, read here once; what an answer of each kind must say first is the answer
stage's (answer/plans.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from assistant.understanding.causes import Cause, cause, peaks_apart
from assistant.understanding.lexicon import (
    AI_TOPS,
    CARD,
    DEFINITION,
    FAST,
    FP64,
    GENERATION,
    OUR_THING,
    OURS,
    YOU,
)
from assistant.understanding.reader import ParsedMessage


class Ask(StrEnum):
    definition = "definition"  # what X is
    fact = "fact"  # one fact of a term («какая скорость у InfiniBand на порт»)
    term_comparison = "term_comparison"  # two terms
    gpu_fact = "gpu_fact"  # a spec of one catalogue GPU («сколько памяти у B300»)
    gpu_comparison = "gpu_comparison"  # two or more catalogue GPUs, no model to fit
    provider = "provider"  # what FullGPU does, includes or does not («делите ли карту»)
    problem = "problem"  # a symptom: cause first, then what helps
    error_log = "error_log"  # a pasted error message
    other = "other"


# what of a card is asked: each field's words
_FIELDS: tuple[tuple[str, str], ...] = (
    ("memory", r"памят\w*|vram|врам|видеопамят\w*|\bгб\b|\bgb\b|гигабайт\w*|hbm\w*|gddr\w*"),
    ("bandwidth", r"пропускн\w*|bandwidth|скорост\w* памят\w*|тб/с|tb/s"),
    (
        "compute",
        r"[tp]flops|[тп]флопс\w*|(?:тера|пета)?флопс\w*|flops|производительн\w*|вычислительн\w*|"
        r"мощн\w* в",
    ),
    ("fp4", r"\bfp ?4\b|фп ?4"),
    ("fp8", r"\bfp ?8\b|фп ?8"),
    ("tdp", r"\btdp\b|тдп|ватт\w*|\bвт\b|энергопотреблени\w*|потребля\w*|тепловыделени\w*"),
    (
        "interconnect",
        r"nvlink|нвлинк\w*|интерконнект\w*|infinity fabric|связ\w* между|"
        r"между собой (?:\w+ )?(?:связан\w*|соединен\w*)|(?:связан\w*|соединен\w*) между собой",
    ),
    ("form", r"форм[- ]?фактор\w*|архитектур\w*|поколени\w*|generation"),
    # what a card's sheet does not carry: its clocks, RT cores, process, transistors, street
    # price, release date, memory bus, core counts («boost clock у RTX 5090 в МГц»)
    (
        "unlisted",
        r"частот\w*|clocks?\b|мгц|mhz|ггц|ghz|буст\w*|boost|rt[- ]?ядр\w*|rt[- ]?cores?|"
        r"техпроцесс\w*|\d+ ?нм\b|транзистор\w*|msrp|розничн\w*|дата выхода|"
        r"когда (?:вышл|выйдет|выпустил)\w*|разрядност\w*|шин\w* памят\w*|l2|"
        r"sm[- ]?блок\w*|мультипроцессор\w*|"
        r"сколько (?:там |у неё |у нее )?(?:cuda|куда|rt|тензорн\w*)[- ]?(?:ядер|cores)",
    ),
    (
        "offered",
        r"у вас|есть ли|есть в аренд\w*|такие есть|есть такие|сдаете|сдаёте|"
        r"можно (?:взять|арендовать|снять)|в наличии|предлагаете",
    ),
)
# which cards there are to rent: «какие карты у вас можно взять», «список гпу», «что есть из GPU»
_LISTING = re.compile(
    rf"(?:какие|какой|список|перечень|ассортимент|линейк\w*|что есть из)\s+(?:\w+\s+)?{CARD}|"
    rf"{CARD}\w*\s+(?:у вас\s+)?(?:есть|бывают|доступн\w*)\b"
)
_FIELD_RES = tuple((name, re.compile(rf"(?<![\w])(?:{p})")) for name, p in _FIELDS)

_PROVIDER = re.compile(
    rf"(?<![\w])(?:{OURS}|{YOU}(?![\w])|"
    r"можно (?:ли )?(?:взять|арендовать|снять|получить|подключить)|"
    # a part of a card to rent: «пол-карты», «половину GPU», «кусок видеокарты»
    rf"пол[- ]?{CARD}\w*|пол ?gpu|половин\w* {CARD}\w*|"
    rf"(?:часть|кусок|кусочек|долю|четверть|треть) {CARD}\w*|"
    # FullGPU addressed by its verb alone: «за трафик чё-нибудь берёте?», «карты делите?»
    r"бер[её]те|взимаете|сда[её]те|предлагаете|делите|режете|продаете|продаёте|"
    r"тарифицируете|списываете|"
    # the customer's own rented card or server: «на моей гпушке будут чужие задачи?»
    rf"(?:мо[йяеюё]|моей|моего|моих|мою|моём|моем) (?:\w+ )?(?:{CARD}\w*|сервер\w*|инстанс\w*|"
    r"машин\w*))"
)
# the provider addressed as the owner of what is asked about: «в вашей вмке», «у вас»
# «у вас», «ваш», «вы делите …»: the provider is the one asked
_ADDRESSED = re.compile(rf"(?<![\w])(?:{OURS}|вы)(?![\w])")
# the provider's own things, asked about by a wh-question: «на ваших серверах с mi355x какая
# сеть между нодами?» asks what FullGPU has, however it is phrased
_YOUR_THINGS = re.compile(rf"(?<![\w])ваш\w* (?:\w+ )?{OUR_THING}")
# FullGPU's own plans and servers, named without «у вас»: «тариф с одной картой», «на 8-гпу
# сервере», «арендую h200» — any question about them asks what the provider does
_PLAN = re.compile(
    rf"(?<![\w])(?:тариф\w*|(?:8|восьми)[- ]?(?:{CARD}\w*|gpu|гпу)[- ]?сервер\w*|"
    rf"аренду(?:ю|ем)|одиночн\w* {CARD}\w*)(?![\w])"
)
_TAKING = re.compile(r"(?<![\w])(?:беру|берём|берем|возьму|возьмём|возьмем)(?![\w])")
# a question that opens asking yes or no, whatever it goes on to: «можно ли на 8-гпу сервере
# ставить какие хотим драйвера?»
_YES_OPEN = re.compile(
    r"^(?:а |и |ну )?(?:можно|нельзя|есть ли|будет ли|смогу|сможем|могу|можем)\b"
)
_ERROR_LOG = re.compile(
    r"traceback|outofmemoryerror|out of memory|\boom\b|cuda error|runtimeerror|valueerror|"
    r"no available memory|cache blocks|nccl (?:error|warn|info)|ncclinternalerror|"
    r"hiperror|hip error|rocm error|killed|segmentation fault|exception|error:|errno",
    re.IGNORECASE,
)
# does not fit, ran out of memory: a memory symptom, and so a problem
_NO_FIT = (
    r"oom|out of memory|не (?:влеза|помеща|умеща)\w*|не влез\w*|не лез\w*|"
    r"перестал\w* (?:влезать|помещаться|умещаться|лезть)"
)
# «куда память делась?», «память вся забита»: where it went is the question, a symptom
_MEMORY_GONE = (
    r"куда (?:\w+ )?(?:делась|девается|уходит|ушла|пропала|пропадает) (?:вся )?(?:видео)?памят\w*|"
    r"(?:видео)?памят\w* (?:вся )?(?:уходит|ушла|пропадает|пропала|девается|делась|забит\w*)"
)
_GONE = re.compile(rf"(?<![\w])(?:{_MEMORY_GONE})")
_OUT_OF_MEMORY = re.compile(
    # not «по памяти влезает норм»: that is memory that is fine
    rf"(?<![\w])(?:{_NO_FIT}|outofmemory\w*|по памяти(?! (?:влез|помещ|норм|ок\b|хват|вс[её] ок))|"
    r"памяти не хват\w*|"
    r"не хватает (?:видео)?памяти|памят\w* (?:за)?конч\w*|(?:за)?конч\w* памят\w*|"
    rf"no available memory|{_MEMORY_GONE})"
)
_PROBLEM = re.compile(
    rf"(?<![\w])(?:{_NO_FIT}|пада\w*|упал\w*|вылета\w*|крашит\w*|"
    r"ошибк\w*|медленн\w*|вяло|тормоз\w*|долго|не работа\w*|не запуска\w*|не стартует|"
    r"зависа\w*|завис(?:ла|ло|ли|нет|нут|шие|ший)?(?![\w])|"
    r"упира\w*|просед\w*|теря\w*|не хватает|не хватило|кончает\w*|кончил\w*|заканчива\w*|"
    r"почему (?:так )?(?:медленн|долго|не|пада)\w*|что делать|как (?:быть|починить|исправить)|"
    r"slow|crash\w*|fails?|failing|"
    # a symptom in other words: worse, slower, stuck, not what was promised
    r"тупее|глупее|стал\w* хуже|хуже (?:чем|нашего|старого)|дольше|ползет|ползёт|грустно|"
    r"скач\w*|жалуют\w*|очеред\w*|не (?:вывез\w*|тянет|ускори\w*|растет|растёт|масштабир\w*)|"
    r"масштабир\w* (?:плохо|отвратно|ужасно)|как так|почему так|что не так|"
    r"накосячил\w*|обманул\w*|наврал\w*|врут|не то,? что ждали|чем ждали|куда копать|"
    r"(?:никакого|нет|без) ускорени\w*|не ускоря\w*|"
    # «вычислители толком не нагружены, а токены ползут — куда они деваются?»
    r"полз(?:ут|ет|ёт)|не нагружен\w*|куда (?:\w+ )?(?:деваются|девается|уходят|делись))(?![\w])"
)
# measured against what was expected, not against another thing: «медленнее, чем ждали по
# терафлопсам», «хотя по спеке должен» is a symptom, though two entries stand either side
_EXPECTED = re.compile(
    r"(?<![\w])(?:чем|than) (?:\w+ ){0,2}?(?:ждал\w*|ожидал\w*|обещал\w*|рассчитывал\w*|"
    r"думал\w*|заявлен\w*|в спек\w*|по спек\w*|expected|promised)(?![\w])|"
    r"хотя (?:\w+ ){0,3}?(?:по спек\w*|в спек\w*|обещал\w*|должн\w*|заявлен\w*)(?![\w])"
)
_COMPARISON = re.compile(
    r"отлича\w*|разниц\w*|различ\w*|сравн\w*|\bvs\.?\b|\bversus\b|\bили\b|\bлибо\b|"
    r"против|лучше|хуже|быстрее|что (?:взять|брать|выбрать)|difference|compare|better"
)
# «на h200 генерит на 40 % быстрее, чем на h100 — как так?»: generation speed told apart by cards
_GENERATION_SPEED = re.compile(
    rf"(?<![\w])(?:{GENERATION})(?![\w])[^?!]*?(?<![\w])(?:{FAST})|"
    rf"(?<![\w])(?:{FAST})[^?!]*?(?<![\w])(?:{GENERATION})(?![\w])"
)
# traffic between the cards compared («огромные пересылки между картами, на h100 такого нет»):
# what links them is the difference that matters
_TRAFFIC = re.compile(
    r"(?<![\w])(?:пересылк\w*|обмен\w* (?:данными )?между|коммуникац\w*|all-to-all|all-reduce)"
)
# generation slow for a reason other than the bandwidth: a batch shared by many users (a
# benchmark's total against one user's stream), or a card shared with someone else
_SHARED = re.compile(
    r"(?<![\w])(?:бенчмарк\w*|benchmark\w*|суммарн\w*|на всю карту|max-num-seqs|"
    r"(?:кажд|отдельн)\w* (?:пользовател|юзер)\w*|размер\w* батч\w*|скач\w*|"
    r"дел(?:им|ите|ят|ю)|кто-то (?:ещ[её] )?(?:гоня|крут|запуска)\w*)"
)
# the same card somewhere else, or doubted to be the same: «на другом облаке», «у прошлого
# провайдера», «это одна и та же карта?»
_ELSEWHERE = re.compile(
    r"(?<![\w])(?:(?:на|в|у) (?:друг\w*|ином|прошл\w*|предыдущ\w*|стар\w*) (?:\w+ )?"
    r"(?:облак\w*|провайдер\w*|хостинг\w*|мест\w*|сервис\w*|площадк\w*)|у других|"
    r"(?:одна и та же|та же самая|та же) карт\w*|(?:один и тот же|тот же самый) (?:gpu|гпу|чип\w*))"
)
_DISPUTED = re.compile(
    r"(?<![\w])(?:вдвое|в два раза|в 2 раза|ошиб\w*|не сход\w*|не совпада\w*|где правда|"
    r"написан\w*|заявлен\w*|в през\w*|в презентаци\w*|пишет|пишут|обещал\w*)(?![\w])"
)
# a peak asked with sparsity: the sheets give it without, the entry says how the two relate
_SPARSE = re.compile(r"(?<![\w])(?:с разреженност\w*|sparsity|sparse)(?![\w])")
_HARDWARE_DIFFERENCE = re.compile(r"(?<![\w])(?:отлича\w*|разниц\w*|различ\w*|сравни\w*)")
_QUESTION_FACT = re.compile(
    r"(?<![\w])(?:сколько|скока|скок|как(?:ая|ой|ое|ие|ую|их|им|ими|ом|ому|ого)|какова|каков|"
    r"есть ли|чему (?:равен|равна|равно|равны)|"
    r"поддерживает ли|поддерживают ли|можно ли|how much|how many|what is the|does)(?![\w])|"
    # a figure asked by its name alone: «скорость infiniband на порт?», «объём hbm у h200?»
    r"^(?:а |ну а )?(?:скорост\w*|объ[её]м\w*|пропускн\w* способност\w*|задержк\w*)(?![\w])"
)
# …and as people write it: «vllm это чё за зверь?», «all-reduce что это такое»
_DEFINITION = re.compile(
    rf"(?<![\w])(?:{DEFINITION}|(?:что|ч[её]|чо|шо) за|зачем нуж\w*|для чего|что это(?: такое)?|"
    r"это (?:вообще )?(?:что|ч[её]|чо)(?: такое)?)(?![\w])"
)
# an explanation, not a figure: «почему у RTX PRO 6000 чипы памяти распаяны на плате»
_WHY = re.compile(
    r"(?<![\w])(?:почему|зачем|как так|через что|каким образом|why|how come|"
    r"что (?:\w+ )?(?:поменял\w*|изменил\w*|нового|появил\w*|впервые))(?![\w])"
)


# a question answered by yes or no («можно ли…», «есть ли…», «делите ли…»), not «сколько…»
_YES_NO = re.compile(
    r"(?<![\w])(?:ли|можно|нельзя|есть|бывает|будет|будут|берете|берёте|делите|даете|даёте|включен\w*|"
    r"умеет|умеют|"
    r"поддержива\w*|предоставля\w*|will|can|do|does|is|are|"
    # asked of the provider as a favour: «настроите такое?», «поставите свой образ?»
    r"настроите|сделаете|поставите|установите|выдадите|подключите|соберете|соберёте|"
    r"разрешаете|позволяете|поможете|сможете)(?![\w])"
)
_WH = re.compile(
    r"(?<![\w])(?:сколько|скока|какой|какая|какое|какие|каков\w*|как|что|чем|где|когда|"
    r"почему|зачем|кто|how|what|which|why|when)(?![\w])"
)
_NEGATED_QUESTION = re.compile(r"(?<![\w])(?:не|нет|ни)(?![\w])")
# «что у вас по…», «какие карты у вас»: what the provider has, asked without «ли»
_WHAT_YOU = re.compile(
    r"(?<![\w])(?:что|какие|какая|какой|чем) (?:\w+ ){0,2}?(?:у вас|вы)(?![\w])|"
    r"(?:у вас|вы) (?:\w+ ){0,2}?(?:что|какие|какая|какой)(?![\w])"
)
_VENDORS = (
    ("amd", re.compile(r"(?<![\w])(?:amd|амд\w*|амдшн\w*|радеон\w*|radeon)(?![\w])")),
    ("nvidia", re.compile(r"(?<![\w])(?:nvidia|нвиди\w*|энвиди\w*|нвидиа)(?![\w])")),
)


@dataclass(frozen=True)
class Reading:
    """What kind of answer a question wants, and of a card what it asks."""

    ask: Ask
    fields: tuple[str, ...] = ()  # spec fields asked («memory», «tdp»…), in the order written
    # a plain yes/no question («делите ли карту?»), not negated («можно не настраивать?»):
    # the answer may open with «Да» or «Нет»
    yes_no: bool = False
    vendors: tuple[str, ...] = ()  # «у вас амд тоже есть?»: the vendors named (amd, nvidia)
    # a problem with memory («падает по памяти», OOM): with a model and a card it is computed
    memory: bool = False
    listing: bool = False  # «какие карты у вас можно взять?»: every card FullGPU rents out
    # cards told apart by how fast they generate: the entry saying why bandwidth bounds it joins
    generation: bool = False
    # one card named, found to differ elsewhere («на другом облаке H100 была медленнее»): its
    # versions in the catalogue (SXM, PCIe, NVL) are compared
    variants: bool = False
    # a card's figure set against another one («в презе 9 PFLOPS, а у вас 4500 — вдвое
    # меньше, кто-то ошибся?»): how vendors state peaks (with sparsity) comes first
    disputed: bool = False
    # «сколько терафлопс у H200 с разреженностью?»: the sheet's peak, then how sparsity relates
    sparse: bool = False
    # a problem whose words name its cause («DDP … всё равно OOM на каждой»): said first
    cause: Cause | None = None


def spec_fields(folded: str) -> tuple[str, ...]:
    found = [(m.start(), name) for name, rx in _FIELD_RES if (m := rx.search(folded))]
    names = tuple(name for _, name in sorted(found))
    if "interconnect" in names and "bandwidth" in names and not _MEMORY_WORD.search(folded):
        # «суммарная пропускная способность nvlink в стойке nvl72»: the link's, not the memory's
        names = tuple(n for n in names if n != "bandwidth")
    if _AI_TOPS.search(folded):  # «сколько ai tops у 5090 в fp4?»: the AI TOPS entry states
        names = tuple(n for n in names if n not in ("compute", "fp4", "fp8"))  # that figure
    if (
        "compute" in names
        and _OTHER_PRECISION.search(folded)
        and not _SHEET_PRECISION.search(folded)
    ):  # «сколько fp64 терафлопс у b200?»: a rate no sheet carries, not its BF16 one
        return tuple(dict.fromkeys("unlisted" if n == "compute" else n for n in names))
    return names


_MEMORY_WORD = re.compile(r"(?<![\w])(?:памят\w*|hbm\w*|gddr\w*|vram|врам)")
_AI_TOPS = re.compile(rf"(?<![\w]){AI_TOPS}(?![\w])")
# precisions whose peak rates the sheets carry (BF16, FP8, FP4) and those they do not
_SHEET_PRECISION = re.compile(r"(?<![\w])(?:bf ?16|бф ?16|fp ?8|фп ?8|fp ?4|фп ?4|nvfp4)(?![\w])")
_OTHER_PRECISION = re.compile(
    rf"(?<![\w])(?:{FP64}|fp ?32|фп ?32|fp ?16|фп ?16|tf ?32|int ?8|int ?4|"
    r"float ?32|одинарн\w* точност\w*)(?![\w])"
)


# words of a question about which vendor's cards are rented out, besides the vendors' names
_ABOUT_CARDS = frozenset(
    "только тоже также кроме или и есть у вы ваш карта видеокарта gpu гпу ускоритель сервер "
    "арендовать взять можно предлагать".split()
)


def _vendors_only(message: ParsedMessage) -> tuple[str, ...]:
    """«у вас только nvidia или амд тоже есть?»: the vendors, when nothing else is asked (not
    «на амдшных картах какой стек вместо CUDA и есть ли у вас образы»)."""
    t = message.tokens.folded
    vendors = tuple(name for name, rx in _VENDORS if rx.search(t))
    rest = [
        w
        for w, lem in zip(message.words, message.tokens.word_lemmas, strict=True)
        if not any(rx.fullmatch(w) for _, rx in _VENDORS) and lem not in _ABOUT_CARDS
    ]
    return vendors if vendors and len(rest) <= 1 else ()


def _named(message: ParsedMessage) -> int:
    """Glossary entries written out (not implied by a card's architecture)."""
    return sum(1 for v in message.terms.values() if v >= 1.0)


def _yes_no(folded: str) -> bool:
    """Read in the first question of the message: «а можно пол-карты подешевле? нам столько
    памяти не надо» asks yes or no, whatever the reason after it negates."""
    folded = folded.split("?", 1)[0]
    return (
        bool(_YES_NO.search(folded))
        and not _WH.search(folded)
        and not (_NEGATED_QUESTION.search(folded))
        and not _EITHER_OR.search(folded)  # «целая карта или кусок через MIG?»: neither yes nor no
    )


# «все 141 гиг будут мои или часть откусывается?»: what a rented card gives, the provider's
_ALL_MINE = re.compile(
    r"(?:будут|будет|достанется|достанутся) (?:\w+ )?(?:мои|моими|мне|наши|нашими|нам)|"
    r"мои или|целиком (?:мо|наш)\w*|(?:покажет|увижу|видно) (?:\w+ )?все \d+"
)
_AMOUNT = re.compile(r"(?<![\w])(?:все|всю|всеми|всех) \d+ ?(?:гиг\w*|гб|gb)(?![\w])")
_WRONG = re.compile(r"что (?:\w+ )?не так|в чем (?:\w+ )?(?:дело|проблема|подвох)")
# «получается 5090 в 3 раза мощнее?»: a figure taken for what a card does
_STRONGER = re.compile(r"мощнее|быстрее|сильнее|круче|в \d+ раза")
_EITHER_OR = re.compile(r"(?<![\w])(?:или|либо)(?![\w])")


def _problem(message: ParsedMessage, named: Cause | None = None) -> Reading:
    """A symptom; `generation`: one card (or none) writing tokens slower than wanted — memory
    bandwidth bounds it («L40S, батч 1, генерит медленнее, чем ждали»), unless the cards are
    several and talk to each other (a traffic problem) or the card serves many at once."""
    t = message.tokens.folded
    memory = bool(_OUT_OF_MEMORY.search(t))
    several = (message.quantities.params.gpus or 1) > 1 or len(message.gpus) > 1
    other = memory or several or _TRAFFIC.search(t) or _SHARED.search(t)
    slow = bool(_GENERATION_SPEED.search(t)) and not other
    # a cause read without memory in mind stands when the problem is not one of memory
    why = named if named is not None and not memory else cause(message, memory=memory)
    return Reading(Ask.problem, memory=memory, generation=slow, cause=why)


def classify(message: ParsedMessage) -> Reading:
    t = message.tokens.folded
    sized = message.quantities.params.has("model", "params_b")
    gpus = message.gpus
    if message.log or (_ERROR_LOG.search(message.text) and len(message.text) > 80):
        memory = bool(_OUT_OF_MEMORY.search(message.text.lower()))
        # a failure the log shows is its own cause; a setup told in words may name one
        why = None if message.failure else cause(message, memory=memory)
        return Reading(Ask.error_log, memory=memory, cause=why)
    if _EXPECTED.search(t):
        return _problem(message)
    if peaks_apart(message) and (_PROBLEM.search(t) or _WHY.search(t) or _STRONGER.search(t)):
        return _problem(message)  # «3352 TOPS против 989 TFLOPS — обманули?»: not a comparison
    # «выбирали по числу CUDA-ядер — у 5090 больше, а H100 в разы быстрее»: the cause the
    # words name is the answer, not the two cards' sheets
    named = cause(message, memory=False)
    symptom = bool(_PROBLEM.search(t))
    if len(gpus) >= 2 and (named is Cause.cores_counted or (symptom and named is not None)):
        return _problem(message, named)  # a symptom, not a pick between the cards
    explains = bool(_WHY.search(t))  # «почему она такая быстрая», «что поменялось»
    differs = explains or _PROBLEM.search(t) or _HARDWARE_DIFFERENCE.search(t)
    # not a slice of it or memory that ran out («кусок H100, 13b не влезла»): that is no version
    sliced = _OUT_OF_MEMORY.search(t) or "mig" in message.terms
    if len(gpus) == 1 and _ELSEWHERE.search(t) and differs and not sliced:
        return Reading(Ask.gpu_comparison, ("bandwidth",), variants=True)
    if len(gpus) >= 2 and (explains or _PROBLEM.search(t)) and _GENERATION_SPEED.search(t):
        # why one card generates slower than another: their memory bandwidth, from the sheets
        return Reading(Ask.gpu_comparison, ("bandwidth",), generation=True)
    if len(gpus) >= 2 and not explains and (not sized or _HARDWARE_DIFFERENCE.search(t)):
        # «h100 или h200 под инференс 70b, в чем разница по железу?»: the cards, not a fit
        # cards talking on every layer (tensor parallelism) differ most in what links them
        between = _TRAFFIC.search(t) or "tensor-parallelism" in message.terms
        traffic = ("interconnect",) if between else ()
        return Reading(Ask.gpu_comparison, (*traffic, *spec_fields(t)))
    fields = spec_fields(t)
    # «в вашей вмке nvidia-smi покажет все 80 гигов или урезанный vgpu-профиль?»: an «или»
    # put to the provider asks what it gives, not how two terms differ
    put_to_us = message.paired and not message.signals.comparison_cue and _ADDRESSED.search(t)
    # «nvfp4 на H100 — никакого ускорения против fp8, почему?»: a symptom on a named card,
    # though two formats stand either side of «против»
    on_card = bool(gpus) and bool(_PROBLEM.search(t)) and bool(explains or _WRONG.search(t))
    if (
        (message.signals.comparison_cue or message.paired)
        and _named(message) >= 2
        and not put_to_us
        and not on_card
    ):
        if symptom and named not in (None, Cause.peaks_apart):  # «на RoCE all-reduce в разы
            return _problem(message, named)  # медленнее, чем на IB»: the cause is what is asked
        return Reading(Ask.term_comparison, fields)  # «fp8 vs fp4 — у нас h100, есть смысл?»
    spec = [f for f in fields if f != "offered"]
    # «если беру одну h100 — целая карта или кусок через MIG?»: what a rented card is cut into
    renting = (_PLAN.search(t) or _TAKING.search(t)) and bool({"mig", "vgpu"} & set(message.terms))
    if (
        len(gpus) == 1
        and not sized
        and spec
        and not _PROBLEM.search(t)
        and not explains
        and not renting
        and not _ALL_MINE.search(t)
    ):
        disputed = "compute" in fields and bool(_DISPUTED.search(t))
        sparse = "compute" in fields and bool(_SPARSE.search(t))
        # «у 5090 есть nvlink?», «можно у вас h100 под fp4?»: a card's feature, yes or no
        yes_no = _yes_no(t)
        if "compute" in fields and not yes_no:  # «сколько у b300 в fp4 в тфлопсах?»: FP4 is
            fields = tuple(f for f in fields if f not in ("fp4", "fp8"))  # the figure's precision
        return Reading(Ask.gpu_fact, fields, yes_no=yes_no, disputed=disputed, sparse=sparse)
    # «карты простаивают при pipeline parallel»: a symptom in words no list above holds; two
    # peaks side by side are one only when the customer doubts them (checked above)
    if _PROBLEM.search(t) or _GONE.search(t) or named not in (None, Cause.peaks_apart):
        return _problem(message, named)
    yes_no = _yes_no(t)
    # a plan named in a question that asks no «что за» / «почему» of it: «тариф с одной
    # картой — это виртуалка?», not «что за чипы стоят в 8-гпу сервере?»
    plan = _PLAN.search(t) and "?" in message.text and (_YES_OPEN.match(t) or not _WH.search(t))
    asks_provider = (
        plan
        or renting
        or put_to_us
        or (_PROVIDER.search(t) and (yes_no or _WHAT_YOU.search(t) or "offered" in fields))
        or _YOUR_THINGS.search(t)
    )
    if asks_provider or (len(gpus) == 1 and fields == ("offered",)):
        listing = not gpus and bool(_LISTING.search(t))
        # «все 80 гигов будут мои?»: an amount of the card's memory put to the provider
        amount = ("memory",) if _AMOUNT.search(t) and "memory" not in fields else ()
        return Reading(
            Ask.provider,
            (*fields, *amount),
            yes_no=yes_no,
            vendors=_vendors_only(message),
            listing=listing,
        )
    if message.signals.comparison_cue or message.paired:
        return Reading(Ask.term_comparison)
    if message.signals.defined_term or _DEFINITION.search(t):
        return Reading(Ask.definition)
    if _QUESTION_FACT.search(t):
        return Reading(Ask.fact)
    return Reading(Ask.other)
