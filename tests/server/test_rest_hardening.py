"""Every request either works or gets the documented error shape, over a real socket."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pagemem import Memory
from pagemem.server.rest import create_app
from tests.llm_endpoint import Endpoint
from tests.server.test_rest import client, close_clients, start


@pytest.fixture
def api(tmp_path: Path) -> Iterator[tuple[httpx.Client, Memory, str]]:
    memory = Memory(tmp_path / "h.db", embedder=None)
    key = memory.issue_api_key("acme")
    base, server, thread = start(create_app(memory, max_body=64_000))
    yield client(base, key), memory, base
    close_clients()
    server.should_exit = True
    thread.join(5)
    memory.close()


def error_of(response: httpx.Response) -> dict[str, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"type", "message"}, body
    assert body["error"]["message"]
    return body["error"]  # type: ignore[no-any-return]


def test_the_body_limit_counts_the_bytes_read_not_the_header(
    api: tuple[httpx.Client, Memory, str],
) -> None:
    http, memory, _ = api

    def chunks() -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(200):
            yield b"x" * 1000
        yield b'"}'

    response = http.post(
        "/v1/users/priya/memories", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    assert error_of(response)["type"] == "too_large"
    assert memory.scope("acme", "priya").archive.count() == 0
    small = http.post("/v1/users/priya/memories", json={"text": "fits"})
    assert small.status_code == 201


@pytest.mark.parametrize(
    ("method", "path", "content", "status", "kind"),
    [
        ("get", "/v1/nowhere", None, 404, "not_found"),
        ("put", "/v1/users/priya/memories", b"{}", 405, "method_not_allowed"),
        ("post", "/v1/users/priya/memories", b'{"text": "\xff\xfe"}', 400, "invalid_request"),
        (
            "post",
            "/v1/users/priya/memories",
            b'{"text": ' + b"[" * 100_00 + b"]" * 100_00 + b"}",
            400,
            "invalid_request",
        ),
        ("get", "/v1/users/pri%FFya/memories", None, 400, "invalid_request"),
    ],
)
def test_every_error_has_the_documented_shape(
    api: tuple[httpx.Client, Memory, str],
    method: str,
    path: str,
    content: bytes | None,
    status: int,
    kind: str,
) -> None:
    http, _, _ = api
    response = http.request(
        method, path, content=content, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == status, response.text
    assert error_of(response)["type"] == kind


def test_two_different_byte_strings_never_share_a_user(
    api: tuple[httpx.Client, Memory, str],
) -> None:
    http, _memory, _ = api
    assert http.post("/v1/users/%C3%A9/memories", json={"text": "mine"}).status_code == 201
    assert http.get("/v1/users/%FF/memories").status_code == 400
    assert http.get("/v1/users/%EF%BF%BD/memories").json() == []


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/users/priya/memories/search", {"query": "x", "k": "5"}, "k"),
        ("/v1/users/priya/memories/search", {"query": "x", "k": True}, "k"),
        ("/v1/users/priya/memories/search", {"query": "x", "k": 5.5}, "k"),
        ("/v1/users/priya/forget", {"phrase": "x", "confirm": "yes"}, "confirm"),
        ("/v1/users/priya/forget", {"phrase": "x", "confirm": 1}, "confirm"),
        ("/v1/users/priya/memories", {"text": 5}, "text"),
        ("/v1/users/priya/memories", {"text": "x", "tags": "pets"}, "tags"),
    ],
)
def test_types_are_strict(
    api: tuple[httpx.Client, Memory, str], path: str, body: object, field: str
) -> None:
    http, memory, _ = api
    response = http.post(path, json=body)
    assert response.status_code == 400, response.text
    assert field in error_of(response)["message"]
    assert memory.scope("acme", "priya").archive.count() == 0


def test_the_auth_scheme_is_case_insensitive(api: tuple[httpx.Client, Memory, str]) -> None:
    _http, memory, base = api
    key = memory.issue_api_key("acme")
    for scheme in ("bearer", "BEARER", "Bearer"):
        response = httpx.get(
            f"{base}/v1/users/priya/memories", headers={"Authorization": f"{scheme} {key}"}
        )
        assert response.status_code == 200, scheme
    wrong = httpx.get(f"{base}/v1/users/priya/memories", headers={"Authorization": f"Basic {key}"})
    assert wrong.status_code == 401
    assert error_of(wrong)["type"] == "unauthorized"


def test_the_connection_survives_an_error(api: tuple[httpx.Client, Memory, str]) -> None:
    """One keep-alive connection: a 500, a 404 and a 400 in a row, then a success."""
    http, memory, base = api
    boom = memory.scope("acme", "boom")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    boom.archive.insert("x")
    host, port = base.removeprefix("http://").split(":")
    key = http.headers["Authorization"]
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        reader = raw.makefile("rb")

        def ask(path: str) -> int:
            raw.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: {key}\r\n\r\n".encode())
            status = int(reader.readline().split()[1])
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                assert not (name.lower() == "connection" and "close" in value.lower())
            body = reader.read(length)
            if status >= 400:
                error = json.loads(body)["error"]
                assert error["type"]
                assert error["message"]
            return status

        memory.store.get_record = broken  # type: ignore[method-assign]
        try:
            assert ask("/v1/users/boom/memories/a1") == 500
        finally:
            del memory.store.get_record  # type: ignore[attr-defined]
        assert ask("/v1/nowhere") == 404
        assert ask("/v1/users/priya/memories?limit=0") == 400
        assert ask("/v1/users/priya/memories") == 200


def test_api_keys_are_listed_and_revoked_by_a_short_id(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pagemem.cli import cli

    db = str(tmp_path / "k.db")
    with Memory(db, embedder=None) as memory:
        first = memory.issue_api_key("acme", label="laptop")
        memory.issue_api_key("globex", label="ci")
        keys = memory.api_keys()
        assert [(k.tenant, k.label, k.revoked_at) for k in keys] == [
            ("acme", "laptop", None),
            ("globex", "ci", None),
        ]
        assert all(k.id.startswith("k") and len(k.id) == 11 for k in keys)
        assert all(first not in repr(k) for k in keys)
        assert [k.label for k in memory.api_keys(tenant="acme")] == ["laptop"]
    listed = CliRunner().invoke(cli, ["key", "--db", db, "--list"])
    assert listed.exit_code == 0, listed.output
    assert keys[0].id in listed.output
    assert "laptop" in listed.output
    assert first not in listed.output
    done = CliRunner().invoke(cli, ["key", "--db", db, "--revoke", keys[0].id])
    assert done.exit_code == 0, done.output
    with Memory(db, embedder=None) as memory:
        assert memory.tenant_for_api_key(first) is None
        assert memory.api_keys()[0].revoked_at is not None
        with pytest.raises(Exception, match="no live key"):
            memory.revoke_api_key(keys[0].id)
    unknown = CliRunner().invoke(cli, ["key", "--db", db, "--revoke", "k0000000000"])
    assert unknown.exit_code != 0
    assert "no live key" in unknown.output


def test_serve_takes_a_model_for_the_agent_endpoints(tmp_path: Path, endpoint: Endpoint) -> None:
    import subprocess
    import sys
    import time

    from pagemem.bench import free_port

    db = tmp_path / "s.db"
    with Memory(db, embedder=None) as memory:
        key = memory.issue_api_key("acme")
    port = free_port()
    endpoint.replies.append((200, "Hello from a served model."))
    command = [sys.executable, "-m", "pagemem", "serve", "--db", str(db), "--port", str(port)]
    command += ["--model", "scripted", "--base-url", endpoint.url]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{base}/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        step = httpx.post(
            f"{base}/v1/users/priya/agent/step",
            json={"text": "hi"},
            headers={"Authorization": f"Bearer {key}"},
            timeout=30,
        )
        assert step.status_code == 200, step.text
        assert step.json()["text"] == "Hello from a served model."
        assert endpoint.requests[0]["model"] == "scripted"
    finally:
        server.terminate()
        server.wait(10)


def test_cli_errors_name_cli_options(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from pagemem.cli import cli

    monkeypatch.delenv("PAGEMEM_LLM_MODEL", raising=False)
    result = CliRunner().invoke(cli, ["chat", "--db", ":memory:"], input="hi\n")
    assert result.exit_code != 0
    assert "--model" in result.output
    assert "pass model=" not in result.output
