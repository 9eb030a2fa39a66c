"""kill -9 at random moments: the saves folder always reads back, and no acknowledged command is lost."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from server.storage.persistence import SaveStore
from server.storage.savelog import read_log, read_save_file

from .crash_writer import reference

ROOT = Path(__file__).resolve().parents[2]
GAMES = 12


def run_writer(saves: Path, kill_after: float | None) -> tuple[dict[str, int], str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen(
        [sys.executable, "-m", "tests.saves.crash_writer", str(saves), str(GAMES)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if kill_after is None:
        out, err = p.communicate(timeout=120)
    else:
        try:
            out, err = p.communicate(timeout=kill_after)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGKILL)
            out, err = p.communicate()
    acked: dict[str, int] = {}
    last = ""
    for line in out.decode().splitlines():
        last = line
        if line.startswith("ack "):
            _, tid, seq = line.split()
            acked[tid] = int(seq)
    assert "Traceback" not in err.decode(), err.decode()
    assert not last.startswith("problem"), last
    return acked, last


def check_on_disk(saves: Path, refs: dict[str, list], acked: dict[str, int]) -> None:
    """Before any recovery: every save file loads, every log parses, and they hold every acknowledged command."""
    have: dict[str, int] = {}
    for f in sorted((saves / "finished").glob("*.save")) if (saves / "finished").exists() else []:
        s = read_save_file(f)  # raises on an unreadable save
        assert s.finished and s.log == refs[s.id]
        have[s.id] = len(s.log)
    for f in sorted(saves.glob("*.save")):
        s = read_save_file(f)
        assert s.log == refs[s.id][: len(s.log)]
        n = len(s.log)
        log = saves / f"{s.id}.log"
        if log.exists():
            _base, entries, _why = read_log(log.read_bytes(), s.id)
            for e in entries:
                if e.seq == n + 1:
                    assert e.cmd == refs[s.id][n]
                    n += 1
        have[s.id] = max(have.get(s.id, 0), n)
    for tid, seq in acked.items():
        assert have.get(tid, 0) >= seq, f"{tid}: command {seq} was acknowledged but is not on disk"


@pytest.mark.slow  # a soak: a writer killed again and again
@pytest.mark.parametrize("seed", [1, 2])
def test_sigkill_at_random_moments(tmp_path, seed):
    rnd = random.Random(seed)
    saves = tmp_path / "saves"
    refs = {f"g{i}": reference(i) for i in range(GAMES)}
    acked_total: dict[str, int] = {}
    kills = 0
    for _ in range(40):
        acked, last = run_writer(saves, rnd.uniform(0.15, 0.5))
        for tid, seq in acked.items():
            acked_total[tid] = max(acked_total.get(tid, 0), seq)
        check_on_disk(saves, refs, acked_total)
        if last == "done":
            break
        kills += 1
        # the restart's view: every unfinished game resumes, no problem, nothing acknowledged lost
        store = SaveStore(saves)
        tables, problems = store.resume_all()
        assert problems == []
        for t in tables:
            assert t.save.log == refs[t.id][: len(t.save.log)]
            assert len(t.save.log) >= acked_total.get(t.id, 0)
            t.close()
    assert kills >= 3  # the test did kill the writer in the middle, several times
    acked, last = run_writer(saves, None)  # let it finish
    assert last == "done"
    store = SaveStore(saves)
    assert store.unfinished() == [] and store.finished() == sorted(refs)
    for tid, log in refs.items():
        assert store.read_finished(tid).log == log
