from __future__ import annotations

import pytest

from pagemem import Budget, Context, InvalidInputError, Memory, ScopedMemory
from pagemem.guard.envelope import RULE
from pagemem.models import ToolCall


@pytest.fixture
def wme(words_memory: Memory) -> ScopedMemory:
    return words_memory.scope("acme", "priya")


def _window(me: ScopedMemory, max_tokens: int, **kwargs: object) -> Context:
    kwargs.setdefault("summary_tokens", 0)
    kwargs.setdefault("default_blocks", False)  # the arithmetic below counts every word
    kwargs.setdefault("envelope", False)  # (test_envelope.py covers the markers)
    return Context(me, max_tokens=max_tokens, system="You are helpful.", **kwargs)  # type: ignore[arg-type]


def test_evicts_oldest_first_into_recall(wme: ScopedMemory) -> None:
    ctx = _window(wme, 12)  # system is 3 words
    ctx.append("user", "one two three")  # 6
    ctx.append("assistant", "four five six")  # 9
    evicted = ctx.append("user", "seven eight nine")  # 12: fits exactly
    assert evicted == []
    evicted = ctx.append("assistant", "ten")  # 13: the oldest goes
    assert [m.content for m in evicted] == ["one two three"]
    assert [m.content for m in ctx.messages] == ["four five six", "seven eight nine", "ten"]
    assert ctx.usage().total == 10
    assert [m.content for m in wme.recall.search("two")] == ["one two three"]
    assert wme.recall.search("two")[0].in_context is False


def test_never_evicts_the_newest_message(wme: ScopedMemory) -> None:
    ctx = _window(wme, 6)
    ctx.append("user", "short")
    evicted = ctx.append("user", "this message alone is far longer than the whole budget")
    assert [m.content for m in evicted] == ["short"]
    assert [m.content for m in ctx.messages] == [
        "this message alone is far longer than the whole budget"
    ]
    usage = ctx.usage()
    assert usage.total > usage.limit  # over budget, reported, but the newest stays


def test_system_and_core_are_never_evicted(wme: ScopedMemory) -> None:
    wme.blocks.set("human", "Name: Priya. Home airport SEA.", limit=10)
    ctx = _window(wme, 12)
    for i in range(6):
        ctx.append("user", f"message {i}")
    text = ctx.text()
    assert text.startswith("You are helpful.")
    assert "<human>Name: Priya. Home airport SEA.</human>" in text
    assert [m.content for m in ctx.messages] == ["message 4", "message 5"]
    assert ctx.usage().system == 3
    assert ctx.usage().core == 5


def test_core_growth_evicts_messages_on_compile(wme: ScopedMemory) -> None:
    wme.blocks.set("human", "Priya", limit=50)
    ctx = _window(wme, 10)
    for word in ("alpha beta", "gamma delta", "epsilon"):
        ctx.append("user", word)
    assert len(ctx.messages) == 3
    wme.blocks.append("human", "lives in Seattle")  # the block grows by three words
    ctx.compile()
    assert [m.content for m in ctx.messages] == ["gamma delta", "epsilon"]
    assert ctx.usage().total <= 10


def test_evict_newest_policy_keeps_the_old_turns(wme: ScopedMemory) -> None:
    ctx = _window(wme, 9, evict="newest")
    ctx.append("user", "alpha beta")
    ctx.append("user", "gamma delta")
    ctx.append("user", "epsilon zeta")
    ctx.append("user", "eta")
    assert [m.content for m in ctx.messages] == ["alpha beta", "gamma delta", "eta"]


def test_summary_folds_evicted_text_within_its_cap(wme: ScopedMemory) -> None:
    ctx = _window(wme, 14, summary_tokens=4)
    ctx.append("user", "I live in Seattle")
    ctx.append("user", "My dog is Miso")
    ctx.append("user", "I prefer aisle seats")
    ctx.append("user", "Book Lisbon flights now")
    summary = ctx.summary
    assert wme.counter.count(summary) <= 4
    assert "Seattle" not in summary  # the oldest words went first
    assert summary.split()[-1].strip(";") in ("seats", "aisle")
    assert "<summary>" in ctx.text()
    assert set(wme.recall.summary_sources()) == {
        m.id for m in wme.recall.search("seattle dog aisle")
    }


def test_summary_is_on_by_default_with_a_tenth_of_the_free_window(wme: ScopedMemory) -> None:
    ctx = Context(
        wme, max_tokens=60, system="You are helpful.", default_blocks=False, envelope=False
    )
    assert ctx.summary_tokens == (60 - 3) // 10  # what the system prompt leaves
    for text in ("I live in Seattle", "My dog is Miso", *(f"filler number {i}" for i in range(30))):
        ctx.append("user", text)
    assert 0 < wme.counter.count(ctx.summary) <= 5
    assert ctx.usage().total <= 60


