"""The docs describe what the code does: README example runs, every CLI option is documented."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

import pagemem
from pagemem.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split()[:2] for line in first_block.splitlines()] == [
        ["make", "demo"],
        ["make", "test"],
    ]


def test_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert (tmp_path / "memory.db").exists()


def _commands() -> list[tuple[str, click.Command]]:
    found = []
    for name, command in sorted(cli.commands.items()):
        if isinstance(command, click.Group):
            found += [(f"{name} {sub}", cmd) for sub, cmd in sorted(command.commands.items())]
        else:
            found.append((name, command))
    return found


@pytest.mark.parametrize(("name", "command"), _commands(), ids=[n for n, _ in _commands()])
def test_every_command_and_option_is_in_docs_cli(name: str, command: click.Command) -> None:
    docs = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert f"## `pagemem {name}`" in docs
    section = docs.split(f"## `pagemem {name}`", 1)[1].split("\n## ", 1)[0]
    assert command.help
    for param in command.params:
        if isinstance(param, click.Option):
            for opt in param.opts:
                if opt.startswith("--"):
                    assert f"`{opt}" in section or f" {opt}" in section, (name, opt)


def test_public_api_is_sorted_and_importable() -> None:
    assert pagemem.__all__ == sorted(pagemem.__all__, key=lambda n: (not n.isupper(), n))
    for name in pagemem.__all__:
        assert getattr(pagemem, name) is not None


def test_docs_link_targets_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\((docs/[^)]+)\)", readme):
        assert (ROOT / target).is_file(), target
