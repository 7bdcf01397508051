"""The paths `pagemem bench` times apart from scale: adding a message with extraction
queued, a search over REST against in process, `insert_many`'s write path, and a search
beside other processes writing."""

from __future__ import annotations

import multiprocessing
import statistics
import time
from dataclasses import dataclass
from multiprocessing.synchronize import Event
from pathlib import Path

import numpy as np

from pagemem.bench.scale import _fill, _SyntheticEmbedder, _Text, scratch_folder
from pagemem.memory import Memory
from pagemem.retrieval.embed import OnnxEmbedder

__all__ = [
    "AddLatency",
    "BatchConsolidation",
    "ForeignWrites",
    "RestLatency",
    "add_latency",
    "batch_consolidation",
    "foreign_writes",
    "free_port",
    "rest_latency",
]

_PACE = 0.05  # seconds between the searches timed next to other writers


@dataclass(frozen=True, slots=True)
class AddLatency:
    """Latency of adding a user message, with fact extraction queued and without."""

    messages: int
    off_p50_ms: float
    on_p50_ms: float
    off_p95_ms: float
    on_p95_ms: float

    @property
    def ratio(self) -> float:
        return self.on_p50_ms / self.off_p50_ms

    def line(self) -> str:
        return (
            f"add a message ({self.messages} each, file database): extraction off p50 "
            f"{self.off_p50_ms:.3f} ms (p95 {self.off_p95_ms:.3f}), on p50 {self.on_p50_ms:.3f} ms "
            f"(p95 {self.on_p95_ms:.3f}); on/off {self.ratio:.3f}"
        )


def add_latency(messages: int = 400, folder: str | None = None) -> AddLatency:
    """Append user messages with `extract` on and off, interleaved so drift hits both; the
    extraction itself runs later, off this path (a job in the same transaction)."""
    text = _Text(7)
    timings: dict[bool, list[float]] = {False: [], True: []}
    with (
        scratch_folder(folder) as scratch,
        Memory(Path(scratch) / "add.db", embedder=None) as memory,
    ):
        me = memory.scope("bench", "add")
        for i in range(2 * messages):
            extract = i % 2 == 1
            content = f"I live in city {i}. {text.sentence()}"
            start = time.perf_counter()
            me.recall.append("user", content, extract=extract)
            timings[extract].append((time.perf_counter() - start) * 1000)

    def p95(values: list[float]) -> float:
        return sorted(values)[int(0.95 * (len(values) - 1))]

    return AddLatency(
        messages,
        statistics.median(timings[False]),
        statistics.median(timings[True]),
        p95(timings[False]),
        p95(timings[True]),
    )


_BATCH = 250  # notes in each batch of the write-path measure


@dataclass(frozen=True, slots=True)
class BatchConsolidation:
    """`insert_many` with consolidation and without, on the same kind of notes, with a
    stand-in embedder: the write path's own rate (guard, candidates, decisions, store,
    index). The bundled model's rate on the same notes is measured apart: it bounds a
    real batch on its own, and mixing it in would hide what the write path costs."""

    scope_notes: int
    batch_notes: int
    with_per_s: float
    without_per_s: float
    model_per_s: float  # the bundled model embedding the notes one at a time, as a write does

    def line(self) -> str:
        return (
            f"insert_many into {self.scope_notes:,} notes ({self.batch_notes:,} each way in "
            f"batches of {_BATCH}, median batch, stand-in embedder): {self.with_per_s:.0f}/s "
            f"consolidated, {self.without_per_s:.0f}/s not; the bundled model alone embeds "
            f"{self.model_per_s:.0f} notes/s"
        )


