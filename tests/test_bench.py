from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pagemem.bench import BenchResult, run_bench, table
from pagemem.bench.scale import scratch_folder
from pagemem.cli import cli
from pagemem.errors import InvalidInputError


def test_a_small_bench_measures_every_figure() -> None:
    results = run_bench(
        [1000], layouts=["one", "spread"], queries=10, single_inserts=5, batch_inserts=20
    )
    assert [(r.engine, r.layout) for r in results] == [
        ("hybrid", "one"),
        ("bm25", "one"),
        ("hybrid", "spread"),
        ("bm25", "spread"),
    ]
    for result in results:
        assert isinstance(result, BenchResult)
        assert result.notes == 1000
        assert result.scopes == (1 if result.layout == "one" else 1000)
        assert result.insert_single_per_s > 0
        assert result.insert_batch_per_s > 0
        assert 0 < result.search_p50_ms <= result.search_p95_ms
        assert result.peak_rss_mb > 10
    assert "p95 ms" in table(results).splitlines()[0]


def test_bench_rejects_bad_sizes() -> None:
    result = CliRunner().invoke(cli, ["bench", "--sizes", "ten"])
    assert result.exit_code == 2
    assert "not a list of numbers" in result.output
    result = CliRunner().invoke(cli, ["bench", "--sizes", "10"])
    assert result.exit_code == 2
    assert "at least 1000" in result.output


def test_add_latency_measures_both_ways(tmp_path: object) -> None:
    from pagemem.bench import add_latency

    result = add_latency(messages=20, folder=str(tmp_path))
    assert result.messages == 20
    assert result.off_p50_ms > 0
    assert result.on_p50_ms > 0
    assert "on/off" in result.line()


def test_batch_consolidation_measures_both_ways(tmp_path: object) -> None:
    from pagemem.bench import batch_consolidation

    result = batch_consolidation(scope_notes=1000, batch_notes=500, folder=str(tmp_path))
    assert result.with_per_s > 0
    assert result.without_per_s > 0
    assert result.model_per_s > 0
    assert "consolidated" in result.line()
    assert "bundled model" in result.line()


def test_rest_latency_measures_both_ways(tmp_path: object) -> None:
    from pagemem.bench import rest_latency

    result = rest_latency(notes=20, queries=5, folder=str(tmp_path))
    assert result.local_p50_ms > 0
    assert result.rest_p50_ms > 0
    assert "REST on 127.0.0.1" in result.line()


def test_foreign_writes_are_applied_from_the_feed_not_rebuilt(tmp_path: object) -> None:
    from pagemem.bench import foreign_writes

    result = foreign_writes(notes=500, writes=5, per_s=20.0, folder=str(tmp_path))
    assert result.rebuilds == 0
    assert result.applied >= 5
    assert result.shared_p50_ms > 0
    assert "rebuilds 0" in result.line()


def test_several_writers_are_followed_from_the_feed(tmp_path: object) -> None:
    from pagemem.bench import foreign_writes

    result = foreign_writes(notes=500, writes=4, per_s=20.0, folder=str(tmp_path), writers=2)
    assert result.writers == 2
    assert result.rebuilds == 0
    assert result.applied >= 8  # both writers' notes, item by item
    assert "while 2 processes write" in result.line()
    with pytest.raises(ValueError, match="at least 1"):
        foreign_writes(notes=500, writers=0)


def test_a_bench_folder_is_made_when_missing_and_refused_when_a_file(tmp_path: Path) -> None:
    missing = tmp_path / "not" / "yet"
    with scratch_folder(str(missing)) as workdir:
        assert Path(workdir).parent == missing
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(InvalidInputError, match="is a file"):
        scratch_folder(str(afile))
