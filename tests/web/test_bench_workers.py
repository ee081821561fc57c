"""`tlatelolco bench server --workers N` on a small scale: a throwaway redis-server, a server
in remote mode, real worker processes. Speed is not asserted (CI's cores are shared); the run
must play bot moves through the workers and report them."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from tests.web.rq_workers import ROOT
from tests.web.services import unavailable

from tlatelolco.web import worker_benchmark
from tlatelolco.web.worker_benchmark import run_worker_bench


def test_a_short_run_plays_bot_moves_on_the_workers() -> None:
    if shutil.which("redis-server") is None:
        unavailable("bench server --workers starts a redis-server, which is not installed")
    row = run_worker_bench(workers=1, games=2, seconds=4)
    assert row["workers"] == 1 and row["games"] == 2
    assert row["moves"] > 0 and row["moves_per_s"] > 0, row
    assert row["seconds"] >= 4


def test_without_redis_it_fails_saying_how_to_get_one(monkeypatch) -> None:
    monkeypatch.setattr(worker_benchmark.shutil, "which", lambda _: None)
    with pytest.raises(RuntimeError, match="give --redis URL"):
        run_worker_bench(workers=1, seconds=1)


@pytest.mark.parametrize(("args", "said"), [
    (["--workers", "99"], "--workers 99: give a number of worker processes from 1 to 32"),
    (["--workers", "1", "--url", "http://127.0.0.1:9"], "cannot measure --url"),
    (["--redis", "redis://127.0.0.1:9/0"], "use bench server"),
])
def test_bad_options_fail_in_one_line(args: list[str], said: str) -> None:
    target = [] if "--redis" in args else ["server"]
    done = subprocess.run([sys.executable, "-c", "from tlatelolco.cli.app import main; main()",
                           "bench", *target, *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"})
    assert done.returncode != 0
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
