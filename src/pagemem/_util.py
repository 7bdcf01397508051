"""Small helpers shared by the bottom layers."""

from __future__ import annotations

import hashlib
from importlib import resources

__all__ = ["read_packaged"]


def read_packaged(path: str, sha256: str) -> bytes:
    """A data file shipped inside the package, refused unless its sha256 is the pinned one."""
    blob = resources.files("pagemem").joinpath(path).read_bytes()
    actual = hashlib.sha256(blob).hexdigest()
    if actual != sha256:
        raise RuntimeError(
            f"{path} is corrupt: sha256 {actual}, expected {sha256}; reinstall pagemem"
        )
    return blob
