"""Snapshots of a scope's search index beside its SQLite file, for the next process.

Building a scope's index reads and analyses every note (3.3 s at 100,000 notes) and,
past the ANN threshold, builds an HNSW graph (minutes at a million). A snapshot holds
what that produced: postings, vectors, the feature columns and the graph. A process
that opens the scope reads it and applies what changed since from the change feed, or,
when the feed no longer reaches that far back, by comparing the snapshot's ids with
the store's.

What a snapshot may hold, and when it is trusted:

- **Nothing of a removed note.** Only live notes are written (renumbered); the graph
  only when no note it covers was removed. A delete, hold or forget removes the
  scope's snapshot files at once, and a snapshot is put in place only while writes
  are held and the scope is still at the revision it was taken at: a delete that
  commits first makes it discard itself, one that commits after removes it.
- **Only the database, model and policy it was taken with.** The header names the
  database's id, the scope, the collection, the embedding model and a hash of the
  trust policy (notes' weights come from it); anything else, or a file that cannot
  be read, is ignored and the index is built from the store.

Files are owner-only, under `<database>.index/`, named by a hash of the scope. A
snapshot's arrays are mapped from its file copy-on-write, not read: a page is read when
the index first uses it (a file is replaced by renaming a new one over it, never
rewritten in place, so a mapping always sees the file it was opened on).
"""

from __future__ import annotations

import hashlib
import json
import logging
import mmap
import os
import secrets
import struct
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pagemem.models import Scope
from pagemem.retrieval.mapped import Blocks, MappedRows
from pagemem.retrieval.vectors import Part, usearch_index
from pagemem.store.base import Collection, IndexCache

__all__ = ["Snapshot", "Snapshots", "Stamp"]

# 2: speakers read from a note's leading "Name:" too; 3: which notes say when; 4: which
# are episodes
FORMAT = 4
_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Stamp:
    """What a snapshot must have been taken with to be used."""

    instance: str
    scope: tuple[str, str, str | None]
    collection: str
    model: str | None
    dim: int
    trust: str  # a hash of the trust policy's rules


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A snapshot as read: its arrays, the revision it was taken at, its HNSW graph."""

    arrays: dict[str, Any]  # arrays, but the vectors: `MappedRows`
    revision: int
    graph: Any | None
    graph_size: int


class Snapshots:
    """The snapshot files of one database's scopes."""

    def __init__(self, store: IndexCache, folder: Path) -> None:
        self._store = store
        self.folder = folder
        self.instance = store.instance()

    def _name(self, scope: Scope, collection: Collection) -> str:
        key = json.dumps([scope.tenant, scope.user, scope.agent, collection])
        return hashlib.sha256(key.encode()).hexdigest()[:32]

    def _graphs(self, name: str) -> Iterator[Path]:
        return self.folder.glob(f"{name}.*.usearch")

    def read(self, stamp: Stamp, scope: Scope, collection: Collection) -> Snapshot | None:
        """The scope's snapshot if there is one taken with `stamp`, else None."""
        name = self._name(scope, collection)
        path = self.folder / f"{name}.npz"
        try:
            arrays = _mapped(path)
            header = json.loads(arrays.pop("header").tobytes().decode())
            if header.get("format") != FORMAT or header.get("stamp") != _plain(stamp):
                return None
            graph = None
            if header["graph"]:
                graph = usearch_index().restore(
                    str(self.folder / f"{name}.{header['graph']}.usearch")
                )
                if graph is None:
                    return None
            return Snapshot(arrays, int(header["revision"]), graph, int(header["graph_size"]))
        except FileNotFoundError:
            return None
        except Exception as error:  # a torn or foreign file: build from the store instead
            _log.warning("ignoring the index snapshot %s: %s", path, error)
            return None

    def write(
        self,
        stamp: Stamp,
        scope: Scope,
        collection: Collection,
        arrays: dict[str, npt.NDArray[Any] | list[Part]],
        revision: int,
        graph: tuple[Any, int] | None,
        current: Callable[[], int],
    ) -> bool:
        """Put a snapshot taken at `revision` in place, unless the scope has changed since
        (`current` gives its revision now, asked while writes are held). True if kept."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        name = self._name(scope, collection)
        token = secrets.token_hex(8) if graph is not None else ""
        header = {
            "format": FORMAT,
            "stamp": _plain(stamp),
            "revision": revision,
            "graph": token,
            "graph_size": graph[1] if graph is not None else 0,
        }
        staged = self.folder / f".{name}.{secrets.token_hex(8)}.tmp"
        staged_graph = self.folder / f".{name}.{token}.usearch.tmp"
        try:
            payload: dict[str, Any] = {
                **arrays,
                "header": np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
            }
            with _private(staged) as handle:
                _save_npz(handle, payload)
            if graph is not None:
                with _private(staged_graph):
                    pass
                graph[0].save(str(staged_graph))
            with self._store.writes_held():
                if current() != revision:
                    return False
                for old in self._graphs(name):
                    old.unlink(missing_ok=True)
                if graph is not None:
                    os.replace(staged_graph, self.folder / f"{name}.{token}.usearch")
                os.replace(staged, self.folder / f"{name}.npz")
            return True
        finally:
            staged.unlink(missing_ok=True)
            staged_graph.unlink(missing_ok=True)

    def drop(self, scope: Scope, collection: Collection) -> None:
        """Remove the scope's snapshot files (a note in them was removed)."""
        name = self._name(scope, collection)
        (self.folder / f"{name}.npz").unlink(missing_ok=True)
        for graph in self._graphs(name):
            graph.unlink(missing_ok=True)


