"""The server's ed25519 host key: generated once in the keys folder, then reused.

Players' ``known_hosts`` entries stay valid as long as the file is kept. The
private key is written with mode 0600 (the folder 0700 when we create it) and
must never be committed.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import asyncssh

HOST_KEY_FILENAME = "ssh_host_ed25519_key"

log = logging.getLogger("citadels.server.transport.hostkey")


def host_key_path(keys_dir: str | Path) -> Path:
    return Path(keys_dir) / HOST_KEY_FILENAME


class HostKeyError(RuntimeError):
    """The host key cannot be read or made; the message is one line naming the file."""


def load_or_create_host_key(keys_dir: str | Path) -> tuple[asyncssh.SSHKey, str]:
    """Return the host key in ``keys_dir`` and its SHA256 fingerprint.

    Generates an ed25519 key (and its ``.pub``) when none exists. An existing
    key file readable by others is tightened to 0600 with a warning. Raises
    :class:`HostKeyError` (one line) when the folder or key cannot be used:
    unreadable, not a private key, encrypted, another algorithm.
    """
    try:
        return _load_or_create(Path(keys_dir))
    except HostKeyError:
        raise
    except OSError as error:
        where = error.filename or keys_dir
        raise HostKeyError(f"host key: {where}: {error.strerror or error}") from None
    except (asyncssh.KeyImportError, asyncssh.KeyEncryptionError, ValueError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise HostKeyError(f"host key: {host_key_path(keys_dir)}: {reason}") from None


def _load_or_create(keys_dir: Path) -> tuple[asyncssh.SSHKey, str]:
    path = keys_dir / HOST_KEY_FILENAME
    if not keys_dir.exists():
        keys_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.exists():
        if not path.is_file():
            raise HostKeyError(f"host key: {path}: not a file")
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning("host key %s had mode %o; setting 0600", path, mode)
            os.chmod(path, 0o600)
        key = asyncssh.read_private_key(path)
        if key.get_algorithm() != "ssh-ed25519":
            raise HostKeyError(f"host key: {path}: expected an ed25519 key, found {key.get_algorithm()}")
    else:
        key = asyncssh.generate_private_key("ssh-ed25519", comment="citadels-ssh host key")
        _write_exclusive(path, key.export_private_key(), 0o600)
        pub = path.with_name(HOST_KEY_FILENAME + ".pub")
        try:
            pub.unlink()
        except FileNotFoundError:
            pass
        _write_exclusive(pub, key.export_public_key(), 0o644)
        log.info("generated a new host key in %s", path)
    return key, key.get_fingerprint("sha256")


def _write_exclusive(path: Path, data: bytes, mode: int) -> None:
    """Create ``path`` with ``mode`` from the start (no window with looser rights)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as file:
            fd = -1
            file.write(data)
    finally:
        if fd != -1:
            os.close(fd)
    os.chmod(path, mode)  # in case the umask removed bits we asked for
