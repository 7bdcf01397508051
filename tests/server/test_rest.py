"""The REST server, started for real with uvicorn on 127.0.0.1 and driven with httpx."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from pagemem import Memory
from pagemem.bench import free_port
from pagemem.server.rest import create_app


def start(app: object) -> tuple[str, uvicorn.Server, threading.Thread]:
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")  # type: ignore[arg-type]
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    return f"http://127.0.0.1:{port}", server, thread


@pytest.fixture
def served(db_target: str) -> Iterator[tuple[str, Memory]]:
    """The REST server on each backend in turn."""
    memory = Memory(db_target, embedder=None)
    base, server, thread = start(create_app(memory, max_body=64_000))
    yield base, memory
    close_clients()
    server.should_exit = True
    thread.join(5)
    memory.close()


_OPEN: list[httpx.Client] = []


def close_clients() -> None:
    """Close every client `client` made (their sockets were left for the collector)."""
    while _OPEN:
        _OPEN.pop().close()


def client(base: str, key: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    made = httpx.Client(base_url=base, headers=headers, timeout=10)
    _OPEN.append(made)  # closed when the server stops
    return made


def test_every_endpoint_with_a_valid_key(served: tuple[str, Memory]) -> None:
    base, memory = served
    api = client(base, memory.issue_api_key("acme", label="tests"))
    created = api.post(
        "/v1/users/priya/memories", json={"text": "I live in Seattle", "origin": "user"}
    )
    assert created.status_code == 201
    assert created.json()["consolidation"] == {"action": "added", "other": None}
    rid = created.json()["id"]
    assert api.get(f"/v1/users/priya/memories/{rid}").json()["text"] == "I live in Seattle"
    moved = api.post(
        "/v1/users/priya/memories", json={"text": "I live in Austin", "origin": "user"}
    ).json()
    assert moved["consolidation"] == {"action": "superseded", "other": rid}
    moved = moved["id"]
    again = api.post(
        "/v1/users/priya/memories", json={"text": "I live in Austin!", "origin": "user"}
    ).json()
    assert again["consolidation"] == {"action": "restated", "other": moved}
    kept = api.get(f"/v1/users/priya/memories/{again['id']}").json()
    assert kept["text"] == "I live in Austin!"  # acknowledged means kept
    assert kept["consolidation"] == {"action": "restated", "other": moved}
    hits = api.post("/v1/users/priya/memories/search", json={"query": "where do I live"}).json()
    assert [h["note"]["id"] for h in hits] == [moved]
    history = api.get(f"/v1/users/priya/memories/{moved}/history").json()
    assert [v["note"]["id"] for v in history] == [rid, moved]
    assert [n["id"] for n in api.get("/v1/users/priya/memories?limit=1").json()] == [rid]
    block = api.put("/v1/users/priya/blocks/human", json={"value": "Name: Priya"}).json()
    assert block["value"] == "Name: Priya"
    assert [b["label"] for b in api.get("/v1/users/priya/blocks").json()] == ["human"]
    memory.scope("acme", "priya").recall.append("user", "my dog is Miso")
    memory.scope("acme", "priya").recall.evict(["m1"])
    found = api.post("/v1/users/priya/recall/search", json={"query": "dog"}).json()
    assert [m["content"] for m in found] == ["my dog is Miso"]
    window = api.post("/v1/users/priya/context", json={"max_tokens": 500}).json()
    assert window["request"][0]["role"] == "system"
    assert "Name: Priya" in window["request"][0]["content"]
    preview = api.post("/v1/users/priya/forget", json={"phrase": "Austin"}).json()
    assert (preview["notes"], preview["done"]) == ([moved, again["id"]], False)
    export = api.get("/v1/users/priya/export")
    assert export.headers["content-type"].startswith("application/x-ndjson")
    assert '"type": "pagemem-export"' in export.text.splitlines()[0]
    assert api.delete(f"/v1/users/priya/memories/{rid}").status_code == 204
    assert api.get(f"/v1/users/priya/memories/{rid}").status_code == 404
    spec = httpx.get(f"{base}/openapi.json").json()
    assert "/v1/users/{user}/memories/search" in spec["paths"]


def test_auth_failures(served: tuple[str, Memory]) -> None:
    base, memory = served
    for key in (None, "nope", "pm_not-a-real-key"):
        response = client(base, key).get("/v1/users/priya/memories")
        assert response.status_code == 401
        assert response.json()["error"]["type"] == "unauthorized"
    key = memory.issue_api_key("acme")
    assert memory.revoke_api_key(key)
    assert client(base, key).get("/v1/users/priya/memories").status_code == 401


def test_another_tenants_key_never_reaches_the_data(served: tuple[str, Memory]) -> None:
    base, memory = served
    acme = client(base, memory.issue_api_key("acme"))
    globex = client(base, memory.issue_api_key("globex"))
    rid = acme.post("/v1/users/priya/memories", json={"text": "Acme secret plan"}).json()["id"]
    assert globex.get(f"/v1/users/priya/memories/{rid}").status_code == 404
    assert globex.delete(f"/v1/users/priya/memories/{rid}").status_code == 404
    assert globex.post("/v1/users/priya/memories/search", json={"query": "plan"}).json() == []
    assert globex.get("/v1/users/priya/memories").json() == []
    assert "Acme" not in globex.get("/v1/users/priya/export").text
    assert acme.get(f"/v1/users/priya/memories/{rid}").status_code == 200


NOTES = "/v1/users/priya/memories"


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "kind"),
    [
        ("post", "/v1/users/priya/memories", {"text": ""}, 400, "invalid_request"),
        (
            "post",
            "/v1/users/priya/memories",
            {"text": "x", "origin": "rumour"},
            400,
            "invalid_request",
        ),
        (
            "post",
            "/v1/users/priya/memories",
            {"text": "x", "key": "has space"},
            400,
            "invalid_input",
        ),
        ("post", "/v1/users/priya/memories/search", {"query": "x", "k": 0}, 400, "invalid_request"),
        ("put", "/v1/users/priya/blocks/Bad Label", {"value": "x"}, 400, "invalid_input"),
        ("post", "/v1/users/priya/memories", {"text": "x" * 70_000}, 413, "too_large"),
        ("get", "/v1/users/priya/memories/a999", None, 404, "not_found"),
    ],
)
def test_malformed_requests_get_clear_errors(
    served: tuple[str, Memory], method: str, path: str, body: object, status: int, kind: str
) -> None:
    base, memory = served
    api = client(base, memory.issue_api_key("acme"))
    response = (
        api.request(method, path, json=body) if body is not None else api.request(method, path)
    )
    assert response.status_code == status, response.text
    assert response.json()["error"]["type"] == kind
    raw = api.post(
        "/v1/users/priya/memories",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert raw.status_code == 400


def test_key_command_issues_and_revokes(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pagemem.cli import cli

    db = str(tmp_path / "k.db")
    issued = CliRunner().invoke(cli, ["key", "--db", db, "--tenant", "acme", "--label", "ci"])
    assert issued.exit_code == 0, issued.output
    key = issued.output.strip()
    with Memory(db, embedder=None) as memory:
        assert memory.tenant_for_api_key(key) == "acme"
    wrong = CliRunner().invoke(cli, ["key", "--db", db, "--tenant", "globex", "--revoke", key])
    assert wrong.exit_code != 0
    done = CliRunner().invoke(cli, ["key", "--db", db, "--tenant", "acme", "--revoke", key])
    assert done.output.strip() == "revoked"
    with Memory(db, embedder=None) as memory:
        assert memory.tenant_for_api_key(key) is None


def test_update_keeps_the_old_version(served: tuple[str, Memory]) -> None:
    base, memory = served
    api = client(base, memory.issue_api_key("acme"))
    rid = api.post(NOTES, json={"text": "Gate B12"}).json()["id"]
    new = api.patch(f"{NOTES}/{rid}", json={"text": "Gate C3"}).json()["id"]
    assert new != rid
    versions = api.get(f"{NOTES}/{new}/history").json()
    assert [(v["note"]["text"], v["replaced_by"]) for v in versions] == [
        ("Gate B12", new),
        ("Gate C3", None),
    ]
    again = api.patch(f"{NOTES}/{rid}", json={"text": "Gate D1"})
    assert again.status_code == 400
    assert "already replaced" in again.json()["error"]["message"]


def test_agent_step_needs_a_model_and_runs_with_one(tmp_path: Path) -> None:
    from pagemem.llm import ScriptedLLM

    memory = Memory(tmp_path / "a.db", embedder=None)
    key = memory.issue_api_key("acme")
    llm = ScriptedLLM(["Hello from the agent."])
    for app, expected in ((create_app(memory), 501), (create_app(memory, llm=llm), 200)):
        base, server, thread = start(app)
        with client(base, key) as api:
            response = api.post("/v1/users/priya/agent/step", json={"text": "hi"})
        server.should_exit = True
        thread.join(5)
        assert response.status_code == expected, response.text
    assert response.json()["text"] == "Hello from the agent."
    assert [m.content for m in memory.scope("acme", "priya").recall.in_context()] == [
        "hi",
        "Hello from the agent.",
    ]


def test_named_agents_have_their_own_memory(tmp_path: Path) -> None:
    from pagemem.llm import ScriptedLLM

    memory = Memory(tmp_path / "n.db", embedder=None)
    key = memory.issue_api_key("acme")
    other = memory.issue_api_key("globex")
    base, server, thread = start(create_app(memory, llm=ScriptedLLM(["Booked."])))
    try:
        with client(base, key) as api, client(base, other) as stranger:
            made = api.post(
                "/v1/users/priya/agents", json={"name": "travel", "system": "You book trips."}
            )
            assert made.status_code == 201
            assert api.get("/v1/users/priya/agents/travel").json()["system"] == "You book trips."
            assert api.get("/v1/users/priya/agents/nope").status_code == 404
            assert stranger.get("/v1/users/priya/agents/travel").status_code == 404
            bad = api.post("/v1/users/priya/agents", json={"name": "has space"})
            assert bad.status_code == 400
            turn = api.post("/v1/users/priya/agents/travel/step", json={"text": "book Lisbon"})
            assert turn.json()["text"] == "Booked."
    finally:
        server.should_exit = True
        thread.join(5)
    agent_scope = memory.scope("acme", "priya", "travel")
    assert [m.content for m in agent_scope.recall.in_context()] == ["book Lisbon", "Booked."]
    assert memory.scope("acme", "priya").recall.in_context() == []
