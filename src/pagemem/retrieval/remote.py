"""Embedders that are opt-in: any OpenAI-compatible endpoint, or sentence-transformers.

Neither is used unless asked for: the endpoint is the only network access pagemem
makes, and sentence-transformers pulls in torch.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

import numpy as np

from pagemem.errors import PagememError
from pagemem.retrieval.embed import Role, Vectors

__all__ = ["OpenAIEmbedder", "SentenceTransformerEmbedder"]


def _normalised(rows: Any) -> Vectors:
    matrix = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    out: Vectors = matrix / np.maximum(norms, 1e-12)
    return out


class OpenAIEmbedder:
    """POST {base_url}/embeddings, as OpenAI, vLLM, llama.cpp server and Ollama serve it."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str = "https://api.openai.com/v1",
        api_key: str | None = None,
        dim: int,
        batch_size: int = 128,
        timeout: float = 60.0,
    ) -> None:
        self.model_id = f"openai:{model}"
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.dim = dim
        self.batch_size = batch_size
        self.timeout = timeout

    def embed(self, texts: Sequence[str], *, role: Role = "document") -> Vectors:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            rows.extend(self._post(list(texts[start : start + self.batch_size])))
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = _normalised(rows)
        if vectors.shape[1] != self.dim:
            raise PagememError(
                f"{self.model_id} returned {vectors.shape[1]} dimensions; expected {self.dim}"
            )
        return vectors

    def _post(self, batch: list[str]) -> list[list[float]]:
        body = json.dumps({"model": self.model, "input": batch}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            f"{self.base_url}/embeddings", data=body, headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise PagememError(f"embedding endpoint answered {exc.code}: {exc.reason}") from exc
        except (urllib.error.URLError, TimeoutError) as exc:
            raise PagememError(f"embedding endpoint unreachable: {exc}") from exc
        except json.JSONDecodeError as exc:
            raise PagememError("embedding endpoint did not return JSON") from exc
        try:
            items = sorted(payload["data"], key=lambda item: item["index"])
            rows = [list(map(float, item["embedding"])) for item in items]
        except (KeyError, TypeError, ValueError) as exc:
            raise PagememError(f"embedding endpoint returned an unexpected body: {exc!r}") from exc
        if len(rows) != len(batch):
            raise PagememError(f"embedding endpoint returned {len(rows)} vectors for {len(batch)}")
        return rows


class SentenceTransformerEmbedder:
    """Any local sentence-transformers model (pip install 'pagemem[sentence-transformers]')."""

    def __init__(self, model_path: str, *, batch_size: int = 64) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise PagememError(
                "SentenceTransformerEmbedder needs: pip install 'pagemem[sentence-transformers]'"
            ) from exc
        self._model = SentenceTransformer(model_path, device="cpu", local_files_only=True)
        self.model_id = f"st:{model_path}"
        self.dim = int(self._model.get_sentence_embedding_dimension())
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str], *, role: Role = "document") -> Vectors:
        rows = self._model.encode(list(texts), batch_size=self.batch_size, show_progress_bar=False)
        return _normalised(rows)
