"""A run on disk: `records.jsonl` (one game record per line, in match order) and `summary.json`.

The records are the truth; the summary is derived from them. `load_run` replays every record, so
a summary recomputed from a loaded run rests only on games that really follow the rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tlatelolco.arena.schedule import Match
from tlatelolco.records import RecordError, record_from_json, replay_record

RECORDS = "records.jsonl"
SUMMARY = "summary.json"


@dataclass(frozen=True, slots=True)
class Run:
    """A stored run: its matches (rebuilt from the records), the records, the saved summary."""

    path: Path
    matches: list[Match]
    records: list[dict[str, Any]]
    summary: dict[str, Any] | None

    def bots(self) -> list[str] | None:
        """The entrants in their order, as the saved summary lists them."""
        if not self.summary:
            return None
        return [b["bot"] for b in self.summary.get("bots", [])] or None


def default_out(game: str, players: int, now: datetime | None = None) -> Path:
    """`arena-runs/<game>-<players>p-<UTC time>`: runs sort by time and never overwrite."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return Path("arena-runs") / f"{game}-{players}p-{stamp}"


def save_run(out: str | Path, records: list[dict[str, Any]], summary: dict[str, Any]) -> Path:
    """Write a run's two files into `out` (created if needed); returns `out`."""
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    # one compact line per record: the JSON of `record_to_json`, without its indentation
    lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    (path / RECORDS).write_text(lines, encoding="utf-8")
    (path / SUMMARY).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return path


def match_of(record: dict[str, Any]) -> Match:
    """The match a record was played for, from its game, options, players and meta."""
    meta = record.get("meta") or {}
    if not isinstance(meta.get("match"), int) or not isinstance(meta.get("seed"), int):
        raise RecordError("record has no meta.match and meta.seed: not an arena record")
    options = {k: v for k, v in record["options"].items() if k != "num_players"}
    return Match(meta["match"], record["game"], tuple(sorted(options.items())),
                 int(record["options"]["num_players"]), tuple(record["players"]), meta["seed"],
                 tuple(meta.get("sighted", ())))


def load_run(out: str | Path) -> Run:
    """Read and validate a stored run; a bad line raises `RecordError` naming file and line."""
    path = Path(out)
    file = path / RECORDS
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"cannot read {file}: {err}") from None
    records, matches = [], []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = record_from_json(line)
            replay_record(record)
            matches.append(match_of(record))
        except RecordError as err:
            raise RecordError(f"{file}:{number}: {err}") from None
        records.append(record)
    if not records:
        raise RecordError(f"{file} holds no records")
    summary = None
    try:
        summary = json.loads((path / SUMMARY).read_text(encoding="utf-8"))
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as err:
        raise RecordError(f"cannot read {path / SUMMARY}: {err}") from None
    return Run(path, matches, records, summary)


__all__ = ["RECORDS", "SUMMARY", "Run", "default_out", "load_run", "match_of", "save_run"]
