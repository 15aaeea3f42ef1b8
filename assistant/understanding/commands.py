"""A message with pasted commands or code → the setup they state, in the words the reader knows.

    setup_words("$ vllm serve neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8 --max-model-len 8192")
        → "Meta Llama 3.1 70B Instruct FP8 контекст 8192 токенов"
    setup_words("vllm serve meta-llama/Llama-3.3-70B-Instruct --quantization fp8")
        → "Llama 3.3 70B Instruct fp8"
    setup_words('AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-32B-Instruct",
                 torch_dtype=torch.bfloat16)')
        → "Qwen2.5 32B Instruct bf16"
    without_code("карта L40S:\\nmodel = AutoModel….from_pretrained(…)\\nчто не так?")
        → "карта L40S:\\nчто не так?"

A command line is the customer's own setup written for a program: the model it loads, the
precision, the GPUs it spreads over, the context it asks for. The reader reads numbers and names
from prose, so the setup is restated as prose; the code line itself is not read (its
«from_pretrained» is no pre-training, its «0.95» no price).
"""

from __future__ import annotations

import re

# where a command or code names the model it loads: «vllm serve org/name», «--model org/name»,
# «from_pretrained("org/name"», «LLM(model="org/name"»
_MODEL = re.compile(
    r"(?:\bserve\s+|--model[= ]\s*|from_pretrained\(\s*[\"']|\bmodel\s*=\s*[\"'])"
    r"(?:[\w.-]+/)?([\w.-]+)"
)
_DTYPE = re.compile(r"(?:torch_dtype|dtype)\s*[= ]\s*(?:torch\.)?[\"']?(\w+)", re.IGNORECASE)
_DTYPES = {"bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "half": "fp16", "fp16": "fp16"}
_QUANTISED = re.compile(r"(?<![a-z])(?:awq|gptq|int4|w4a16|bnb[-_ ]?4bit)(?![a-z])", re.IGNORECASE)
# the weights' format a serving flag asks for: «--quantization fp8», «quantization="awq"»
_QUANTIZATION = re.compile(r"quantization\s*[= ]\s*[\"']?([\w-]+)", re.IGNORECASE)
_QUANTIZATIONS = {"fp8": "fp8", "awq": "int4", "gptq": "int4", "bitsandbytes": "int4"}
_QUANTIZATIONS |= {"modelopt_fp4": "fp4", "nvfp4": "fp4", "mxfp4": "fp4"}
# the GPUs a command spreads over: vLLM's tensor parallelism, torchrun's processes per node
_TP = re.compile(
    r"(?:--tensor-parallel-size|-tp|tensor_parallel_size|--nproc[_-]per[_-]node)\s*[= ]\s*(\d+)"
)
# a DeepSpeed config pasted next to the log: «"zero_optimization": {"stage": 2}»
_ZERO_STAGE = re.compile(r"zero_optimization[\"']?\s*:\s*\{[^}]*?[\"']stage[\"']\s*:\s*([0-3])")
_CONTEXT = re.compile(r"(?:--max-model-len|max_model_len)\s*[= ]\s*(\d+)|max seq len \((\d+)\)")
# a line of code or a shell command, not the customer's prose
_CODE = re.compile(
    r"^\s*(?:```|\$ |>>> |(?:python3?|torchrun|accelerate|deepspeed|vllm)\s)|"
    r"from_pretrained\(|^\s*[\w.]+\s*=\s*[\w.]+\(|^\s*(?:import|from)\s+[\w.]+"
)
# where a shell command a person typed into a sentence ends: its arguments never hold «, »,
# «. » or a dash between spaces, the person's words that follow do («torchrun --nproc_per_node
# 8, DDP, full finetune llama 3.1 8b. 8 карт h100 — и всё равно не хватает??»)
# («… 8, DDP …»), nor a Russian word («vllm serve llama-3.3-70b на одной h100 80gb»)
_COMMAND_END = re.compile(r"[,;.]\s|\s[—–-]\s|\s(?=[а-яёА-ЯЁ])")
_SHELL = re.compile(r"^\s*(?:\$ )?(?:python3?|torchrun|accelerate|deepspeed|vllm)\s")


def setup_words(text: str) -> str:
    """What the commands and code in `text` set up, as words; "" when they set up nothing."""
    words: list[str] = []
    model = _MODEL.search(text)
    if model:
        words.append(re.sub(r"[-_]+", " ", model.group(1)))
    dtype = _DTYPE.search(text)
    if dtype and dtype.group(1).lower() in _DTYPES:
        words.append(_DTYPES[dtype.group(1).lower()])
    quantization = _QUANTIZATION.search(text)
    if quantization and quantization.group(1).lower() in _QUANTIZATIONS:
        words.append(_QUANTIZATIONS[quantization.group(1).lower()])
    elif model and _QUANTISED.search(model.group(1)):
        words.append("int4")
    tp = _TP.search(text)
    if tp and int(tp.group(1)) > 1:
        words.append(f"на {tp.group(1)} GPU")
    stage = _ZERO_STAGE.search(text)
    if stage and stage.group(1) != "0":
        words.append(f"zero stage {stage.group(1)}")
    context = _CONTEXT.search(text)
    if context:
        words.append(f"контекст {context.group(1) or context.group(2)} токенов")
    return " ".join(words)


def without_code(prose: str) -> str:
    """The prose without its lines of code and shell commands; a command the person goes on
    writing after keeps the words that follow it."""
    kept: list[str] = []
    for line in prose.splitlines():
        if not _CODE.search(line):
            kept.append(line)
        elif _SHELL.match(line) and (end := _COMMAND_END.search(line)):
            kept.append(line[end.end() :])
    return "\n".join(kept)