def _save_npz(handle: Any, arrays: dict[str, npt.NDArray[Any] | list[Part]]) -> None:
    """What `np.savez` writes (uncompressed .npy members), except that an array given as
    a list of parts (rows stacked) is written part by part, mapped parts a block at a
    time: writing a snapshot never makes a copy of the whole vector matrix, nor makes
    the rows mapped from a file resident."""
    with zipfile.ZipFile(handle, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, value in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                if not isinstance(value, list):
                    np.lib.format.write_array(member, np.asanyarray(value), allow_pickle=False)
                    continue
                dtype = value[0].dtype
                rows = sum(len(part) for part in value)
                header = {
                    "descr": np.lib.format.dtype_to_descr(dtype),
                    "fortran_order": False,
                    "shape": (rows, *value[0].shape[1:]),
                }
                np.lib.format.write_array_header_1_0(member, header)
                for part in value:
                    for block in part if isinstance(part, Blocks) else [part]:
                        member.write(np.ascontiguousarray(block, dtype=dtype).data)


def _mapped(path: Path) -> dict[str, Any]:
    """Every array of an uncompressed .npz (what `np.savez` writes), mapped copy-on-write
    from the file rather than read: a page is read when first used, and at a million
    notes reading them all through the zip took 4.4 s of a 4.9 s restart. The vectors
    come as `MappedRows` (their pages given back after a pass over them)."""
    out: dict[str, Any] = {}
    with zipfile.ZipFile(path) as archive, open(path, "rb") as handle:
        mapping = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)
        for info in archive.infolist():
            if info.compress_type != zipfile.ZIP_STORED or not info.filename.endswith(".npy"):
                raise ValueError(f"{info.filename} is not an uncompressed array")
            handle.seek(info.header_offset)
            local = handle.read(30)
            if local[:4] != b"PK\x03\x04":
                raise ValueError("not a zip member's local header")
            name_length, extra_length = struct.unpack("<HH", local[26:30])
            handle.seek(info.header_offset + 30 + name_length + extra_length)
            version = np.lib.format.read_magic(handle)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
            if dtype.hasobject:
                raise ValueError("object arrays are never read from a snapshot")
            size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            end = info.header_offset + info.compress_size + 30 + name_length + extra_length
            if handle.tell() + size > end:
                raise ValueError(f"{info.filename} is shorter than its header says")
            order: Literal["C", "F"] = "F" if fortran else "C"
            name = info.filename[:-4]
            if name == "vectors" and dtype == np.float32 and len(shape) == 2 and not fortran:
                out[name] = MappedRows(mapping, handle.tell(), shape[0], shape[1], handle.fileno())
            elif size:
                count = int(np.prod(shape, dtype=np.int64))
                flat = np.frombuffer(mapping, dtype, count, handle.tell())
                out[name] = flat.reshape(shape, order=order)
            else:
                out[name] = np.zeros(shape, dtype=dtype, order=order)
    return out


def trust_hash(policy: object) -> str:
    return hashlib.sha256(repr(policy).encode()).hexdigest()[:16]


def _plain(stamp: Stamp) -> dict[str, Any]:
    plain = asdict(stamp)
    plain["scope"] = list(stamp.scope)
    return plain


@contextmanager
def _private(path: Path) -> Iterator[Any]:
    """A new file only its owner can read."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        yield handle
