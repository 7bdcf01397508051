"""The wheel carries everything pagemem needs to run offline: built from the source,
installed into a fresh venv from local wheels only (no package index, and no network at
all where the kernel lets the test take it away), it runs `pagemem demo`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WHEELHOUSE = Path(os.environ.get("PAGEMEM_WHEELHOUSE", ROOT / ".venv" / "wheelhouse"))
BUNDLED = {
    "pagemem/data/models/all-MiniLM-L6-v2-int8/model.onnx",
    "pagemem/data/models/all-MiniLM-L6-v2-int8/tokenizer.json",
    "pagemem/data/models/all-MiniLM-L6-v2-int8/NOTICE",
    "pagemem/data/encodings/cl100k_base.tiktoken",
    "pagemem/data/encodings/o200k_base.tiktoken",
    "pagemem/data/guard/directive-model.npz",
    "pagemem/py.typed",
    "pagemem/ui/templates/base.html",
    "pagemem/ui/static/ui.css",
    "pagemem/ui/static/favicon.svg",
}


def _offline() -> list[str]:
    """A prefix that runs a command without any network, if this kernel allows it."""
    unshare = shutil.which("unshare")
    for prefix in ([unshare, "-n"], [unshare, "-rn"]) if unshare else ():
        if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
            return prefix
    return []


def _run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done  # type: ignore[no-any-return]


def test_the_wheel_installs_offline_and_runs_the_demo(tmp_path: Path) -> None:
    if not (WHEELHOUSE / ".done").exists():
        pytest.fail(f"no dependency wheels in {WHEELHOUSE}: `make wheelhouse` fetches them")
    source = tmp_path / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    shutil.copytree(ROOT / "src", source / "src", ignore=ignore)
    shutil.copytree(ROOT / "LICENSES", source / "LICENSES")
    for name in ("pyproject.toml", "README.md", "LICENSE", "NOTICE"):
        shutil.copy2(ROOT / name, source / name)
    _run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", "dist", "."],
        cwd=source,
    )
    (wheel,) = (source / "dist").glob("pagemem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert names >= BUNDLED
    assert not any(n.startswith("tests/") or "__pycache__" in n for n in names)
    licences = {n.rsplit("/", 1)[-1] for n in names if "/licenses/" in n}
    assert licences >= {"LICENSE", "NOTICE", "tiktoken-MIT.txt"}
    assert wheel.stat().st_size < 40 * 2**20  # 23 MB today: the embedding model is most of it

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "PIP_NO_INDEX": "1",
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    offline = _offline()
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index"]
    _run([*offline, *pip, "--find-links", str(WHEELHOUSE), str(wheel)], env=env, cwd=tmp_path)
    where = _run(
        [str(venv / "bin" / "python"), "-c", "import pagemem; print(pagemem.__file__)"],
        env=env,
        cwd=tmp_path,
    )
    assert where.stdout.startswith(str(venv))  # the installed copy, not this checkout
    demo = _run([*offline, str(venv / "bin" / "pagemem"), "demo"], env=env, cwd=tmp_path)
    assert "hybrid BM25 + MiniLM search" in demo.stdout
    assert "Priya's dog is named Miso" in demo.stdout
