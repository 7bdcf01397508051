"""Insert throughput, search latency and peak memory at scale: `pagemem bench`'s table.

Each configuration (size x layout x engine) runs in its own process so its peak
RSS is its own. The bulk of the notes is synthetic text written straight
into the store (no redaction or directive scan: setup, not the write path); for
the hybrid engine their vectors are synthetic unit vectors stored under the real
model's id, because embedding a million notes on two cores takes most of an
hour and search latency depends only on how many vectors there are. Insert
throughput and every query are measured with the real embedder, through the
whole write path. The BM25 engine (no embedder, no neighbours, no speaker
boost) runs in the same invocation as the reference.
"""

from __future__ import annotations

import multiprocessing
import random
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pagemem.errors import InvalidInputError
from pagemem.memory import Memory
from pagemem.models import Scope
from pagemem.retrieval.embed import DEFAULT_MODEL, OnnxEmbedder, Role, Vectors
from pagemem.retrieval.ranker import RetrievalConfig
from pagemem.store.base import NewRecord, StoreSearch

__all__ = ["ENGINES", "LAYOUTS", "BenchResult", "row", "run_bench", "table"]

ENGINES = ("hybrid", "bm25")
LAYOUTS = ("one", "spread")
SPREAD_SCOPES = 1000
_FILL_CHUNK = 5000


@dataclass(frozen=True, slots=True)
class BenchResult:
    engine: str
    layout: str
    notes: int
    scopes: int
    fill_seconds: float
    insert_single_per_s: float
    insert_batch_per_s: float
    first_search_ms: float
    search_p50_ms: float
    search_p95_ms: float
    peak_rss_mb: float  # of the pagemem process (a PostgreSQL server's memory is its own)
    store: str = "sqlite"
    # after the first search, how long the scope's own vector index took to finish
    # building (PostgreSQL, a scope past the store-search threshold); the timed searches
    # start once it is ready
    index_build_seconds: float = 0.0
    insert_p50_ms: float = 0.0  # one `insert` (embedding, guard and consolidation included)
    # the first search of the next process, which starts from the index snapshot the
    # previous one left beside the SQLite file (0: PostgreSQL, which keeps none)
    restart_search_ms: float = 0.0


class _SyntheticEmbedder:
    """Unit vectors derived from the text's hash, stored under the real model's id."""

    model_id = DEFAULT_MODEL
    dim = 384

    def embed(self, texts: Sequence[str], *, role: Role = "document") -> Vectors:
        rows = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            rng = np.random.default_rng(abs(hash(text)) % (2**32))
            row = rng.standard_normal(self.dim).astype(np.float32)
            rows[i] = row / np.linalg.norm(row)
        return rows


