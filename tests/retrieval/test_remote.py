"""The OpenAI-compatible embedder against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, ClassVar

import numpy as np
import pytest

from pagemem import Memory, PagememError
from pagemem.retrieval.remote import OpenAIEmbedder, SentenceTransformerEmbedder


class Handler(BaseHTTPRequestHandler):
    mode: ClassVar[str] = "ok"
    seen: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Handler.seen.append(
            {"path": self.path, "body": body, "auth": self.headers["Authorization"]}
        )
        texts = body["input"]
        if Handler.mode == "error":
            self.send_response(500)
            self.end_headers()
            return
        if Handler.mode == "garbage":
            payload: bytes = b"<html>oops</html>"
        else:
            count = len(texts) - (1 if Handler.mode == "short" else 0)
            dim = 3 if Handler.mode == "dims" else 4
            data = [
                {"index": i, "embedding": [float(len(texts[i])), 1.0, float(i), 2.0][:dim]}
                for i in reversed(range(count))  # out of order on purpose
            ]
            payload = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Handler.mode, Handler.seen = "ok", []
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_embeds_in_order_normalised_with_auth(endpoint: str) -> None:
    embedder = OpenAIEmbedder(
        "test-model", base_url=endpoint, api_key="sk-test", dim=4, batch_size=2
    )
    vectors = embedder.embed(["a", "bbb", "cc"])
    assert vectors.shape == (3, 4)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert vectors[1][0] > vectors[0][0]  # order follows "index", not the response order
    assert [call["path"] for call in Handler.seen] == ["/v1/embeddings", "/v1/embeddings"]
    assert Handler.seen[0]["body"] == {"model": "test-model", "input": ["a", "bbb"]}
    assert Handler.seen[0]["auth"] == "Bearer sk-test"
    assert embedder.model_id == "openai:test-model"


def test_memory_searches_with_a_remote_embedder(endpoint: str) -> None:
    embedder = OpenAIEmbedder("m", base_url=endpoint, dim=4)
    with Memory(":memory:", embedder=embedder) as mem:
        me = mem.scope("acme", "priya")
        me.archive.insert("Priya prefers aisle seats")
        assert [h.record.id for h in me.archive.search("aisle")] == ["a1"]


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("error", "answered 500"),
        ("garbage", "did not return JSON"),
        ("short", "returned 1 vectors for 2"),
        ("dims", "returned 3 dimensions; expected 4"),
    ],
)
def test_bad_endpoint_answers_are_clear_errors(endpoint: str, mode: str, message: str) -> None:
    Handler.mode = mode
    with pytest.raises(PagememError, match=message):
        OpenAIEmbedder("m", base_url=endpoint, dim=4).embed(["a", "b"])


def test_unreachable_endpoint() -> None:
    embedder = OpenAIEmbedder("m", base_url="http://127.0.0.1:9/v1", dim=4, timeout=2)
    with pytest.raises(PagememError, match="unreachable"):
        embedder.embed(["a"])


def test_sentence_transformers_is_optional() -> None:
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        with pytest.raises(PagememError, match="pagemem\\[sentence-transformers\\]"):
            SentenceTransformerEmbedder("/nonexistent")
    else:
        pytest.skip("sentence-transformers is installed; the missing-package path is not reachable")
