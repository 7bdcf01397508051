"""The MCP server driven by the official SDK's own client over stdio."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from pagemem import Memory


def _text(result: object) -> str:
    return "".join(getattr(block, "text", "") for block in getattr(result, "content", []))


async def _session_run(db: Path) -> dict[str, object]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "pagemem", "mcp", "--db", str(db), "--tenant", "acme", "--user", "priya"],
    )
    out: dict[str, object] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        out["tools"] = sorted(t.name for t in tools.tools)
        out["insert"] = _text(
            await session.call_tool("archival_memory_insert", {"content": "Priya's dog is Miso"})
        )
        out["search"] = _text(await session.call_tool("archival_memory_search", {"query": "dog"}))
        replace = {"label": "nope", "old_content": "a", "new_content": "b"}
        out["bad"] = _text(await session.call_tool("core_memory_replace", replace))
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
    assert str(out["append"]).startswith("appended to block 'human'")
    assert str(out["replace"]).startswith("updated block 'human'")
    assert "the tram was late again" in str(out["recall"])
    with Memory(db, embedder=None) as memory:  # written to the configured scope only
        assert memory.scope("acme", "priya").archive.count() == 1
        assert memory.scope("acme", "priya").blocks.get("human").value == (
            "Name: Priya\nDog: Miso (a corgi)"
        )
        assert memory.scope("acme", "other").archive.count() == 0


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
            out["bad"] = _text(await session.call_tool("archival_memory_search", {"k": 3}))
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
    # the SDK checks arguments against the tool's schema before pagemem sees them
    assert "archival_memory_search" in str(out["bad"])
    assert "query" in str(out["bad"])
    assert "Field required" in str(out["bad"])
    with Memory(db, embedder=None) as memory:
        assert memory.scope("acme", "priya").archive.count() == 1
