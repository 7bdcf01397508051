"""Sentence embeddings, offline: the protocol, the bundled ONNX model, and a cache key.

The default model is all-MiniLM-L6-v2 (Apache-2.0), exported to ONNX and quantised
to int8 once (scripts/export_minilm_onnx.py) and shipped inside the package with
its tokenizer. It runs on onnxruntime with a HuggingFace `tokenizers` tokenizer:
no torch, no network. Both files are checked against pinned sha256 hashes before
the model is loaded.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import cache
from typing import Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from pagemem._util import read_packaged

__all__ = ["DEFAULT_MODEL", "Embedder", "OnnxEmbedder", "Vectors"]

Vectors = npt.NDArray[np.float32]
Role = Literal["document", "query"]

DEFAULT_MODEL = "all-MiniLM-L6-v2-int8"
_FILES = {
    "model.onnx": "96772550e5df53372afbc0fd112bc15bc3eb990ff263b2b53d202ae102e6df31",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 rows. `model_id` is stored with each vector."""

    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str], *, role: Role = "document") -> Vectors: ...


class OnnxEmbedder:
    """all-MiniLM-L6-v2, int8 ONNX, mean-pooled and normalised: 384 dimensions.

    Dynamic int8 quantisation picks activation scales per batch, so a text embedded
    beside others comes out slightly different (cosine ~0.99) from the same text
    alone. The default batch size of 1 makes every vector depend on its text only;
    raise it for throughput when that does not matter.
    """

    dim = 384

    def __init__(
        self,
        *,
        batch_size: int = 1,
        max_length: int = 256,
        threads: int | None = None,
        document_prefix: str = "",
    ) -> None:
        self.model_id = DEFAULT_MODEL
        self.batch_size = batch_size
        self.document_prefix = document_prefix
        if threads is None:
            # One text at a time runs fastest on one thread (on two cores: 3.8 -> 3.0 ms a
            # 40-token note, 5.2 -> 4.1 ms at 65 tokens, no slower at 137); waking a
            # second thread costs more than it shares. Batches do gain (320 -> 510/s at 32).
            threads = 1 if batch_size == 1 else min(4, os.cpu_count() or 1)
        self._session, self._tokenizer = _load(max_length, threads)

    def embed(self, texts: Sequence[str], *, role: Role = "document") -> Vectors:
        if role == "document" and self.document_prefix:
            texts = [self.document_prefix + text for text in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # Sorting by length keeps padding (and wasted work) small within a batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._run([texts[i] for i in chunk])
        return out

    def later(self, text: str, *, role: Role = "document") -> Callable[[], Vectors]:
        """One text tokenized now and embedded by the call returned, for another thread
        to make: that call holds the interpreter lock only to start and to finish (the
        model runs without it), so it starts at once beside a busy caller. Tokenizing
        inside it would drop the lock and wait for it again, up to Python's switch
        interval (5 ms), while the caller runs on."""
        if type(self).embed is not OnnxEmbedder.embed:  # a subclass's own embed is kept
            return lambda: self.embed([text], role=role)[0]
        if role == "document" and self.document_prefix:
            text = self.document_prefix + text
        feeds = self._feeds([text])
        return lambda: self._infer(feeds)[0]

    def _run(self, texts: list[str]) -> Vectors:
        return self._infer(self._feeds(texts))

    def _feeds(self, texts: list[str]) -> dict[str, npt.NDArray[np.int64]]:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        return {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}

    def _infer(self, feeds: dict[str, npt.NDArray[np.int64]]) -> Vectors:
        mask = feeds["attention_mask"]
        (hidden,) = self._session.run(["last_hidden_state"], feeds)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        vectors: Vectors = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return vectors


def _verified(name: str) -> bytes:
    return read_packaged(f"data/models/{DEFAULT_MODEL}/{name}", _FILES[name])


@cache
def _load(max_length: int, threads: int):  # type: ignore[no-untyped-def]
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_str(_verified("tokenizer.json").decode())
    tokenizer.enable_truncation(max_length=max_length)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest in the batch
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Workers that spin after a run take a core from what runs next (the vector scan,
    # BLAS, the rest of a search): on two cores, 8.6 -> 5.3 ms an embedding and 14.7 ->
    # 7.8 ms the 100k-row scan after it.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(
        _verified("model.onnx"),
        sess_options=options,
        providers=["CPUExecutionProvider"],
    )
    return session, tokenizer
