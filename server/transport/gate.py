"""The listening socket's protocol: admission at accept, before any SSH work.

asyncio makes one :class:`Gate` per accepted TCP connection. The server's admission decides at
once (server/transport/admission.py): a refused connection gets one line and is closed (no
banner, no key exchange, no asyncssh object); an admitted one is handed to a fresh asyncssh
connection (``transport.set_protocol``), which then runs as if asyncssh had accepted it.
"""

from __future__ import annotations

import asyncio
from typing import Protocol


class GateKeeper(Protocol):
    def admit_transport(self, transport: asyncio.Transport) -> None: ...


class Gate(asyncio.Protocol):
    """Decides at ``connection_made``; an admitted transport has another protocol right after."""

    __slots__ = ("_keeper",)

    def __init__(self, keeper: GateKeeper) -> None:
        self._keeper = keeper

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._keeper.admit_transport(transport)  # type: ignore[arg-type]

    def data_received(self, data: bytes) -> None:
        """A refused connection's bytes, before its close completes: ignored."""

    def eof_received(self) -> bool:
        return False
