"""Large scopes on PostgreSQL are searched in the database (tsvector + GIN, a partial
HNSW index of their own); small ones stay in memory. Both must find the same notes."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest

from pagemem import Memory
from pagemem.retrieval.ranker import RetrievalConfig
from pagemem.store.base import StoreSearch
from pagemem.store.postgres.search import vector_index_name

from ..conftest import ticking_clock

NOTES = [
    "Priya's dog is named Miso",
    "Priya prefers aisle seats on long flights",
    "The quarterly report is due on Friday",
    "Sam is allergic to peanuts",
    "Priya moved to Lisbon in March",
    "The office wifi password changed last week",
    "Ana plays the cello on Sundays",
    "Priya's sister lives in Porto",
] * 4


CLOCK = ticking_clock()  # one clock for every memory here, so "now" is past every write


def _memory(url: str, threshold: float) -> Memory:
    config = RetrievalConfig(store_search_threshold=threshold)
    return Memory(url, clock=CLOCK, retrieval=config)


def test_a_large_scope_is_searched_in_the_database(postgres_url: str) -> None:
    small = _memory(postgres_url, threshold=10_000)
    me = small.scope("acme", "priya")
    for i, text in enumerate(NOTES):
        me.archive.insert(f"{text} (note {i})", origin="user", kind="episodic")
    other = small.scope("globex", "priya")
    other.archive.insert("Priya's dog is named Rex", origin="user")
    queries = ["what is the dog called", "seat preference", "peanut allergy", "Lisbon"]
    in_memory = {q: [h.record.text for h in me.archive.search(q, k=3)] for q in queries}

    large = _memory(postgres_url, threshold=10)
    them = large.scope("acme", "priya")
    in_store = {q: [h.record.text for h in them.archive.search(q, k=3)] for q in queries}
    assert (them.scope, "records") in large.ranker._in_store
    for query in queries:  # the same best note either way
        assert in_store[query][0].split(" (")[0] == in_memory[query][0].split(" (")[0]
        assert all("Rex" not in text for text in in_store[query])  # never another tenant's
    hit = them.archive.search("dog", k=1)[0]
    assert hit.explain.startswith("store ")
    # a metadata filter is applied in the database, before ranking
    tagged = them.archive.insert("Priya's neighbour has a dog too", tags=["neighbours"])
    found = them.archive.search("dog", k=3, tags=["neighbours"])
    assert [h.record.id for h in found] == [tagged]

    # the scope got its own HNSW index, built in the background, and the planner uses it
    # and the GIN index
    assert isinstance(large.store, StoreSearch)
    assert large.store.wait_for_vector_indexes(timeout=60)
    with psycopg.connect(postgres_url) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM vector_indexes")]
        assert len(names) == 1
        assert conn.execute(
            "SELECT count(*) FROM pg_indexes WHERE indexname = %s", (names[0],)
        ).fetchone() == (1,)
        conn.execute("SET enable_seqscan = off")
        plan = "\n".join(
            r[0]
            for r in conn.execute(
                "EXPLAIN SELECT record_pk FROM vectors WHERE tenant_id = 'acme' AND user_id = "
                "'priya' AND agent_id = '' AND model_id = %s ORDER BY embedding::vector(384) "
                "<=> (SELECT embedding::vector(384) FROM vectors LIMIT 1) LIMIT 5",
                (large.ranker.embedder_id,),
            )
        )
        assert names[0] in plan
        plan = "\n".join(
            r[0]
            for r in conn.execute(
                "EXPLAIN SELECT id FROM records WHERE tsv @@ to_tsquery('english', 'dog')"
            )
        )
        assert "records_tsv" in plan

    # writes keep working, and are found, while the scope is searched in the store
    rid = them.archive.insert("Priya adopted a kitten called Tofu", origin="user")
    assert them.archive.search("kitten", k=1)[0].record.id == rid
    them.archive.delete(rid)
    assert all(h.record.id != rid for h in them.archive.search("kitten", k=5))
    # a restatement is still recognised (consolidation asks the store for similar facts)
    again = them.archive.insert("Priya adopted a kitten called Tofu", origin="user")
    third = them.archive.insert("Priya adopted a kitten called Tofu", origin="user")
    assert third != again
    assert them.archive.get(third).consolidated_with == again
    small.close()
    large.close()


@pytest.mark.parametrize("when", ["now", "as_of"])
def test_validity_is_applied_in_the_database_too(postgres_url: str, when: str) -> None:
    memory = _memory(postgres_url, threshold=3)
    me = memory.scope("acme", "priya")
    for n in range(5):
        me.archive.insert(f"filler fact number {n}", origin="user", kind="episodic")
    first = me.archive.insert("home city is Seattle", key="user.home_city", origin="user")
    middle = memory.now()
    second = me.archive.insert("home city is Austin", key="user.home_city", origin="user")
    if when == "now":
        assert [
            h.record.id for h in me.archive.search("home city", k=5) if "city" in h.record.text
        ] == [second]
    else:
        found = me.archive.search("home city", k=5, as_of=middle)
        assert [h.record.id for h in found if "city" in h.record.text] == [first]
    memory.close()


def test_the_vector_index_is_built_off_the_search_path_and_a_dead_build_is_redone(
    postgres_url: str,
) -> None:
    memory = _memory(postgres_url, threshold=10)
    me = memory.scope("acme", "priya")
    for i, text in enumerate(NOTES):
        me.archive.insert(f"{text} (note {i})", origin="user", kind="episodic")
    store = memory.store
    assert isinstance(store, StoreSearch)
    model = memory.ranker.embedder_id
    assert model is not None
    name = vector_index_name(me.scope, "records", model)
    with psycopg.connect(postgres_url, autocommit=True) as other:
        # Another server is building this index (it holds the build lock): this process
        # must not wait for it, and searches the scope exactly meanwhile.
        other.execute("SELECT pg_advisory_lock(hashtextextended(%s, 1))", (name,))
        hits = me.archive.search("what is the dog called", k=3)
        assert (me.scope, "records") in memory.ranker._in_store
        assert "Miso" in hits[0].record.text
        assert store.wait_for_vector_indexes(timeout=60)
        assert other.execute("SELECT count(*) FROM vector_indexes").fetchone() == (0,)
        assert other.execute(
            "SELECT count(*) FROM pg_indexes WHERE indexname = %s", (name,)
        ).fetchone() == (0,)
        # ...and that server died half way: an invalid index is left under the name.
        other.execute(f'CREATE INDEX "{name}" ON vectors (model_id)')
        other.execute(
            "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass", (name,)
        )
        other.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 1))", (name,))

        store.ensure_vector_index(me.scope, "records", model, 384)
        assert store.wait_for_vector_indexes(timeout=60)
        valid, definition = other.execute(
            "SELECT i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i "
            "WHERE i.indexrelid = %s::regclass",
            (name,),
        ).fetchone() or (None, "")
        assert valid is True
        assert "USING hnsw" in definition
        assert other.execute("SELECT name FROM vector_indexes").fetchall() == [(name,)]
    assert "Miso" in me.archive.search("what is the dog called", k=3)[0].record.text
    memory.close()


def test_a_scope_that_grows_past_the_threshold_moves_to_the_store(postgres_url: str) -> None:
    memory = _memory(postgres_url, threshold=10)
    me = memory.scope("acme", "priya")
    for text in NOTES[:6]:
        me.archive.insert(text, origin="user", kind="episodic")
    assert "Miso" in me.archive.search("dog name", k=1)[0].record.text
    assert (me.scope, "records") not in memory.ranker._in_store  # small: in memory
    for i, text in enumerate(NOTES[6:]):
        me.archive.insert(f"{text} ({i})", origin="user", kind="episodic")
    assert "Miso" in me.archive.search("dog name", k=1)[0].record.text
    assert (me.scope, "records") in memory.ranker._in_store
    memory.close()


def test_similar_facts_in_the_store_are_the_nearest_that_share_a_word(postgres_url: str) -> None:
    memory = _memory(postgres_url, threshold=5)
    me = memory.scope("acme", "priya")
    ids = [me.archive.insert(text, origin="user") for text in NOTES[:8]]
    found = memory.ranker.similar(me.scope, "Priya's dog is called Miso", 3)
    assert (me.scope, "records") in memory.ranker._in_store
    assert found
    assert found[0][0] == ids[0]  # the same fact, nearest by meaning
    texts = {memory.scope("acme", "priya").archive.get(i).text for i, _ in found}
    assert all(any(w in t.lower() for w in ("priya", "dog", "miso")) for t in texts)
    assert memory.ranker.similar(me.scope, "zzz qqq", 3) == []  # no shared word: none
    memory.close()


def test_the_database_search_brings_in_what_closed_a_matching_fact(postgres_url: str) -> None:
    memory = Memory(
        postgres_url,
        clock=CLOCK,
        embedder=None,
        retrieval=RetrievalConfig(store_search_threshold=1),
    )
    me = memory.scope("acme", "closed")
    old = me.archive.insert("Home city: Leeds.", key="user.city")
    me.archive.insert("The home gym opens early.")
    new = me.archive.insert("Moved house last month; York from now on.", key="user.city")
    hits = me.archive.search("which city is home?", k=5)
    assert (me.scope, "records") in memory.ranker._in_store
    ids = [h.record.id for h in hits]
    assert old not in ids
    assert new in ids
    assert f"matched {old}" in hits[ids.index(new)].explain
    memory.close()


def test_a_time_named_in_the_question_boosts_in_the_database_too(postgres_url: str) -> None:
    memory = _memory(postgres_url, threshold=3)
    me = memory.scope("acme", "diary")
    me.archive.insert("the gallery opens at nine", origin="user")  # past the threshold
    painted = {3: "a lake at dawn", 5: "her dog asleep", 7: "sunflowers in a vase"}
    ids = {
        month: me.archive.insert(
            f"Mel painted {what}", valid_from=datetime(2023, month, 10, tzinfo=UTC)
        )
        for month, what in painted.items()
    }
    hits = me.archive.search("what did Mel paint in May 2023", k=3)
    assert (me.scope, "records") in memory.ranker._in_store
    assert hits[0].record.id == ids[5]
    assert {h.record.id for h in hits} == set(ids.values())  # a boost, not a filter
    memory.close()
