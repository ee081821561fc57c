"""Reviewing a whole record: the same review in one process, a pool or Ray; progress; cache."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from tests.ci import unavailable

from tlatelolco import load, play_match
from tlatelolco.records import RecordError
from tlatelolco.review import ReviewCache, Settings, review_record
from tlatelolco.review import runner as review_runner
from tlatelolco.review.analysis import VERSION

FAST = Settings(iterations=16)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return play_match(load("axio", num_players=2), ["greedy", "random"], seed=7)


@pytest.fixture(scope="module")
def alone(record: dict[str, Any]) -> dict[str, Any]:
    return review_record(record, FAST, workers=1)


def without_time(review: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in review.items() if k != "seconds"}


def test_a_pool_gives_the_same_review_as_one_process(record: dict[str, Any],
                                                     alone: dict[str, Any]) -> None:
    seen: list[tuple[int, int]] = []
    pooled = review_record(record, FAST, workers=2,
                           progress=lambda done, total: seen.append((done, total)))
    assert without_time(pooled) == without_time(alone)
    total = len(alone["decisions"])
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert len(seen) > 2  # decisions come in batches, so the bar moves while it works


def test_ray_gives_the_same_review_as_one_process(record: dict[str, Any],
                                                  alone: dict[str, Any]) -> None:
    try:
        import ray
    except ImportError:
        unavailable("Ray is not installed", "the README's commands install the cluster extra")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    try:
        assert without_time(review_record(record, FAST, ray_address="local")) == \
            without_time(alone)
    finally:
        ray.shutdown()


def test_a_cached_review_is_read_back_not_computed(record: dict[str, Any], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    cache = ReviewCache(tmp_path / "reviews")
    first = review_record(record, FAST, workers=1, cache=cache)
    stored = cache.path(first["key"])
    assert json.loads(stored.read_text()) == first

    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("a cached review was computed again")

    monkeypatch.setattr(review_runner, "analyse_all", refuse)
    seen: list[tuple[int, int]] = []
    again = review_record(record, FAST, cache=cache, progress=lambda *p: seen.append(p))
    assert again == first
    assert seen == [(len(first["decisions"]),) * 2]
    other = Settings(iterations=17)
    with pytest.raises(AssertionError, match="computed again"):
        review_record(record, other, cache=cache)  # other settings: another review


@pytest.mark.parametrize("damage", ["{half a review", '{"version": 0}', "[]"])
def test_a_damaged_or_outdated_cache_entry_is_computed_afresh(
        record: dict[str, Any], tmp_path: Path, damage: str) -> None:
    cache = ReviewCache(tmp_path)
    review = review_record(record, FAST, workers=1, cache=cache)
    cache.path(review["key"]).write_text(damage)
    assert cache.get(review["key"]) is None
    again = review_record(record, FAST, workers=1, cache=cache)
    assert without_time(again) == without_time(review)
    assert json.loads(cache.path(review["key"]).read_text())["version"] == VERSION


def test_only_a_finished_valid_record_is_reviewed(record: dict[str, Any]) -> None:
    unfinished = {**record, "history": record["history"][:30], "result": None}
    with pytest.raises(ValueError, match="only a finished game can be reviewed"):
        review_record(unfinished, FAST)
    with pytest.raises(RecordError, match=r"history\[5\]: action 1000000000 is not legal"):
        review_record({**record, "history": [*record["history"][:5], 10**9]}, FAST)
    with pytest.raises(RecordError, match="record has no 'history'"):
        review_record({k: v for k, v in record.items() if k != "history"}, FAST)
    with pytest.raises(ValueError, match="workers must be a whole number"):
        review_record(record, FAST, workers=0)
