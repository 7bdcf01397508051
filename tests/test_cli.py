from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pagemem import Memory
from pagemem.cli import cli

from .test_demo import TEXTBOOK_LINES


def test_demo_command_prints_the_textbook_lines() -> None:
    result = CliRunner().invoke(cli, ["demo"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:8] == TEXTBOOK_LINES


def test_demo_exercise_options() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["demo", "--budget", "80", "--no-engine"])
    assert "'Miso' in context? True" in result.output
    result = runner.invoke(cli, ["demo", "--evict", "newest", "--no-engine"])
    assert "evict newest  evict oldest" in result.output
    result = runner.invoke(cli, ["demo", "--search", "book a class", "--no-engine"])
    assert "search 'book a class'" in result.output
    result = runner.invoke(cli, ["demo", "--summary"])
    assert "'Seattle' in context? True (summary on)" in result.output
    result = runner.invoke(cli, ["demo", "--budget", "0"])
    assert result.exit_code == 2
    assert "--budget" in result.output


def test_budget_practice_exercise() -> None:
    args = [
        "budget",
        "--window",
        "32000",
        "--system",
        "2500",
        "--core",
        "1500",
        "--output",
        "4000",
        "--reserve",
        "2000",
        "--turn",
        "400",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "message budget = 32000 - 2500 - 1500 - 4000 - 2000 = 22000 tokens" in result.output
    assert "turns kept = floor(22000 / 400) = 55" in result.output
    assert "without paging, turn 61 no longer fits" in result.output


def test_budget_defaults_are_the_textbook() -> None:
    result = CliRunner().invoke(cli, ["budget"])
    assert "message budget = 8000 - 600 - 400 - 1000 - 500 = 5500 tokens" in result.output
    assert "after 60 turns: keep-everything 517,500 vs paged 362,250 input tokens" in result.output
    assert "turns kept = floor(5500 / 250) = 22" in result.output


def test_budget_reserve_1500_keeps_18_turns() -> None:
    result = CliRunner().invoke(cli, ["budget", "-R", "1500", "--json"])
    data = json.loads(result.output)
    assert data["M"] == 4500
    assert data["turns_kept"] == 18


def test_budget_measures_files_with_a_tokenizer(tmp_path: Path) -> None:
    prompt = tmp_path / "system.txt"
    prompt.write_text("You are a careful travel assistant.", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["budget", "--system-file", str(prompt), "--tokenizer", "words", "--json"]
    )
    assert json.loads(result.output)["S"] == 6
    both = CliRunner().invoke(cli, ["budget", "--system", "5", "--system-file", str(prompt)])
    assert both.exit_code == 2
    assert "not both" in both.output


def test_budget_plot(tmp_path: Path) -> None:
    out = tmp_path / "plot.png"
    result = CliRunner().invoke(cli, ["budget", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_budget_bad_input_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["budget", "--reserve", "9000"])
    assert result.exit_code == 2
    assert "exceed the window W = 8000" in result.output
    result = CliRunner().invoke(cli, ["budget", "--turn", "0"])
    assert result.exit_code == 2


def _tiny_locomo(tmp_path: Path) -> Path:
    sample = {
        "sample_id": "conv-47",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a puppy named Biscuit"},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! I started pottery classes"},
                {
                    "speaker": "Ana",
                    "dia_id": "D1:3",
                    "text": "We went hiking near Lisbon",
                    "blip_caption": "a trail",
                },
            ],
        },
        "qa": [
            {"question": "What is the name of Ana's puppy?", "evidence": ["D1:1"], "category": 4},
            {"question": "What did Ben start?", "evidence": ["D:1:2; D1:9"], "category": 1},
            {"question": "Adversarial", "evidence": ["D1:1"], "category": 5},
        ],
    }
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([sample]), encoding="utf-8")
    return data


def test_eval_locomo_on_a_tiny_file(tmp_path: Path) -> None:
    data = _tiny_locomo(tmp_path)
    for options in (["--target", "archive"], ["--target", "recall"], ["--plain"]):
        result = CliRunner().invoke(
            cli,
            ["eval", "locomo", "--data", str(data), "--split", "held-out", "--json", *options],
        )
        assert result.exit_code == 0, result.output
        scores = json.loads(result.stdout)["held-out"]
        assert scores["all"]["n"] == 2  # category 5 is left out
        assert scores["all"]["R@5"] == 1.0
        assert scores["single-hop"]["R@1"] == 1.0
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", "locomo", "--data", str(bad)])
    assert result.exit_code == 1
    assert "is not JSON" in result.output


def test_eval_locomo_keeps_its_memory_in_a_database_once(tmp_path: Path, db_target: str) -> None:
    args = ["eval", "locomo", "--data", str(_tiny_locomo(tmp_path)), "--split", "held-out"]
    args += ["--json", "--no-dense", "--db", db_target]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["held-out"]["all"]["R@5"] == 1.0
    with Memory(db_target, embedder=None) as memory:
        assert memory.scope("locomo", "conv-47").archive.count() == 3
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 1
    assert "already holds tenant 'locomo'" in again.output
    with Memory(db_target, embedder=None) as memory:
        assert memory.scope("locomo", "conv-47").archive.count() == 3


def test_blocks_are_created_and_listed_from_the_command_line(tmp_path: object) -> None:
    from pathlib import Path

    db = str(Path(str(tmp_path)) / "b.db")
    made = CliRunner().invoke(
        cli, ["blocks", "set", "--db", db, "project", "Ships on Friday", "--limit", "50"]
    )
    assert made.exit_code == 0, made.output
    listed = CliRunner().invoke(cli, ["blocks", "list", "--db", db])
    assert "project (" in listed.output
    assert "/50 tokens)" in listed.output
    assert "  Ships on Friday" in listed.output
    over = CliRunner().invoke(cli, ["blocks", "set", "--db", db, "project", "word " * 80])
    assert over.exit_code != 0
    assert "50" in over.output
    again = CliRunner().invoke(cli, ["blocks", "list", "--db", db])
    assert "  Ships on Friday" in again.output  # unchanged


def test_chat_survives_a_model_error_and_does_not_keep_the_turn(
    tmp_path: object, endpoint: object
) -> None:
    from pathlib import Path

    from pagemem import Memory

    db = str(Path(str(tmp_path)) / "c.db")
    # the SDK retries twice: three failures make one failed turn
    endpoint.replies += [(500, "overloaded")] * 3 + [(200, "Hello again.")]  # type: ignore[attr-defined]
    url = endpoint.url  # type: ignore[attr-defined]
    result = CliRunner().invoke(
        cli,
        ["chat", "--db", db, "--model", "m", "--base-url", url],
        input="first try\nsecond try\n\n",
    )
    assert result.exit_code == 0, result.output
    assert "that turn was not kept" in result.output
    assert "assistant> Hello again." in result.output
    with Memory(db, embedder=None) as memory:
        kept = [m.content for m in memory.scope("local", "me").recall.in_context()]
    assert kept == ["second try", "Hello again."]
