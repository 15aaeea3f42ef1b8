"""Message text (+ its Tokens) → Signals: cheap lexical facts the router and calculators use.

Injection, greeting/thanks, comparison cues, domain words, follow-up cues, the term of a
«что такое X» question, other vendors' business. Read once per message (parsing/message.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.text.tokens import STOPWORDS, Tokens, fold, tokenize, words
from assistant.understanding.lexicon import (
    ACTIVE,
    CARD_WORD,
    DEFINITION,
    FAST,
    FIGURES,
    OPENER,
    OURS,
    PRONOUN,
)

# Attempts to override instructions or extract the prompt, in Russian and English.
_INJECTION = re.compile(
    r"игнорир\w*|проигнорир\w*|забудь\w*|не обращай внимани\w*|"
    r"(?:системн\w*|скрыт\w*|твои\w*|твой|твоя|внутренн\w*|служебн\w*)\s+(?:промпт\w*|инструкци\w*|"
    r"правил\w*|конфиг\w*|подсказк\w*)|сво\w* (?:промпт|инструкци)\w*|(?:system|your|the) prompt|"
    r"ignore (?:all |any |the )?(?:previous|prior|above)|disregard|jailbreak|\bdan\b|"
    r"developer mode|режим разработчика|ты теперь|теперь ты|you are now|act as|притворись|"
    r"repeat (?:the )?(?:text|words) above|instructions? above|выведи (?:свой|твой|весь)|"
    r"покажи (?:свой|твой|мне свой)|what are your (?:instructions|rules)|system message|"
    r"base64|rot13|режим\w* отладки|debug mode|твой контекст|"
    # «покажи весь контекст», not «хочу весь контекст 128к» (a model's context window)
    r"(?:покажи|выведи|напечатай|повтори|перескажи|скинь)\w*\s+(?:мне\s+)?(?:весь|свой)\s+контекст|"
    r"контекст,? котор\w* тебе|"
    r"что написано (?:перед|выше|до)|вс[её],? что (?:выше|написано выше)|"
    r"без ссылок|придумыва\w* (?:цифр|числ)|придумай (?:цифр|числ)|"
    r"(?:^|\s)system\s*:|</?(?:context|system|instructions?)>|нов\w+ (?:указани|политик|правил)\w*|"
    r"new (?:policy|instructions?|rules)|(?:вставь|добавь|укажи) (?:в ответ )?ссылк\w*|"
    r"официальн\w* сайт|отвечай,? что|answer that|say that"
)
# Questions about other vendors' prices, shops, stocks, or the provider's business
# (offices, contracts, refunds…): not in the glossary, and not ours to guess.
_CLOUD_NAMES = (
    r"\baws\b|amazon|azure|google cloud|\bgcp\b|яндекс\w*|yandex|selectel|селектел\w*|vk cloud|"
    r"сбер\w*|cloud\.ru|runpod|vast\.?ai|coreweave|lambda labs|hetzner|гугл\w* (?:клауд|облак)\w*|"
    r"амазон\w*|ажур\w*|колаб\w*|кагл\w*|каггл\w*|сейджмейкер\w*"
)
_CLOUDS = re.compile(_CLOUD_NAMES)
# «сколько стоит p5.48xlarge на AWS … как у вас?»: their price is asked, whatever else is
_THEIR_PRICE = re.compile(
    rf"(?:сколько стоит|почём|цен[аы]|стоимост\w*|прайс)\s+(?:\S+\s+){{0,4}}?(?:в|на|у)\s+"
    rf"(?:{_CLOUD_NAMES})|"
    # «…от AWS p5 и сколько там стоит p5.48xlarge?»: «там» is the other cloud
    rf"(?:{_CLOUD_NAMES})[^?]{{0,80}}(?:сколько|почём|почем|цен\w*)\s+(?:там|у них)\b"
)
# «в AWS нас убивает outbound — а у вас?»: another cloud named to ask about ours
# …or a plan of ours: «какой трафик входит в тариф на 8 гпу? за egress платить как на aws?»
_ABOUT_US = re.compile(rf"(?<![\w])(?:{OURS}|у нас)(?![\w])|\bв тариф\w*|\bтариф\w* (?:на|с) \d")
_NOT_OURS = re.compile(
    r"днс\b|\bdns-shop|"
    r"ozon|озон\w*|"
    r"wildberries|авито|avito|маркетплейс\w*|акци[йия]\w*|курс\w* (?:акци|доллар|рубл|валют)\w*|"
    r"бирж\w*|котировк\w*|ваканси\w*|резюме|офис\w*|адрес\w* (?:офис|компани)\w*|в как\w* город\w*|"
    r"договор\w*|ндс|"
    r"возврат\w*|промокод\w*|скидк\w*|телефон\w* поддержк\w*|\bsla\b|крипт\w*|"
    # where the servers stand and how far they are: no entry says
    r"где (?:физически )?(?:стоят|находятся|расположены|размещены) (?:ваши )?(?:сервер|дата-?центр|"
    r"мощност)\w*|(?:пинг|задержк\w*) до (?:москв|европ|питер|спб|казан|новосиб)\w*"
)
# Creative writing about the topic («напиши стих про видеокарты», «придумай название для канала
# про нейросети»): no glossary entry answers it, whatever words it shares with one.
_CREATIVE = re.compile(
    r"(?<!\w)(?:напиши|написать|сочини\w*|придумай|придумать|write|compose|make up)\s+"
    r"(?:\w+\s+){0,3}?(?:стих\w*|стишок|шутк\w*|анекдот\w*|песн\w*|рассказ\w*|сказк\w*|"
    r"поздравлени\w*|названи\w*|слоган\w*|тост\w*|рэп\w*|поэм\w*|хокку|"
    r"poem|joke|song|story|slogan|name)(?!\w)"
)
# What the glossary does not do, however near the domain (issue examples and the blind set's
# kinds): other vendors' accelerators and hosted notebooks it does not describe, and requests for
# a config, code, alert rule or settings values, or for a setup procedure. Declined with the
# nearest entries: an entry that names vLLM or DCGM does not give their flags or dashboards.
_FOREIGN = re.compile(
    # dates of announcements and shipments: the glossary gives none
    r"(?:анонсир\w*|анонс\b|поставк\w*|начал\w* продаж\w*|дата (?:выхода|релиза|анонса)|"
    r"release date)[^?.]{0,60}\b(?:когда|какого года|в каком году)|"
    r"(?:когда|какого года|в каком году)\b[^?.]{0,60}(?:анонсир\w*|анонс\w*|поставк\w*|"
    r"начал\w* продаж\w*|вышл\w*|выпустил\w*|релиз\w*)|"
    r"\btpu\w*|\bgaudi\w*|habana|trainium|inferentia|cerebras|\bgroq\b|graphcore|"
    r"\bascend\b|huawei|colab|kaggle|paperspace|sagemaker|\btriton\b|ansible|"
    r"qualcomm|sambanova|tenstorrent|ponte vecchio|intel (?:data center )?gpu max|\bapple\b|"
    r"macbook|макбук\w*|mps backend|mac studio|мак студи\w*|\bmlx\b|"
    # …as people spell them in Cyrillic
    r"\bтпу\b|гауди|хабан\w*|церебрас\w*|"
    # techniques, runtimes and tools no entry describes (the glossary never names them)
    r"flash[- ]?attention\w*|prefix caching|speculative decoding|"
    r"(?:gradient|activation) checkpointing|torch\.compile|\binductor\b|cuda graphs?|\bgguf\b|"
    r"llama\.cpp|\bollama\b|олам\w*|lm studio|cuda-gdb|nsight\w*|remapped rows|"
    # another cloud's instance types («p5.48xlarge»), resetting a card by command
    r"\b[a-z]\d[a-z]*\.\d*x?large\b|nvidia-smi\s+(?:-r|--gpu-reset)\b|"
    r"сброс\w* (?:\w+ )?(?:gpu|гпу|карт\w*) без (?:ребута|перезагрузк\w*)|"
    # setting a scheduler up, not a cluster it runs on («раскатываем slurm на 4 сервера»)
    r"(?:настро|установ|сконфигур|конфиг)\w* (?:\w+ )?(?:slurm|слерм)\w*|"
    r"андервольт\w*|undervolt\w*|overclock\w*|"
    r"(?:разгон\w*|разогна\w*) (?:\w+ )?(?:памят\w*|gddr\w*|hbm\w*|карт\w*|видеокарт\w*|"
    r"gpu|ядр\w*)|"
    # ML theory the glossary does not cover
    r"scaling laws?|chinchilla|\brlhf\b|\bdpo\b|\bppo\b|\bmmlu\b|\bbpe\b|"
    r"дистилл\w*|distill\w*|quantization[- ]aware|\bqat\b|perplexity|перплекси\w*|"
    r"\brag\b|langchain|llamaindex|векторн\w* баз\w*|токенизатор\w*|tokenizer\w*|"
    # engines' and drivers' internals: scheduling, sharing modes, profiles no entry lists
    r"preempt\w*|вытесн\w*|nvidia mps|\bmps\b(?! backend)|\b\dg\.\d+gb\b|"
    r"профил\w* mig|mig[- ]профил\w*|"
    # tuning advice: hyperparameters no entry gives values for
    r"learning rate|\bbetas?\b|weight[_ ]decay|target_modules|\bwarmup\b|lora_alpha|"
    r"\balpha\s?=|\br\s?=\s?\d|group_size|\btop_[pk]\b|\bdropout\b|adafactor|\blion\b|"
    r"гиперпараметр\w*|\bpcie\s?(?:gen\s?)?[67]\b|\bgen\s?[67]\b"
)
_RECIPE = re.compile(
    r"(?<!\w)(?:напиши\w*|написать|дай|дайте|скинь\w*|пришли\w*|сгенерируй\w*|составь\w*|"
    r"накидай\w*|набросай\w*|накатай\w*|реализуй\w*|"
    r"write|give me)\s+(?:[\w.\-+]+\s+){0,3}?(?:[\w\-]*json|ya?ml|конфиг\w*|config\w*|ds_config\w*|"
    r"код\b|кода\b|скрипт\w*|script|alert\w*|алерт\w*|rule\w*|дашборд\w*|dashboard\w*|"
    r"kernels?\b|кернел\w*|функци\w*|function|класс\w*|программ\w*|пример\w* кода|обертк\w*|"
    r"dockerfile|docker-compose|манифест\w*|helm|playbook|плейбук\w*|"
    r"[\w\-]+\.(?:py|sh|ya?ml|json|toml|conf|cfg)\b)|"
    r"(?<!\w)как(?:ой|ую|ие)\s+(?:код|конфиг\w*|скрипт)\s+(?:написать|писать)\b|"
    r"(?<!\w)как(?:ие|ой|ую|им|ое)\s+(?:[\w\-]+\s+){0,3}?(?:флаг\w*|значени\w*|rank|alpha|"
    r"learning rate|lr|group size|гиперпараметр\w*)\b(?:[\s,]+[\w\-]+){0,8}?[\s,]+(?:ставить|"
    r"выставить|выставлять|передавать|указать|указывать|брать|задать|задавать|прописать)\b|"
    # the exact commands, flags, keys or environment variables of a tool: no entry gives any
    # («какие команды реализует NCCL» asks what the entry names: commands need a verb of typing)
    r"(?<!\w)как(?:ие|ой|ую|им)\s+(?:[\w\-]+\s+){0,3}?(?:флаг\w*|ключ(?:и|ами|ей)\b|"
    r"переменн\w* окружени\w*|env(?:ironment)? var\w*)|"
    r"(?<!\w)(?:нужн\w*|дайте|дай|покажи\w*)\s+(?:\w+\s+){0,2}?(?:команд\w*|флаг\w*)|"
    r"конкретн\w* команд\w*|команд\w* (?:нужн|писать|вводить|набирать|выполнять)\w*"
)
# A setup procedure («как поднять OpenSM»): outside only for a tool the glossary never names
# (search/scope.py checks the words); «как поднять 70B в vLLM на 4 GPU» is tensor parallelism.
_PROCEDURE = re.compile(
    r"(?<!\w)как\s+(?:\w+\s+){0,2}?(?:поднять|прикрутить|установить|поставить|обновить прошивк\w*|"
    r"прошить|откатить|скомпилировать|задеплоить)\b|"
    r"(?<!\w)как(?:ие|ой|ую)\s+(?:[\w\-]+[\s,]+){0,6}?(?:выставить|выставлять|ставить|"
    r"прописать|подкрутить|поменять)\b|"
    r"(?<!\w)что\s+(?:конкретно\s+|именно\s+|мне\s+)?(?:выставить|выставлять|прописать|прописывать)\b|"
    r"\bпо шагам\b|\bпошагов\w*|step[- ]by[- ]step"
)
# any «как <сделать>» («как логировать только с rank0», «как перенести папку с моделями»): a
# how-to, outside only when the entries it leads to do not cover its words (search/scope.py)
_HOW_TO = re.compile(
    r"(?<!\w)как\s+(?:правильно\s+|мне\s+|теперь\s+|лучше\s+|бы\s+)?[а-яё]+(?:ть|ти|чь)(?:ся)?\b|"
    r"(?<!\w)how (?:do i|to|can i|should i)\b"
)
# a name from code, written as code: snake_case (max_batch_size), a dotted API
# (torch.cuda.empty_cache), a call (is_bf16_supported()), an environment variable
# (NCCL_ALGO), a command-line flag (--block-size). The glossary explains ideas, not APIs: a
# question about one is outside unless the entries' words cover the rest (search/scope.py)
_IDENTIFIER = re.compile(
    r"(?<![\w./-])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z_]\w+(?:\.[a-z_]\w+)+|"
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|--[a-z][\w-]+|[a-z_]\w*\(\))(?![\w])"
)
_GREETING = re.compile(
    r"^(?:прив(?:ет\w*|ки)?|здравств\w*|здрас\w*|добр\w+ (?:день|утро|вечер)|хай|hi|hello|hey|"
    r"салют|ку|доброго времени суток|алло|good (?:morning|afternoon|evening))\b"
)
_HELP = re.compile(
    r"что (?:ты |вы )?(?:вообще )?(?:умеешь|умеете|можешь|можете)|(?:ты|вы) что (?:вообще )?"
    r"(?:умеешь|умеете|можешь|можете)|(?:с )?чем (?:ты |вы )?(?:можешь |можете )?помочь|"
    r"кто ты|ты (?:вообще )?кто(?: (?:вообще|такой|такая))?|(?<!за )помощь|help|"
    r"как (?:тобой|с тобой) пользоваться|что ты такое|что ты знаешь|what can you do|who are you"
)
# a newcomer says so beside a greeting or «что умеешь»: «я тут первый раз», «я новенький»
_NEWCOMER = re.compile(
    r"(?:я )?(?:тут |здесь |у вас )?(?:первый раз|впервые|новеньк\w*|нов\w* пользовател\w*)"
    r"(?: (?:тут|здесь|у вас))?"
)
# is anyone there, who answers — the whole message: «вы тут?», «ты бот?», «можно вопрос?»
# («у меня вопрос по H100 …» goes on to ask it)
_PRESENCE = re.compile(
    r"(?:а |подскажите,? )?(?:(?:ты|вы) (?:бот|робот|человек|тут|здесь)|"
    r"(?:ты|вы) (?:(?:живой|настоящий) )?(?:бот|робот|человек|нейросеть|ии|ai)"
    r"(?: или (?:(?:живой|настоящий) )?(?:бот|робот|человек|нейросеть))?|"
    r"(?:(?:тут|здесь|есть) ){0,2}кто[- ]?\w*(?: живой)?(?: (?:тут|здесь))?(?: есть)?|"
    r"можно (?:задать )?вопрос|"
    r"у меня (?:есть )?(?:вопрос|пара вопросов)|помогите,? (?:пожалуйста|плиз)?|"
    r"чем (?:вы )?занимаетесь|как (?:дела|жизнь|поживаешь)|how are you|are you (?:a )?bot)"
)
_THANKS = re.compile(
    r"^(?:спасиб\w*|пасиб\w*|благодарю|спс|thanks|thank you|ок|окей|понятно|ясно)\b"
)
# thanks after a word of praise: «огонь, спасибо», «класс, благодарю»
_THANKS_WORD = re.compile(r"\b(?:спасиб\w*|пасиб\w*|благодарю|спс|thanks|thank you)\b")
# a goodbye or praise with nothing else asked: «ладно, пока», «хорошего вечера!», «вы лучшие»
_BYE = re.compile(
    r"^(?:(?:ну |ладно,? |ок,? |всё,? )?(?:пока\w*|до свидания|до встречи|всего доброго|"
    r"всего хорошего|удачи|хорошего (?:дня|вечера|выходных)|доброй ночи|bye|goodbye|see you))\b"
)
_PRAISE = re.compile(
    r"(?:вс[её] )?(?:заработал\w*|получилось|помогло|разобрал\w*)|(?:вы|ты) (?:лучш\w*|супер|"
    r"молодц\w*|крут\w*)|супер|класс|отлично|круто|great|awesome"
)
# «ты бот?» is answered as asked (a program, not a person), «как дела?» with a word back
_BOT = re.compile(r"(?:бот|робот|человек|нейросеть|\bии\b|\bai\b|are you (?:a )?bot)")
_HOW_ARE_YOU = re.compile(r"как (?:дела|жизнь|поживаешь|поживаете|ты)\b|how are you")
CHATS = ("hello", "help", "thanks", "glad", "praise", "bye", "bot", "how")
# what may follow thanks or a greeting and still ask nothing: «спасибо, всё ясно!»
_ACK = frozenset(
    "все всё ясно понятно понял поняла разобрался разобралась ок окей хорошо отлично супер "
    "выручили помогли помог очень большое огромное вам тебе вы ты за помощь ответ ответы "
    "огонь класс круто супер a lot so much much "
    # «спс огромное, всё завелось 🙏 выручили»: it works now
    "завелось заработало заработал получилось взлетело "
    # «ок, дальше сам разберусь», «ладно, попробую»: the customer goes on alone
    "дальше сам сама сами разберусь разберемся попробую попробуем тогда ладно ну".split()
)
_COMPARISON = re.compile(
    r"отлича\w*|разниц\w*|различ\w*|сравн\w*|\bvs\.?\b|\bversus\b|difference|compare|"
    r"в отличие|то же самое|одно и то же|same as|same thing"
)
# «или», «лучше» compare only when the question names both things («LoRA или QLoRA»).
_WEAK_COMPARISON = re.compile(r"\bили\b|лучше|хуже|быстрее|медленнее|\bпротив\b|\bor\b|better")
# The same cues as words that stand between the two things compared («NVLink или PCIe»,
# «быстрее, чем в BF16»): the reader checks a named entry on each side (message.py).
PAIR_CUE = re.compile(
    r"\b(?:или|либо|or|чем|than|против|vs|лучше|хуже|быстрее|медленнее|better|faster)\b", re.I
)
# Words that show the question is about GPUs / AI infrastructure even if no entry covers it.
_DOMAIN = re.compile(
    rf"{CARD_WORD}|nvidia|нвидиа|amd|intel|tpu|npu|lpu|dpu|"
    r"нейросет\w*|нейронк\w*|модел\w*|llm|ллм|трансформер\w*|обучени\w*|инференс\w*|inference|"
    r"training|ии\b|\bai\b|ml\b|машинн\w* обучени\w*|датасет\w*|токен\w*|кластер\w*|сервер\w*|"
    r"дата[ -]?центр\w*|суперкомпьютер\w*|vram|памят\w*|тфлопс|flops|cuda|тензор\w*|"
    r"kubernetes|slurm|triton|tensorrt|onnx|attention|внимани\w*|квантов\w*|fine[ -]?tun\w*|"
    r"дообуч\w*|чекпоинт\w*|pytorch|пайторч|jax|tensorflow|интерконнект\w*|hbm|gddr|chip|чип\w*"
)
_DEFINITION = re.compile(
    rf"^(?:{DEFINITION}|что за|расскажи\w* (?:про|о|об)|"
    r"объясни\w*,?(?: (?:мне|нам),?)?"
    r"(?: (?:вкратце|кратко|коротко|простыми словами|по-простому|по-человечески|"
    r"по человечески|на пальцах|доступно|понятно),?)?"
    r"(?: что (?:такое|значит|за))?|"
    r"(?:зачем|для чего) (?:нужен|нужн\w*)|что дела(?:ет|ют)|"
    r"what is|what's|what are|explain|tell me about|what does)\s+(.+?)(?: do)?\??$"
)
# «тензорные ядра что это», «MIG — это что такое?»: the term first, the question after it
_DEFINITION_AFTER = re.compile(
    r"^(.+?)\s*[—–-]?\s*(?:это\s+что(?:\s+такое)?|что\s+это(?:\s+такое)?|что\s+такое)"
    r"(?:\s*,?\s+и\s+.+)?\s*\??$"  # «кубфлоу что такое и нужен ли он»: a second question
)
# Where the term of «что такое X …» ends: a dash or a bracket, or «и» opening a second question
# («что такое DoRA — это разновидность лоры?», «что такое CDNA и чем она отличается»); not a
# comma: «что за операция, когда каждая карта…» describes the thing asked about
_TERM_END = re.compile(
    r"\s*(?:[—–(;:]|\s-\s|\?|,?\s(?:и|and)\s+(?:чем|как\w*|зачем|нужн\w*|нужен|помога\w*|почему|"
    r"где|сколько|можно|стоит|что|есть|он|она|оно|они|его|её|ее|их|why|how|what|when|is|do|does)\b)"
)
DEFINED_MAX_WORDS = 4  # a longer head is a problem description («…ловлю OOM, что это»)
_ANAPHORA = re.compile(rf"\b(?:{PRONOUN}|то же|здесь|аналог\w*|them)\b")
_COUNTERPART = re.compile(
    r"аналог\w*|альтернатив\w*|вместо|замен\w*|что-то похож\w*|что-нибудь похож\w*|похож\w* на|"
    r"equivalent|alternative|instead of"
)
_FOLLOW_UP_START = re.compile(rf"^(?:{OPENER}|and|what about)\b")
# A calculator follow-up opens like this («а в FP8?», «тогда на 8 картах», «ок, а за неделю?»).
_CONTINUES = re.compile(rf"^\s*(?:{OPENER}|теперь)\b")
_THANKS_START = ("спасибо", "благодар", "спс", "thank")
# A speed question: the glossary explains tokens per second but gives no figure per setup.
_THROUGHPUT = re.compile(
    r"токен\w* (?:в|за|/) ?(?:секунд\w*|сек\b|с\b)|tokens? (?:per|a|/) ?(?:second|sec|s)\b|"
    r"\btok/s|\bt/s\b|\btps\b|скорост\w* (?:генерац|инференс|ответ|вывод)\w*|"
    r"пропускн\w* способност\w*|throughput"
)
# a memory's, a link's or a network's bandwidth: sheet and entry figures, not tokens per second
_BANDWIDTH_OF = re.compile(
    r"памят\w*|nvlink|связ[иь]|канал\w*|шин\w*|pcie|infiniband|(?<![\w])ib(?![\w])|hbm\w*|"
    r"gddr\w*|сет[иь]\w*|интерконнект\w*|fabric|roce|ethernet|слот\w*"
)
_TOKENS = re.compile(r"токен\w*|tokens?|tok/s|\bt/s\b|\btps\b|генерац\w*|инференс\w*")

_FAST = re.compile(FAST)
_ACTIVE = re.compile(ACTIVE)
_FIGURE_ASKED = [(kind, re.compile(asked)) for kind, (asked, _) in FIGURES.items()]


@dataclass(frozen=True)
class Signals:
    """Cheap lexical facts about one message, used by the engine to choose a route."""

    injection: bool
    greeting: bool  # greeting/help/thanks with nothing else to answer
    comparison_cue: bool  # explicit: «чем отличается», «разница», «vs»
    weak_comparison: bool  # «или», «лучше»: a comparison only if two entries are named
    domain: bool
    follow_up: bool  # refers back to the previous turn
    defined_term: str  # «что такое X» → X (folded), else ""
    not_ours: bool  # other vendors' prices, stocks, the provider's business, creative writing
    counterpart: bool  # «аналог у AMD», «что вместо NVLink»: the answer is another entry
    thanks: bool  # opens with thanks («спасибо», «благодарю»): the greeting says «пожалуйста»
    continues: bool  # opens like a calculator follow-up («а …», «тогда …», «ок, а …»)
    throughput: bool = False  # asks for tokens per second: no calculator gives that
    speed: bool = False  # wants it fast («шустрый», «скорость генерации»): bandwidth decides
    outside: bool = False  # another vendor's accelerator, a config or settings values (_FOREIGN)
    procedure: bool = False  # «как поднять / установить …»: a setup how-to (_PROCEDURE)
    how_to: bool = False  # «как <сделать> …» of any kind (_HOW_TO)
    code: bool = False  # names an API, a setting or a flag as code (_IDENTIFIER)
    active: bool = False  # argues from an MoE's active parameters («активных всего 13B»)
    pick: bool = False  # asks which option to take («что брать», «лучше», «квантовать в …»)
    figure: str = ""  # the kind of figure asked for (lexicon.FIGURES): "latency", "count"…
    # small talk: which reply fits (hello, help, thanks, praise, bye; "" when not small talk)
    chat: str = ""


def _throughput(t: str) -> bool:
    """Tokens per second asked for, not the bandwidth of a memory, a link or a network."""
    return bool(_THROUGHPUT.search(t)) and (bool(_TOKENS.search(t)) or not _BANDWIDTH_OF.search(t))


def signals(text: str, tokens: Tokens) -> Signals:
    """`tokens` is tokenize(text): the folded text and its words are not computed again."""
    t = tokens.folded
    n_words = len(tokens.words)
    rest = _THANKS_WORD.sub("", _GREETING.sub("", _THANKS.sub("", t))).strip(" ,!.")
    acknowledged = all(w in _ACK for w in words(rest))
    opened = _GREETING.match(t) or _THANKS.match(t) or (_THANKS_WORD.search(t) and n_words <= 6)
    small_talk = bool(opened) and (len(words(rest)) <= 1 or acknowledged)
    asked = _NEWCOMER.sub("", rest)  # «я тут первый раз» asks nothing more
    help_asked = bool(_HELP.search(asked) and len(words(asked)) <= 8)
    help_asked = help_asked or bool(_PRESENCE.fullmatch(rest.strip(" ,!?.")))
    bye = bool(_BYE.match(t)) and len(words(t)) <= 5
    praise = bool(_PRAISE.search(t)) and len(words(t)) <= 6 and not _DOMAIN.search(t)
    greeting = small_talk or help_asked or bye or praise
    chat = _chat(t, help_asked, bye, praise) if greeting else ""
    throughput = _throughput(t)
    return Signals(
        injection=bool(_INJECTION.search(t)),
        greeting=greeting,
        chat=chat,
        comparison_cue=bool(_COMPARISON.search(t)),
        weak_comparison=bool(_WEAK_COMPARISON.search(t)),
        domain=bool(_DOMAIN.search(t)),
        follow_up=bool(_ANAPHORA.search(t) or _FOLLOW_UP_START.match(t)) and n_words <= 12,
        defined_term=_defined_term(text, t),
        not_ours=bool(_NOT_OURS.search(t) or _CREATIVE.search(t)) or _other_cloud(t),
        counterpart=bool(_COUNTERPART.search(t)),
        thanks=text.strip().lower().startswith(_THANKS_START),
        continues=bool(_CONTINUES.search(text.lower())),
        throughput=throughput,
        speed=throughput or bool(_FAST.search(t)),
        outside=bool(_FOREIGN.search(t) or _RECIPE.search(t)),
        procedure=bool(_PROCEDURE.search(t)),
        how_to=bool(_HOW_TO.search(t)),
        code=bool(_IDENTIFIER.search(text)),
        active=bool(_ACTIVE.search(t)),
        pick=bool(_PICK.search(t)),
        figure=next((kind for kind, asked in _FIGURE_ASKED if asked.search(t)), ""),
    )


# a pick among options («что брать: 8×H200 или 8×RTX PRO 6000?», «в каком виде брать»)
_PICK = re.compile(
    r"(?<!\w)(?:брать|берем|взять|выбрать|выбира\w*|лучше|квантовать|юзать|разумнее)(?!\w)"
)


def _other_cloud(t: str) -> bool:
    if not _CLOUDS.search(t):
        return False
    return not _ABOUT_US.search(t) or bool(_THEIR_PRICE.search(t))


def _chat(t: str, help_asked: bool, bye: bool, praise: bool) -> str:
    if bye:
        return "bye"
    if help_asked and _BOT.search(t):
        return "bot"
    if help_asked and _HOW_ARE_YOU.search(t):
        return "how"
    if (_THANKS.match(t) or _THANKS_WORD.search(t)) and not help_asked:
        return "glad" if praise else "thanks"  # «заработало, спс»: «Пожалуйста! Рад, что…»
    if praise:
        return "praise"
    return "help" if help_asked and not _GREETING.match(t) else "hello"


def defined_term(text: str) -> str:
    """«что такое X», «X что это» → X as the user wrote it; any other message → ""."""
    return _defined_term(text, tokenize(text).folded)


# «VRAM — что это такое простыми словами?»: how to explain it, not part of the term or question
_HOW_TO_EXPLAIN = re.compile(
    r"(?<![\s,])"  # tried where a run of spaces and commas starts, not from each of its characters
    r"[\s,]*(?:простыми словами|по-простому|по простому|вкратце|кратко|коротко|в двух словах|"
    r"по-человечески|по человечески|на пальцах|"
    r"если просто|in simple terms|simply|briefly)\s*\??$"
)


def _defined_term(text: str, folded: str) -> str:
    """«что такое X» or «X что это» → X in the user's spelling, else ""."""
    folded = _HOW_TO_EXPLAIN.sub("", folded)
    match = _DEFINITION.match(folded)
    if match:
        term = _TERM_END.split(match.group(1), maxsplit=1)[0].strip()
        return _original_span(text, term) if term else ""
    after = _DEFINITION_AFTER.match(folded)
    head = words(after.group(1)) if after else []
    if after and len(head) <= DEFINED_MAX_WORDS and any(w not in STOPWORDS for w in head):
        return _original_span(text, after.group(1))
    return ""


def _original_span(text: str, folded: str) -> str:
    """The user's own spelling of a folded fragment («tpu» → «TPU»)."""
    squashed = re.sub(r"\s+", " ", text).strip()
    at = fold(squashed).find(folded)
    return squashed[at : at + len(folded)] if at >= 0 else folded
