from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pagemem import Memory
from pagemem.eval import locomo


def _conversation(tmp_path: Path) -> locomo.Conversation:
    sample = {
        "sample_id": "conv-47",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a puppy named Biscuit"},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! I started pottery"},
            ],
            "session_2_date_time": "10:00 am on 2 June, 2023",
            "session_2": [
                {"speaker": "Ana", "dia_id": "D2:1", "text": "Biscuit learned to sit"},
            ],
        },
        "qa": [
            {"question": "What did Ana adopt in May 2023?", "evidence": ["D1:1"], "category": 2}
        ],
    }
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    return locomo.load(path)[0]


def test_a_replay_says_each_message_at_its_session_time(tmp_path: Path) -> None:
    conversation = _conversation(tmp_path)
    clock = locomo.ReplayClock()
    before = datetime.now(UTC)
    assert clock() >= before  # unset: the wall clock
    with Memory(":memory:", embedder=None, clock=clock) as memory:
        by_message = locomo.ingest_recall(memory, conversation, clock)
        me = memory.scope("locomo-recall", conversation.sample_id)
        said = {
            by_message[m.id]: m.created_at
            for m in me.recall.search("Biscuit puppy pottery sit", order="newest")
        }
    may, june = datetime(2023, 5, 8, 13, 56, tzinfo=UTC), datetime(2023, 6, 2, 10, tzinfo=UTC)
    assert said["D1:1"] == may
    assert said["D2:1"] == june
    assert clock() == june + timedelta(days=1)  # the questions are asked after the last


def test_recall_scores_with_the_replayed_times(tmp_path: Path) -> None:
    board = locomo.evaluate([_conversation(tmp_path)], target="recall")
    assert board.means("all")["R@1"] == 1.0
