"""What `server.transport.driver.SSHDriver` needs of an SSH session (`ChannelLink`), for tests that
run the real driver without a connection: output handed to `on_output`, a backlog to set."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class DriverLink:
    def __init__(self, on_output: Callable[[bytes], None]) -> None:
        self.on_output = on_output
        self.backlog = 0
        self.driver: Any = None

    def send_output(self, data: bytes) -> None:
        self.on_output(data)

    def output_backlog(self) -> int:
        return self.backlog

    def transport_backlog(self) -> int:
        return self.backlog

    def pause_input(self) -> None: ...

    def resume_input(self) -> None: ...

    def abort(self, reason: str) -> None:
        raise AssertionError(reason)

    def driver_attached(self, driver: Any) -> bytes:
        self.driver = driver
        return b""

    def first_frame_sent(self) -> None: ...
