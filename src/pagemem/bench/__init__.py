"""`pagemem bench`: insert throughput, search latency and peak memory at scale
(`scale`), and the paths timed apart from it (`paths`)."""

from pagemem.bench.paths import (
    AddLatency,
    BatchConsolidation,
    ForeignWrites,
    RestLatency,
    add_latency,
    batch_consolidation,
    foreign_writes,
    free_port,
    rest_latency,
)
from pagemem.bench.scale import ENGINES, LAYOUTS, BenchResult, row, run_bench, table

__all__ = [
    "ENGINES",
    "LAYOUTS",
    "AddLatency",
    "BatchConsolidation",
    "BenchResult",
    "ForeignWrites",
    "RestLatency",
    "add_latency",
    "batch_consolidation",
    "foreign_writes",
    "free_port",
    "rest_latency",
    "row",
    "run_bench",
    "table",
]
