"""The files several server processes share (`citadels serve --workers N`, issue 23), with real processes
writing them: the exports folder's index sees a save written by another process at once (not after its
rescan interval); the bans file is changed under a lock (two processes adding bans at once lose none)
and a ban written by another process is in force at the next check."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from engine.savefile import Seat, dumps, new_save, utcnow
from engine.setup import GameConfig, new_game
from server.admin.bans import BANNED_MESSAGE, CHECK_SECONDS, Bans
from server.lobby.exports import ExportIndex

ROOT = Path(__file__).resolve().parents[2]
KEY_A = "SHA256:" + "A" * 43
KEY_B = "SHA256:" + "B" * 43


def _run(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], cwd=ROOT, text=True)


def test_an_export_written_by_another_process_is_listed_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    frozen = ExportIndex(folder, clock=lambda: 100.0)  # its rescan interval never runs out
    assert frozen.owned_by(KEY_A) == []
    cfg = GameConfig(players=["ana", "bo"], preset="first-game", seed=3)
    g, _ = new_game(cfg)
    save = new_save("t1", cfg, [Seat("ana", key=KEY_A), Seat("bo", key=KEY_B)], g, created=utcnow())
    (tmp_path / "game.bin").write_bytes(dumps(save))
    writer = _run(
        """
        import sys
        from pathlib import Path
        from server.lobby.exports import ExportIndex
        from server.storage.savelog import atomic_write
        index = ExportIndex(Path(sys.argv[1]))
        name = index.reserve("ours")
        atomic_write(index.folder / f"{name}.save", Path(sys.argv[2]).read_bytes())
        """,
        str(folder),
        str(tmp_path / "game.bin"),
    )
    assert writer.wait(60) == 0
    assert [e.name for e in frozen.owned_by(KEY_A)] == ["ours"]
    assert [e.name for e in frozen.owned_by(KEY_B)] == ["ours"]
    assert frozen.owned_by("SHA256:" + "C" * 43) == []
    # the same name from this process: not replaced, the next free one
    assert frozen.reserve("ours") == "ours-2"


def test_two_processes_adding_bans_at_once_lose_none(tmp_path: Path) -> None:
    path = tmp_path / "bans.json"
    code = """
        import sys
        from pathlib import Path
        from server.admin.bans import Bans
        bans = Bans(Path(sys.argv[1]))
        for i in range(25):
            bans.add("address", f"10.{sys.argv[2]}.0.{i}")
        """
    writers = [_run(code, str(path), str(n)) for n in (1, 2)]
    assert [w.wait(60) for w in writers] == [0, 0]
    values = {b.value for b in Bans(path).list()}
    assert len(values) == 50 and "10.1.0.24" in values and "10.2.0.0" in values


def test_a_ban_written_by_another_process_is_in_force_at_the_next_check(tmp_path: Path) -> None:
    path = tmp_path / "bans.json"
    now = [0.0]
    here = Bans(path, clock=lambda: now[0])
    assert here.banned(KEY_A, "127.0.0.1") is None
    writer = _run(
        """
        import sys
        from pathlib import Path
        from server.admin.bans import Bans
        Bans(Path(sys.argv[1])).add("key", sys.argv[2], "elsewhere")
        """,
        str(path),
        KEY_A,
    )
    assert writer.wait(60) == 0
    now[0] += CHECK_SECONDS
    assert here.banned(KEY_A, "127.0.0.1") == BANNED_MESSAGE
    # a change made here starts from the file as it is: the other process's ban stays
    here.add("key", KEY_B)
    assert {b.value for b in Bans(path).list()} == {KEY_A, KEY_B}
    # a file spoiled by hand while running: the bans read before stay in force
    path.write_text("{not json")
    now[0] += CHECK_SECONDS
    assert here.banned(KEY_A, None) == BANNED_MESSAGE
