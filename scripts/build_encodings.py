"""Rebuild the shipped tiktoken encoding files from the npm package js-tiktoken.

tiktoken downloads its BPE rank files at run time, which pagemem may not do. The
npm package js-tiktoken carries the same ranks in a compressed form; this script
expands them into tiktoken's own file format and refuses to write a file whose
sha256 differs from the hash tiktoken itself expects.

    npm pack js-tiktoken@1.0.21 && tar xzf js-tiktoken-1.0.21.tgz
    python scripts/build_encodings.py package/dist/ranks src/pagemem/data/encodings
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

# The hashes tiktoken_ext.openai_public passes as expected_hash.
EXPECTED = {
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}


def expand(js_module: str) -> bytes:
    payload = json.loads(js_module.removeprefix("export default ").rstrip().rstrip(";"))
    ranks: dict[str, int] = {}
    for line in payload["bpe_ranks"].split("\n"):
        if not line:
            continue
        _prefix, offset, *tokens = line.split(" ")
        for i, token in enumerate(tokens):
            ranks[token] = int(offset) + i
    ordered = sorted(ranks.items(), key=lambda item: item[1])
    return "".join(f"{token} {rank}\n" for token, rank in ordered).encode()


def main(src: str, dst: str) -> int:
    for name, expected in EXPECTED.items():
        blob = expand((Path(src) / f"{name}.js").read_text(encoding="utf-8"))
        actual = hashlib.sha256(blob).hexdigest()
        if actual != expected:
            print(f"{name}: sha256 {actual} != tiktoken's {expected}; not written")
            return 1
        (Path(dst) / f"{name}.tiktoken").write_bytes(blob)
        print(f"{name}: {len(blob)} bytes, sha256 matches tiktoken")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