def test_summary_can_be_turned_off(wme: ScopedMemory) -> None:
    ctx = _window(wme, 5, summary_tokens=0)
    ctx.append("user", "I live in Seattle")
    ctx.append("user", "hello again")
    assert ctx.summary == ""
    assert "Seattle" not in ctx.text()


def test_an_overlong_plugin_summary_is_refused(wme: ScopedMemory) -> None:
    def chatty(previous: str, evicted: object, *, max_tokens: int, counter: object) -> str:
        return "far too many words for the cap"

    ctx = _window(wme, 6, summary_tokens=2, summarizer=chatty)
    ctx.append("user", "one")
    with pytest.raises(InvalidInputError, match="summarizer returned 7 tokens; the cap is 2"):
        ctx.append("user", "two three four")


def test_usage_reports_sections(wme: ScopedMemory) -> None:
    wme.blocks.set("human", "Name: Priya.")
    ctx = _window(wme, 100)
    ctx.append("user", "hello there")
    usage = ctx.usage()
    assert (usage.system, usage.core, usage.summary, usage.messages) == (3, 2, 0, 2)
    assert usage.total == 7
    assert usage.limit == 100
    assert (
        usage.line() == "main context: 7 / 100 tokens, 1 messages in context, 0 paged out to recall"
    )
    assert usage.bar(10).startswith("[")


def test_exact_tokenizer_counts_message_overhead(me: ScopedMemory) -> None:
    ctx = Context(me, max_tokens=1000, system="You are helpful.")
    ctx.append("user", "hello world")
    usage = ctx.usage()
    assert usage.messages == me.counter.count("hello world") + 3
    # the system message carries the envelope's rule
    assert usage.system == me.counter.count(f"You are helpful.\n\n{RULE}") + 3


def test_compile_openai_shape(wme: ScopedMemory) -> None:
    wme.blocks.set("human", "Name: Priya.")
    ctx = _window(wme, 100)
    ctx.append("user", "hi")
    call = ToolCall("call_1", "archival_memory_search", '{"query": "dog"}')
    ctx.append("assistant", "hello", tool_calls=[call])
    ctx.append("tool", "3 results", tool_call_id="call_1")
    ctx.append("tool", "done", name="calendar")
    messages = ctx.compile("openai")
    assert messages[0] == {
        "role": "system",
        "content": "You are helpful.\n\n<human>Name: Priya.</human>",
    }
    assert messages[1:] == [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "hello",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "archival_memory_search", "arguments": '{"query": "dog"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "3 results"},
        {"role": "user", "content": "[calendar result]\ndone"},
    ]


def test_compile_anthropic_shape_starts_with_user_and_alternates(wme: ScopedMemory) -> None:
    ctx = _window(wme, 100)
    ctx.append("assistant", "Welcome back")
    ctx.append("user", "hi")
    ctx.append("user", "are you there?")
    ctx.append("assistant", "", tool_calls=[ToolCall("toolu_1", "conversation_search", "{}")])
    ctx.append("tool", "result", tool_call_id="toolu_1")
    body = ctx.compile("anthropic")
    assert body["system"] == "You are helpful."
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["user", "assistant", "user", "assistant", "user"]
    assert body["messages"][2]["content"] == [
        {"type": "text", "text": "hi"},
        {"type": "text", "text": "are you there?"},
    ]
    assert body["messages"][3]["content"] == [
        {"type": "tool_use", "id": "toolu_1", "name": "conversation_search", "input": {}}
    ]
    assert body["messages"][4]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "result"}
    ]
    with pytest.raises(InvalidInputError, match="format must be"):
        ctx.compile("gemini")  # type: ignore[arg-type]


