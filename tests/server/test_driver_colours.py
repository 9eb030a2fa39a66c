"""A row's rendered text converted to the client's colours once per process (`rendered_colours`), and
the driver taking such text as it is (`write_converted`) while converting what `write` gave it."""

from __future__ import annotations

import pytest
from driver_link import DriverLink
from textual.app import App

from server.config import ServerConfig
from server.transport import colour
from server.transport.colour import make_colour_downgrade, rendered_colours
from server.transport.driver import SSHDriver
from server.transport.input_budget import InputBudget

ORANGE = "\x1b[1;38;2;254;166;43;48;2;18;18;18mX\x1b[0m"
BLUE = "\x1b[1;38;2;43;166;254;48;2;18;18;18mX\x1b[0m"  # the same length, another colour


@pytest.mark.parametrize("system", ["256", "standard", None])
def test_a_rendered_text_is_converted_as_a_frame_is(system):
    convert = rendered_colours(system)
    downgrade = make_colour_downgrade(system)
    assert convert is not None and downgrade is not None
    for text in (ORANGE, BLUE, f"\x1b[3;4H{ORANGE}", "plain", ""):
        assert convert(text) == downgrade(text)
        assert convert(text) == downgrade(text)  # kept: the same answer again


def test_kept_texts_answer_for_their_own_text_only(monkeypatch):
    monkeypatch.setattr(colour, "MAX_RENDERED", 3)
    convert = rendered_colours("256")
    downgrade = make_colour_downgrade("256")
    assert convert is not None and downgrade is not None
    assert downgrade(ORANGE) != downgrade(BLUE)
    texts = [ORANGE.replace("X", str(i)) for i in range(5)] + [BLUE.replace("X", str(i)) for i in range(5)]
    for _ in range(2):  # the second time after the first ones were let go (first in, first out)
        for text in texts:
            assert convert(text) == downgrade(text)


def test_true_colour_needs_no_conversion():
    assert rendered_colours("truecolor") is None
    assert make_colour_downgrade("truecolor") is None


def _driver(system: str | None) -> tuple[SSHDriver, list[bytes]]:
    limits = ServerConfig()
    writes: list[bytes] = []
    driver = SSHDriver(
        App(), link=DriverLink(writes.append), limits=limits, budget=InputBudget(limits), color_system=system
    )
    driver._in_app_mode = True
    return driver, writes


@pytest.mark.parametrize("system", ["256", "truecolor", None])
async def test_converted_text_is_sent_as_it_is_and_the_rest_converted_in_order(system):
    driver, writes = _driver(system)
    convert = driver.convert_rendered
    as_client = convert if convert is not None else (lambda text: text)
    downgrade = make_colour_downgrade(system) or (lambda text: text)
    seen: list[str] = []  # what the driver converts itself
    if driver._downgrade is not None:
        driver._downgrade = lambda text: seen.append(text) or downgrade(text)
    driver.write(f"a{ORANGE}")
    driver.write_converted(as_client(f"b{BLUE}"))
    driver.write(f"c{BLUE}")
    driver.write(f"d{ORANGE}")
    driver.flush()
    expected = downgrade(f"a{ORANGE}") + as_client(f"b{BLUE}") + downgrade(f"c{BLUE}d{ORANGE}")
    assert writes == [expected.encode()]
    if system == "256":
        assert b"38;5;" in writes[0] and b"38;2;" not in writes[0]
    assert not any("b" in text for text in seen)  # converted text is not converted again
    driver.write_converted(as_client(ORANGE))
    driver.flush()
    assert writes[1:] == [as_client(ORANGE).encode()]
    driver.close()


async def test_a_dropped_frame_drops_converted_text_too():
    driver, writes = _driver("256")
    driver._link.backlog = 10**9
    driver.write_converted("\x1b[1;1Hframe")
    driver.flush()
    driver._link.backlog = 0
    driver.write("\x1b[2;1Hnext")
    driver.flush()
    assert writes == [b"\x1b[2;1Hnext"] and driver.frames_dropped == 1
    driver.close()
