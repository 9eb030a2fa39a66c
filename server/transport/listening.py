"""Before the server is made: the host key read (or made) and the address bound.

    prepared = await prepare_start(config)   # StartError (one line) if either fails
    server = await start_server(config, app_factory, prepared=prepared)

`citadels serve` calls prepare_start first, so that what stops a server from starting is found
before anything else (bans, a players database, the lobby) is made for it.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
from typing import NamedTuple

import asyncssh

from server.config import ServerConfig
from server.transport import compat
from server.transport.hostkey import HostKeyError, load_or_create_host_key


class StartError(RuntimeError):
    """The server cannot start (host key, address in use...): the message is one line."""


class Prepared(NamedTuple):
    """What :func:`prepare_start` checked and holds: the host key and the bound (not yet serving)
    listening socket."""

    host_key: asyncssh.SSHKey
    fingerprint: str
    listener: asyncio.Server | None

    def close(self) -> None:
        """Not started after all (something else failed): free the port."""
        if self.listener is not None:
            self.listener.close()


async def prepare_start(config: ServerConfig) -> Prepared:
    """Read (or make) the host key and bind the address, before the rest of the server is made:
    what stops it from starting is found first, in one line (:class:`StartError`), and nothing
    else (a players database, say) has been created for a server that never ran."""
    try:
        compat.check_asyncssh_version()
        key, fingerprint = load_or_create_host_key(config.keys_dir)
    except (HostKeyError, compat.AsyncsshVersionError) as error:
        raise StartError(str(error)) from None
    # With proxy_protocol the ProxyListener binds the port itself (Server._start).
    return Prepared(key, fingerprint, None if config.proxy_protocol else await _listen(config))


async def _listen(config: ServerConfig) -> asyncio.Server:
    """The bound listening socket; StartError (one line) when the address cannot be listened on."""
    loop = asyncio.get_running_loop()

    # Bound here, accepted by our own acceptor (gate.py), never by asyncio's listener. From a clean
    # context: the accept callbacks (and what they schedule for each connection) copy the context
    # they were registered in, and must never carry an app's.
    async def listen() -> asyncio.Server:
        return await loop.create_server(
            asyncio.Protocol,
            config.host,
            config.port,
            reuse_address=True,
            reuse_port=config.reuse_port or None,  # several worker processes on one port (--workers)
            start_serving=False,
        )

    try:
        return await loop.create_task(listen(), context=contextvars.Context())
    except OSError as error:
        where = f"{config.host or '*'}:{config.port}"
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise StartError(f"cannot listen on {where}: {reason}") from None