def test_resumes_the_window_from_the_store(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "m.db"
    with Memory(path, tokenizer="words") as mem:
        ctx = _window(mem.scope("acme", "priya"), 8)
        for text in ("one two", "three four", "five six"):
            ctx.append("user", text)
    with Memory(path, tokenizer="words") as mem:
        ctx = _window(mem.scope("acme", "priya"), 8)
        assert [m.content for m in ctx.messages] == ["three four", "five six"]
        assert ctx.memory.recall.count() == 1


def test_from_budget(me: ScopedMemory) -> None:
    plan = Budget(window=8000, system=600, core=400, output=1000, reserve=500, turn=250)
    ctx = Context.from_budget(me, plan)
    assert ctx.max_tokens == 7000
    assert ctx.summary_tokens == 500


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_tokens": 0}, "max_tokens"),
        ({"max_tokens": 10, "summary_tokens": -1}, "summary_tokens"),
        ({"max_tokens": 10, "evict": "random"}, "evict must be"),
        ({"max_tokens": 10, "system": ""}, "system prompt is empty"),
    ],
)
def test_bad_context_arguments(wme: ScopedMemory, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        Context(wme, **kwargs)  # type: ignore[arg-type]


def test_a_result_whose_call_was_paged_out_is_shown_as_text(wme: ScopedMemory) -> None:
    ctx = _window(wme, 100)
    ctx.append("user", "hi")
    ctx.append("tool", "orphan", tool_call_id="call_gone")  # its call is not in view
    assert ctx.compile("openai")[-1] == {"role": "user", "content": "[tool result]\norphan"}
    assert ctx.compile("anthropic")["messages"][-1]["content"][-1] == {
        "type": "text",
        "text": "[tool]\norphan",
    }


def test_tool_calls_are_checked_and_survive_a_restart(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "m.db"
    call = ToolCall("c1", "archival_memory_search", '{"query": "x"}')
    with Memory(path, tokenizer="words") as mem:
        me = mem.scope("acme", "priya")
        with pytest.raises(InvalidInputError, match="only assistant messages carry tool calls"):
            me.recall.append("user", "hi", tool_calls=[call])
        with pytest.raises(InvalidInputError, match="tool call id is empty"):
            me.recall.append("assistant", "", tool_calls=[ToolCall("", "n", "{}")])
        me.recall.append("assistant", "", tool_calls=[call])
    with Memory(path, tokenizer="words") as mem:
        (message,) = mem.scope("acme", "priya").recall.in_context()
        assert message.tool_calls == (call,)


def test_tool_definitions_are_a_section_of_the_window(me: ScopedMemory) -> None:
    import json

    from pagemem import MEMORY_TOOLS, openai_tools

    ctx = Context(me, max_tokens=4000, tools=MEMORY_TOOLS)
    usage = ctx.usage()
    assert usage.tools == me.counter.count(json.dumps(openai_tools(MEMORY_TOOLS))) > 500
    assert usage.total == usage.system + usage.tools + usage.core + usage.summary + usage.messages
    assert "T" in usage.bar()
    assert f"({usage.tools} of them tool definitions)" in usage.line()
    # they count against the budget: a window that fits without them evicts with them
    other = me.memory.scope("acme", "sam")
    bare = Context(other, max_tokens=usage.total + 30)
    for text in ("word " * 40, "word " * 40):
        assert bare.append("user", text) == []
    tooled = Context(me, max_tokens=usage.total + 30, tools=MEMORY_TOOLS)
    assert tooled.append("user", "word " * 40) == []
    assert tooled.append("user", "word " * 40)  # the previous turn is paged out


def test_a_budget_the_fixed_parts_fill_is_refused_with_the_numbers(me: ScopedMemory) -> None:
    from pagemem import MEMORY_TOOLS

    with pytest.raises(InvalidInputError, match=r"--max-tokens.*tool definitions \d+"):
        Context(me, max_tokens=400, tools=MEMORY_TOOLS)
    with pytest.raises(InvalidInputError, match="system prompt"):
        Context(me, max_tokens=10, system="word " * 50)
    assert me.recall.in_context() == []


def test_a_new_scope_starts_with_persona_and_human_blocks(me: ScopedMemory) -> None:
    from pagemem import dispatch
    from pagemem.context import DEFAULT_BLOCKS

    Context(me, max_tokens=2000)
    blocks = {b.label: b for b in me.blocks.list()}
    assert set(blocks) == set(DEFAULT_BLOCKS) == {"persona", "human"}
    assert all(b.limit > 0 and b.description for b in blocks.values())
    assert dispatch(me, "core_memory_append", {"label": "human", "content": "Name: Priya"}).ok
    me.blocks.delete("persona")
    Context(me, max_tokens=2000)  # a scope with core memory is left as it is
    assert [b.label for b in me.blocks.list()] == ["human"]


def test_the_usage_bar_is_documented() -> None:
    from pathlib import Path

    from pagemem.context import Usage

    doc = Usage.bar.__doc__ or ""
    for letter, section in (("S", "system"), ("T", "tool"), ("K", "core"), ("U", "summary")):
        assert f"{letter} {section}" in doc
    budget = (Path(__file__).parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "`T` tool definitions" in budget
