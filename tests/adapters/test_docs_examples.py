"""The examples in docs/adapters.md run as they are, offline."""

from __future__ import annotations

from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"


def _examples() -> list[str]:
    return [block.split("```", 1)[0] for block in DOC.read_text().split("```python\n")[1:]]


@pytest.mark.parametrize("index", range(2), ids=["langgraph", "openai-agents"])
def test_the_example_runs(
    index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(_examples()[index], f"docs/adapters.md example {index + 1}", "exec"), {})
    out = capsys.readouterr().out
    if index == 0:
        assert out.strip() == "I started climbing on Tuesdays"
    else:
        seen, stored = out.splitlines()[0].split(" items in view, ")
        assert int(seen) < 40 < int(stored.split()[0])
        assert "locker 3 holds item 21" in out.splitlines()[1]