class _Text:
    """Chat-like sentences from a Zipf-distributed vocabulary, deterministic per seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        syllables = ["ka", "lo", "mi", "ren", "to", "sa", "vi", "dor", "el", "an", "pu", "ri"]
        self.vocab = sorted(
            {"".join(self.rng.choices(syllables, k=self.rng.randint(2, 4))) for _ in range(8000)}
        )
        self.weights = [1.0 / (rank + 1) for rank in range(len(self.vocab))]
        self.names = ["Priya", "Sam", "Ana", "Joao", "Mei", "Omar", "Lena", "Ravi"]

    def sentence(self, low: int = 8, high: int = 20) -> str:
        words = self.rng.choices(self.vocab, self.weights, k=self.rng.randint(low, high))
        return f"{self.rng.choice(self.names)}: {' '.join(words)}"

    def query(self) -> str:
        return " ".join(self.rng.choices(self.vocab, self.weights, k=self.rng.randint(3, 6)))


def _config(engine: str) -> RetrievalConfig:
    if engine == "bm25":
        return RetrievalConfig(neighbour_weight=0, context_weight=0, speaker_boost=0)
    return RetrievalConfig()


def _users(layout: str) -> list[str]:
    return ["u0"] if layout == "one" else [f"u{i}" for i in range(SPREAD_SCOPES)]


def _measure(
    engine: str,
    layout: str,
    notes: int,
    queries: int,
    folder: str,
    single: int = 200,
    batch: int = 2000,
    store: str | None = None,
) -> dict[str, Any]:
    """One configuration; `store` is a PostgreSQL URL, else a SQLite file in `folder`."""
    path: Path | str = store or Path(folder) / f"{engine}-{layout}-{notes}.db"
    # On a shared database each run writes under a tenant of its own, removed afterwards.
    tenant = f"bench-{engine}-{layout}-{notes}-{time.time_ns()}" if store else "bench"
    text = _Text(seed=notes)
    users = _users(layout)
    per_user = max(1, notes // len(users))
    started = time.perf_counter()
    fill = _SyntheticEmbedder() if engine == "hybrid" else None
    with Memory(path, embedder=None, retrieval=_config(engine)) as memory:
        for user in users:
            scope = memory.scope(tenant, user).scope
            for start in range(0, per_user, _FILL_CHUNK):
                count = min(_FILL_CHUNK, per_user - start)
                _fill(memory, scope, [text.sentence() for _ in range(count)], fill)
    fill_seconds = time.perf_counter() - started

    real = OnnxEmbedder() if engine == "hybrid" else None
    with Memory(path, embedder=real, retrieval=_config(engine)) as memory:
        scopes = [memory.scope(tenant, user) for user in users]
        target = scopes[0]
        tick = time.perf_counter()
        target.archive.search(text.query(), k=10)  # loads the scope's index
        first_search_ms = (time.perf_counter() - tick) * 1000
        tick = time.perf_counter()
        if isinstance(memory.store, StoreSearch):
            memory.store.wait_for_vector_indexes()
        index_build_seconds = time.perf_counter() - tick

        if layout == "spread":
            for me in scopes[: min(len(scopes), queries)]:
                me.archive.search(text.query(), k=10)  # warm the scopes the queries visit
        latencies = []
        for i in range(queries):
            me = scopes[i % len(scopes)] if layout == "spread" else target
            question = text.query()
            tick = time.perf_counter()
            me.archive.search(question, k=10)
            latencies.append((time.perf_counter() - tick) * 1000)

        tick = time.perf_counter()
        single_ms = []
        for _ in range(single):
            one = time.perf_counter()
            target.archive.insert(text.sentence(), actor="bench")
            single_ms.append((time.perf_counter() - one) * 1000)
        insert_single = single / (time.perf_counter() - tick)
        tick = time.perf_counter()
        for start in range(0, batch, 500):
            count = min(500, batch - start)
            target.archive.insert_many([text.sentence() for _ in range(count)], actor="bench")
        insert_batch = batch / (time.perf_counter() - tick)
        if store:
            memory.forget_tenant(tenant, actor="bench")

    restart_search_ms = 0.0
    if not store:
        with Memory(path, embedder=real, retrieval=_config(engine)) as memory:
            tick = time.perf_counter()
            memory.scope(tenant, users[0]).archive.search(text.query(), k=10)
            restart_search_ms = (time.perf_counter() - tick) * 1000
    latencies.sort()
    result = BenchResult(
        engine=engine,
        layout=layout,
        notes=per_user * len(users),
        scopes=len(users),
        fill_seconds=round(fill_seconds, 1),
        insert_single_per_s=round(insert_single, 1),
        insert_batch_per_s=round(insert_batch, 1),
        first_search_ms=round(first_search_ms, 1),
        search_p50_ms=round(statistics.median(latencies), 2),
        search_p95_ms=round(latencies[int(0.95 * (len(latencies) - 1))], 2),
        peak_rss_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        store="postgres" if store else "sqlite",
        index_build_seconds=round(index_build_seconds, 1),
        insert_p50_ms=round(statistics.median(single_ms), 2),
        restart_search_ms=round(restart_search_ms, 1),
    )
    if isinstance(path, Path):
        path.unlink(missing_ok=True)
        shutil.rmtree(f"{path}.index", ignore_errors=True)
    return asdict(result)


def _fill(
    memory: Memory, scope: Scope, texts: list[str], embedder: _SyntheticEmbedder | None
) -> None:
    """Bulk notes straight into the store, with their synthetic vectors: setup, not the
    write path (which the single and batch inserts measure), so that a million notes
    take minutes rather than the hour redaction and the directive scan would cost."""
    now = memory.now()
    rows = [
        NewRecord(
            text=t,
            kind="semantic",
            origin="agent",
            source="",
            created_at=now,
            valid_from=now,
            valid_to=None,
            tags=(),
            metadata={},
            flags=(),
        )
        for t in texts
    ]
    stored = memory.store.insert_records(scope, rows, actor="bench")
    if embedder is not None:
        vectors = embedder.embed(texts)
        memory.store.put_vectors(
            scope,
            embedder.model_id,
            [(r.id, v.tobytes()) for r, v in zip(stored, vectors, strict=True)],
        )


def _child(args: tuple[str, str, int, int, str, int, int, str | None]) -> dict[str, Any]:
    return _measure(*args)


def scratch_folder(folder: str | None) -> tempfile.TemporaryDirectory[str]:
    """A temporary folder for a bench's databases, inside `folder` (made if missing: a
    user naming a place for them expects it to be used, not a traceback)."""
    if folder is not None:
        target = Path(folder)
        if target.exists() and not target.is_dir():
            raise InvalidInputError(f"{folder} is a file, not a folder for the bench's databases")
        target.mkdir(parents=True, exist_ok=True)
    return tempfile.TemporaryDirectory(dir=folder)


def run_bench(
    sizes: Sequence[int],
    *,
    layouts: Sequence[str] = LAYOUTS,
    engines: Sequence[str] = ENGINES,
    queries: int = 200,
    folder: str | None = None,
    single_inserts: int = 200,
    batch_inserts: int = 2000,
    report: Callable[[BenchResult], None] | None = None,
    postgres: str | None = None,
) -> list[BenchResult]:
    """Run every configuration, each in a fresh process; return the results in order.
    With `postgres` (a URL), each runs on SQLite and then on that database."""
    results = []
    context = multiprocessing.get_context("spawn")
    stores: list[str | None] = [None, postgres] if postgres else [None]
    with scratch_folder(folder) as workdir:
        for notes in sizes:
            for layout in layouts:
                for engine in engines:
                    for store in stores:
                        with context.Pool(1) as pool:
                            args = (
                                engine,
                                layout,
                                notes,
                                queries,
                                workdir,
                                single_inserts,
                                batch_inserts,
                                store,
                            )
                            row = pool.apply(_child, (args,))
                        result = BenchResult(**row)
                        results.append(result)
                        if report:
                            report(result)
    return results


def table(results: Sequence[BenchResult]) -> str:
    head = (
        f"{'store':<9}{'engine':<7}{'layout':<8}{'notes':>9}{'scopes':>7}{'fill s':>8}{'ins/s':>8}"
        f"{'ins p50':>9}{'batch/s':>9}{'1st ms':>11}{'restart ms':>11}{'index s':>9}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'RSS MB':>9}"
    )
    return "\n".join([head, *(row(r) for r in results)])


def row(r: BenchResult) -> str:
    return (
        f"{r.store:<9}{r.engine:<7}{r.layout:<8}{r.notes:>9,}{r.scopes:>7}{r.fill_seconds:>8.1f}"
        f"{r.insert_single_per_s:>8.1f}{r.insert_p50_ms:>9.2f}{r.insert_batch_per_s:>9.1f}{r.first_search_ms:>11.1f}"
        f"{r.restart_search_ms:>11.1f}{r.index_build_seconds:>9.1f}{r.search_p50_ms:>9.2f}{r.search_p95_ms:>9.2f}"
        f"{r.peak_rss_mb:>9.1f}"
    )