def batch_consolidation(
    scope_notes: int = 10_000, batch_notes: int = 4_000, folder: str | None = None
) -> BatchConsolidation:
    """Batches written alternately with and without consolidation into one scope, the
    median batch of each kind, so one slow moment on a shared machine does not decide
    the figure."""
    text = _Text(11)
    seconds: dict[bool, list[float]] = {True: [], False: []}
    stand_in = _SyntheticEmbedder()
    with (
        scratch_folder(folder) as scratch,
        Memory(Path(scratch) / "batch.db", embedder=stand_in) as memory,
    ):
        me = memory.scope("bench", "batch")
        _fill(memory, me.scope, [text.sentence() for _ in range(scope_notes)], stand_in)
        me.archive.insert_many([text.sentence() for _ in range(50)])  # load the index
        for number in range(2 * max(1, batch_notes // _BATCH)):
            consolidate = number % 2 == 0
            batch = [{"text": text.sentence(), "consolidate": consolidate} for _ in range(_BATCH)]
            start = time.perf_counter()
            me.archive.insert_many(batch)
            seconds[consolidate].append(time.perf_counter() - start)
    model = OnnxEmbedder()
    sample = [text.sentence() for _ in range(_BATCH)]
    model.embed(sample[:10])  # load the model
    start = time.perf_counter()
    model.embed(sample)
    model_per_s = len(sample) / (time.perf_counter() - start)
    return BatchConsolidation(
        scope_notes,
        batch_notes,
        _BATCH / statistics.median(seconds[True]),
        _BATCH / statistics.median(seconds[False]),
        model_per_s,
    )


@dataclass(frozen=True, slots=True)
class ForeignWrites:
    """Searches in this process while other processes write to the same scope."""

    notes: int
    writers: int
    writes_per_s: float  # all writers together
    alone_p50_ms: float
    alone_p95_ms: float
    shared_p50_ms: float
    shared_p95_ms: float
    rebuilds: int  # whole-index builds while the other process wrote
    applied: int  # changes of the other process applied from the change feed

    def line(self) -> str:
        return (
            f"search {self.notes:,} notes while {self._who} "
            f"{self.writes_per_s:.0f} notes/s (hybrid): p50 {self.alone_p50_ms:.2f} ms alone, "
            f"{self.shared_p50_ms:.2f} ms shared (p95 {self.alone_p95_ms:.2f} / "
            f"{self.shared_p95_ms:.2f}); rebuilds {self.rebuilds}, "
            f"{self.applied} changes applied from the feed"
        )

    @property
    def _who(self) -> str:
        return "another process writes" if self.writers == 1 else f"{self.writers} processes write"


def _writer(
    path: str, count: int, interval: float, seed: int = 23, ready: Event | None = None
) -> None:
    """Another process: one insert every `interval` seconds, the real write path. It
    says when it is `ready` (model and index loaded): a process starting up is not
    what the measure is about."""
    text = _Text(seed)
    with Memory(path) as memory:
        me = memory.scope("bench", "shared")
        me.archive.search(text.query(), k=1)
        if ready is not None:
            ready.set()
        for _ in range(count):
            start = time.perf_counter()
            me.archive.insert(text.sentence())
            time.sleep(max(0.0, interval - (time.perf_counter() - start)))


def foreign_writes(
    notes: int = 20_000,
    writes: int = 150,
    per_s: float = 10.0,
    folder: str | None = None,
    writers: int = 1,
) -> ForeignWrites:
    """The same queries alone, then while `writers` other processes each insert `writes`
    notes, `per_s` a second, into the scope (the measurement of issue 14: every search
    used to rebuild)."""
    if writers < 1:
        raise ValueError("writers must be at least 1")
    text = _Text(17)
    context = multiprocessing.get_context("spawn")
    with scratch_folder(folder) as scratch:
        path = str(Path(scratch) / "shared.db")
        with Memory(path) as memory:
            scope = memory.scope("bench", "shared").scope
            _fill(memory, scope, [text.sentence() for _ in range(notes)], _SyntheticEmbedder())
        with Memory(path) as memory:
            me = memory.scope("bench", "shared")
            me.archive.search(text.query(), k=10)  # loads the index
            # paced as the searches while others write (one every 50 ms): back to back,
            # a search finds the CPU caches and the BLAS threads warm, which paced ones
            # never do (p50 6.4 against 8.8 ms at 20,000 notes, no writer either way)
            alone = []
            for _ in range(writes):
                start = time.perf_counter()
                me.archive.search(text.query(), k=10)
                alone.append((time.perf_counter() - start) * 1000)
                time.sleep(_PACE)
            rebuilds, applied = memory.ranker.rebuilds, memory.ranker.caught_up
            ready = [context.Event() for _ in range(writers)]
            others = [
                context.Process(target=_writer, args=(path, writes, 1.0 / per_s, 23 + n, event))
                for n, event in enumerate(ready)
            ]
            for writer in others:
                writer.start()
            for event in ready:
                event.wait(timeout=300)
            shared = []
            began = time.perf_counter()
            while any(writer.is_alive() for writer in others):
                start = time.perf_counter()
                me.archive.search(text.query(), k=10)
                shared.append((time.perf_counter() - start) * 1000)
                time.sleep(_PACE)
            for writer in others:
                writer.join()
            elapsed = time.perf_counter() - began
            rebuilds = memory.ranker.rebuilds - rebuilds
            applied = memory.ranker.caught_up - applied
    return ForeignWrites(
        notes,
        writers,
        writers * writes / elapsed,
        statistics.median(alone),
        float(np.percentile(alone, 95)),
        statistics.median(shared) if shared else 0.0,
        float(np.percentile(shared, 95)) if shared else 0.0,
        rebuilds,
        applied,
    )


@dataclass(frozen=True, slots=True)
class RestLatency:
    """Search through the REST server on 127.0.0.1 next to the same search in process."""

    notes: int
    queries: int
    local_p50_ms: float
    local_p95_ms: float
    rest_p50_ms: float
    rest_p95_ms: float

    def line(self) -> str:
        return (
            f"search {self.notes} notes, {self.queries} queries (hybrid): in process p50 "
            f"{self.local_p50_ms:.2f} ms (p95 {self.local_p95_ms:.2f}), REST on 127.0.0.1 p50 "
            f"{self.rest_p50_ms:.2f} ms (p95 {self.rest_p95_ms:.2f})"
        )


def rest_latency(notes: int = 500, queries: int = 200, folder: str | None = None) -> RestLatency:
    """Start the REST server in this process (uvicorn, a real socket) and time the same
    queries through it and through the Python API, interleaved."""
    import threading

    import httpx
    import uvicorn

    from pagemem.server.rest import create_app

    text = _Text(11)
    local: list[float] = []
    remote: list[float] = []
    with (
        scratch_folder(folder) as scratch,
        Memory(Path(scratch) / "rest.db") as memory,
    ):
        me = memory.scope("bench", "rest")
        me.archive.insert_many([text.sentence() for _ in range(notes)])
        key = memory.issue_api_key("bench")
        port = free_port()
        config = uvicorn.Config(
            create_app(memory), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers) as client:
            for _ in range(queries):
                query = text.query()
                start = time.perf_counter()
                me.archive.search(query, k=5)
                local.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                client.post("/v1/users/rest/memories/search", json={"query": query, "k": 5})
                remote.append((time.perf_counter() - start) * 1000)
        server.should_exit = True
        thread.join(5)

    def p95(values: list[float]) -> float:
        return sorted(values)[int(0.95 * (len(values) - 1))]

    return RestLatency(
        notes,
        queries,
        statistics.median(local),
        p95(local),
        statistics.median(remote),
        p95(remote),
    )


def free_port() -> int:
    """A port free on 127.0.0.1 now. (uvicorn binds it itself: handed a socket of ours, it
    answers every request about 40 ms late on this platform.)"""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
