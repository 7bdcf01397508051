"""Write the guard's prefilter formulas into the package (run after changing a
directive pattern or guard/prefilter.py; a test fails while the shipped file is stale).

    .venv/bin/python scripts/build_guard_prefilter.py
"""

from __future__ import annotations

from importlib import resources

from pagemem.guard.directives import PREFILTER_FILE, prefilter_patterns
from pagemem.guard.prefilter import dump_formulas


def main() -> None:
    target = resources.files("pagemem").joinpath(PREFILTER_FILE)
    blob = dump_formulas(prefilter_patterns())
    with resources.as_file(target) as path:
        path.write_bytes(blob)
        print(f"wrote {path} ({len(blob):,} bytes)")


if __name__ == "__main__":
    main()
