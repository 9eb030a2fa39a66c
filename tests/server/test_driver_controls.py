"""The bell and the window title ride with the next frame in one channel write (one SSH packet, one
cipher call, one send instead of two or three), or go alone within a frame's time: whatever the
back-pressure, and before the screen is left."""

from __future__ import annotations

import asyncio

from driver_link import DriverLink
from textual.app import App

from server.config import ServerConfig
from server.transport.driver import CONTROL_HOLD_SECONDS, SSHDriver
from server.transport.input_budget import InputBudget


def _driver() -> tuple[SSHDriver, DriverLink]:
    limits = ServerConfig()
    writes: list[bytes] = []
    link = DriverLink(writes.append)
    link.writes = writes  # type: ignore[attr-defined]
    driver = SSHDriver(App(), link=link, limits=limits, budget=InputBudget(limits), color_system="truecolor")
    driver._in_app_mode = True  # as after start_application_mode, without the app running
    return driver, link


async def test_the_bell_and_title_go_with_the_next_frame_in_one_write() -> None:
    driver, link = _driver()
    driver.send_control("\x07")
    driver.send_control("\x1b]2;Citadels · your move\x07")
    assert link.writes == []
    driver.write("\x1b[1;1Hframe")
    driver.flush()
    assert link.writes == ["\x07\x1b]2;Citadels · your move\x07\x1b[1;1Hframe".encode()]
    await asyncio.sleep(CONTROL_HOLD_SECONDS * 3)
    assert len(link.writes) == 1  # nothing sent twice


async def test_without_a_frame_they_go_alone_within_a_frames_time() -> None:
    driver, link = _driver()
    driver.send_control("\x07")
    await asyncio.sleep(CONTROL_HOLD_SECONDS * 3)
    assert link.writes == [b"\x07"]


async def test_a_frame_dropped_for_back_pressure_does_not_take_them_along() -> None:
    driver, link = _driver()
    link.backlog = 10**9
    driver.send_control("\x07")
    driver.write("\x1b[1;1Hframe")
    driver.flush()
    assert link.writes == [] and driver.frames_dropped == 1
    await asyncio.sleep(CONTROL_HOLD_SECONDS * 3)
    assert link.writes == [b"\x07"]
    driver.close()


async def test_the_title_put_back_on_the_way_out_goes_before_the_screen_is_left() -> None:
    driver, link = _driver()
    driver.send_control("\x1b[23;2t")
    driver.stop_application_mode()
    assert link.writes[0] == b"\x1b[23;2t"
    assert b"\x1b[?1049l" in b"".join(link.writes[1:])
    await asyncio.sleep(CONTROL_HOLD_SECONDS * 3)
    assert link.writes.count(b"\x1b[23;2t") == 1


async def test_nothing_is_sent_after_close() -> None:
    driver, link = _driver()
    driver.send_control("\x07")
    driver.close()
    await asyncio.sleep(CONTROL_HOLD_SECONDS * 3)
    assert link.writes == []
