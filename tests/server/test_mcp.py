"""The MCP server driven by the official SDK's own client over stdio."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from pagemem import MEMORY_TOOLS, Memory
from pagemem.models import ROLES


def _text(result: object) -> str:
    return "".join(getattr(block, "text", "") for block in getattr(result, "content", []))


def _stdio(db: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "pagemem", "mcp", "--db", str(db), "--tenant", "acme", "--user", "priya"],
    )


async def _session_run(db: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    async with stdio_client(_stdio(db)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        out["tools"] = sorted(t.name for t in tools.tools)
        out["insert"] = _text(
            await session.call_tool("archival_memory_insert", {"content": "Priya's dog is Miso"})
        )
        out["search"] = _text(await session.call_tool("archival_memory_search", {"query": "dog"}))
        replace = {"label": "nope", "old_content": "a", "new_content": "b"}
        bad = await session.call_tool("core_memory_replace", replace)
        out["bad"], out["bad_is_error"] = _text(bad), bad.is_error
        append = {"label": "human", "content": "Dog: Miso"}
        out["append"] = _text(await session.call_tool("core_memory_append", append))
        fix = {"label": "human", "old_content": "Miso", "new_content": "Miso (a corgi)"}
        out["replace"] = _text(await session.call_tool("core_memory_replace", fix))
        out["recall"] = _text(await session.call_tool("conversation_search", {"query": "tram"}))
    return out


def test_stdio_tools_list_call_and_errors(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, embedder=None) as memory:
        me = memory.scope("acme", "priya")
        me.blocks.set("human", "Name: Priya")
        me.recall.append("user", "the tram was late again")
        me.recall.evict(["m1"])
    out = anyio.run(_session_run, db)
    assert out["tools"] == [
        "archival_memory_insert",
        "archival_memory_search",
        "conversation_search",
        "core_memory_append",
        "core_memory_replace",
    ]
    assert out["insert"] == "saved to archival memory as a1"
    assert "Priya's dog is Miso" in str(out["search"])
    assert str(out["bad"]).startswith("error: core_memory_replace: no core memory block 'nope'")
    assert out["bad_is_error"] is True
    assert str(out["append"]).startswith("appended to block 'human'")
    assert str(out["replace"]).startswith("updated block 'human'")
    assert "the tram was late again" in str(out["recall"])
    with Memory(db, embedder=None) as memory:  # written to the configured scope only
        assert memory.scope("acme", "priya").archive.count() == 1
        assert memory.scope("acme", "priya").blocks.get("human").value == (
            "Name: Priya\nDog: Miso (a corgi)"
        )
        assert memory.scope("acme", "other").archive.count() == 0


Outcome = tuple[bool | None, str]  # (isError, text)


async def _hardening_run(
    db: Path,
) -> tuple[str, dict[str, dict[str, Any]], dict[str, Outcome]]:
    calls: dict[str, tuple[str, dict[str, object]]] = {
        "not_there": (
            "core_memory_replace",
            {"label": "human", "old_content": "Tokyo", "new_content": "Osaka"},
        ),
        "k0": ("archival_memory_search", {"query": "dog", "k": 0}),
        "unknown": ("archival_memory_insert", {"content": "Likes tea", "colour": "green"}),
        "wrong_tool": ("archival_memory_delete", {"id": "a1"}),
        "null_optional": ("archival_memory_search", {"query": "dog", "k": None, "tags": None}),
        "ok": ("core_memory_append", {"label": "human", "content": "Tea: green"}),
    }
    outcomes: dict[str, Outcome] = {}
    async with stdio_client(_stdio(db)) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        schemas = {t.name: t.input_schema for t in (await session.list_tools()).tools}
        for key, (name, arguments) in calls.items():
            result = await session.call_tool(name, arguments)
            outcomes[key] = (result.is_error, _text(result))
    return init.server_info.version, schemas, outcomes


def test_stdio_schemas_errors_unknown_arguments_and_version(tmp_path: Path) -> None:
    from importlib.metadata import version

    db = tmp_path / "s.db"
    with Memory(db, embedder=None) as memory:
        memory.scope("acme", "priya").blocks.set("human", "Name: Priya")
    server_version, schemas, out = anyio.run(_hardening_run, db)

    assert server_version == version("pagemem") != ""
    # one definition: MCP clients get the schema OpenAI and Anthropic get, unchanged
    assert schemas == {tool.name: tool.json_schema() for tool in MEMORY_TOOLS}
    for schema in schemas.values():  # what the SDK's own schemas lacked
        assert schema["additionalProperties"] is False
        assert all(spec["description"] for spec in schema["properties"].values())
    assert schemas["archival_memory_search"]["required"] == ["query"]
    roles = schemas["conversation_search"]["properties"]["roles"]
    assert roles["items"]["enum"] == list(ROLES)

    # a failed call is an error result the model can read
    is_error, text = out["not_there"]
    assert is_error is True
    assert text.startswith("error: core_memory_replace:")
    assert "'Tokyo'" in text
    assert out["k0"] == (True, "error: archival_memory_search: k must be from 1 to 50, got 0")
    is_error, text = out["unknown"]
    assert is_error is True
    assert "unknown argument 'colour'" in text
    is_error, text = out["wrong_tool"]
    assert is_error is True
    assert "unknown tool 'archival_memory_delete'" in text
    # an explicit null is an omitted optional argument
    assert out["null_optional"] == (False, "no archival memories match 'dog'")
    is_error, text = out["ok"]
    assert is_error is False
    assert text.startswith("appended to block 'human'")
    with Memory(db, embedder=None) as memory:  # the refused calls wrote nothing
        me = memory.scope("acme", "priya")
        assert me.archive.count() == 0
        assert me.blocks.get("human").value == "Name: Priya\nTea: green"


async def _http_run(url: str) -> dict[str, object]:
    from mcp.client.streamable_http import streamable_http_client

    out: dict[str, object] = {}
    async with streamable_http_client(url) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            await session.initialize()
            out["tools"] = len((await session.list_tools()).tools)
            out["insert"] = _text(
                await session.call_tool("archival_memory_insert", {"content": "Likes trains"})
            )
            bad = await session.call_tool("archival_memory_search", {"k": 3})
            out["bad"], out["bad_is_error"] = _text(bad), bad.is_error
    return out


def test_streamable_http(tmp_path: Path) -> None:
    import subprocess
    import time

    import httpx

    from pagemem.bench import free_port

    db = tmp_path / "h.db"
    Memory(db, embedder=None).close()
    port = free_port()
    command = [sys.executable, "-m", "pagemem", "mcp", "--db", str(db), "--tenant", "acme"]
    command += ["--user", "priya", "--transport", "streamable-http", "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/mcp", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        out = anyio.run(_http_run, f"http://127.0.0.1:{port}/mcp")
    finally:
        process.terminate()
        process.wait(10)
    assert out["tools"] == 5
    assert out["insert"] == "saved to archival memory as a1"
    # pagemem's own checker answers, as it does for OpenAI and Anthropic tool calls
    assert out["bad"] == "error: archival_memory_search: missing required argument 'query'"
    assert out["bad_is_error"] is True
    with Memory(db, embedder=None) as memory:
        assert memory.scope("acme", "priya").archive.count() == 1
