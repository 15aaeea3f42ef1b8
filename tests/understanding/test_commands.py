"""Pasted commands and code → the setup they state, read as the customer's own words."""

from __future__ import annotations

from assistant.understanding.commands import setup_words, without_code


def test_a_vllm_command_states_the_model_its_precision_gpus_and_context() -> None:
    words = setup_words(
        "$ vllm serve neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8 --tensor-parallel-size 4 "
        "--max-model-len 8192 --gpu-memory-utilization 0.95"
    )
    assert "Meta Llama 3.1 70B Instruct FP8" in words
    assert "на 4 GPU" in words and "контекст 8192 токенов" in words
    assert "0.95" not in words  # a utilisation share is no quantity of the setup


def test_code_that_loads_a_model_states_its_dtype_not_a_pre_training() -> None:
    code = (
        'model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-32B-Instruct", '
        'torch_dtype=torch.bfloat16, device_map="cuda:0")'
    )
    assert setup_words(code) == "Qwen2.5 32B Instruct bf16"
    assert without_code(f"карта L40S:\n{code}\nчто не так?") == "карта L40S:\nчто не так?"


def test_a_quantised_checkpoint_a_zero_stage_and_the_logs_context_are_read() -> None:
    assert "int4" in setup_words("$ vllm serve TheBloke/Llama-2-70B-AWQ")
    config = '"zero_optimization": {"stage": 2, "overlap_comm": true}'
    assert "zero stage 2" in setup_words(config)
    log = "ValueError: The model's max seq len (131072) is larger than the maximum number"
    assert setup_words(log) == "контекст 131072 токенов"


def test_prose_without_commands_states_nothing() -> None:
    assert setup_words("какая пропускная способность у H100?") == ""
    assert without_code("у нас 2 сервера\nпо 8 карт") == "у нас 2 сервера\nпо 8 карт"


def test_a_command_typed_into_a_sentence_keeps_the_words_after_it() -> None:
    line = (
        "torchrun --nproc_per_node 8, DDP, full finetune llama 3.1 8b, adamw, bf16 amp. "
        "8 карт h100 — и все равно не хватает??"
    )
    kept = without_code(line)
    assert "full finetune llama 3.1 8b" in kept and "8 карт h100" in kept
    assert "--nproc_per_node" not in kept
    assert "на 8 GPU" in setup_words(line)
    assert without_code("$ torchrun --nproc_per_node 8 train.py --lr 0.95") == ""


def test_a_serving_flag_states_the_weights_format() -> None:
    words = setup_words("vllm serve meta-llama/Llama-3.3-70B-Instruct --quantization fp8")
    assert words.endswith("fp8")
    assert setup_words("vllm serve nvidia/Llama-3.1-8B --quantization modelopt_fp4").endswith("fp4")
    assert "int4" in setup_words('LLM(model="Qwen/Qwen2.5-72B-Instruct", quantization="awq")')


def test_a_command_ends_where_russian_words_begin() -> None:
    line = "vllm serve llama-3.3-70b-instruct-fp8 на одной h100 80gb, gpu_memory_utilization 0.9"
    assert without_code(line).startswith("на одной h100 80gb")
