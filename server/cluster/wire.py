"""What the nodes say to each other about tables and sessions: typed messages over NATS.

A session runs on the node its player connected to (its *front*); a table runs on the node
holding its lease (its *owner*). In cluster mode every session reaches its table through an
owner call, even when both are on one node (then the call is a function call, not a message):
one path, so failover and hand-over are the same for everyone.

Front -> owner, request/reply on the table's control subject (``<ns>.table.<id>.ctl``): one
`ToOwner` per lobby request a session makes about that table (join, watch, start...), its
arrival (`Arrive`: a key seated there connected), its departure, its chat lines, and `Resume`
when the table changed owner. The owner answers with an `Outcome`: the error for the player,
or where the session now is (table, seat, on the table screen or not) and the table's fresh
listing.

Front -> owner, request/reply on the seat's command subject (``...seat.<token>.cmd``): `Play`.

Owner -> front:
  - on the seat's update subject (``...seat.<token>.out``): the actor's messages for that seat
    (server/tables/messages.py `ToSession`: views, refusals, chat, notices, presence), nothing
    else; only the seat's own session listens there (the token needs the cluster secret);
  - on the front node's inbox (``<ns>.node.<node>.inbox``): `ToFront` for one session: it was
    put at a table (`Entered`), moved or told something by the lobby (`Moved`), shown a
    spectator's message (`Watched`), or closed (`Closed`).

Every message is a msgspec Struct (msgpack on the wire), tagged, so each side decodes exactly
the union it expects; nothing here carries a game state, only views already made for a seat.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from engine import Command
from server.cluster.records import TableListing
from server.tables.messages import ToSession


class Member(Struct, frozen=True, kw_only=True):
    """A session as an owner knows it: where it runs and who it is."""

    node: str
    session: str  # its id, unique on its node
    key: str  # its identity: the key's fingerprint, or "guest:<session id>"
    name: str
    guest: bool = False
    address: str | None = None  # the player's address (per-source limits, bans, logs)
    player: int | None = None  # the key's player in the shared players database, once its node knows it
    keys: tuple[str, ...] = ()  # that player's keys as its node knows them (the owner's `same`: one player)


# --- front -> owner (the table's control subject) ------------------------------------------------


class Arrive(Struct, tag="arrive", kw_only=True):
    """A session whose key has a seat at this table connected (or came back to it)."""

    member: Member


class Join(Struct, tag="join", kw_only=True):
    member: Member
    seat: int | None = None
    code: str | None = None


class Watch(Struct, tag="watch", kw_only=True):
    member: Member
    code: str | None = None


class BackToTable(Struct, tag="back", kw_only=True):
    member: Member


class ToLobby(Struct, tag="to_lobby", kw_only=True):
    member: Member


class Leave(Struct, tag="leave", kw_only=True):
    member: Member


class Start(Struct, tag="start", kw_only=True):
    member: Member


class AddBot(Struct, tag="add_bot", kw_only=True):
    member: Member
    seat: int | None = None


class Remove(Struct, tag="remove", kw_only=True):
    member: Member
    seat: int


class ReplaceWithBot(Struct, tag="replace_with_bot", kw_only=True):
    member: Member
    seat: int


class SpectatorChat(Struct, tag="spectator_chat", kw_only=True):
    member: Member
    allowed: bool


class Rename(Struct, tag="rename", kw_only=True):
    member: Member
    name: str


class Depart(Struct, tag="depart", kw_only=True):
    """The session ended (its player disconnected)."""

    member: Member


class Resume(Struct, tag="resume", kw_only=True):
    """The table has a new owner (failover, hand-over): the session was there, at `seat`
    (None: watching), on the table screen or not."""

    member: Member
    seat: int | None
    at_table: bool


class Ready(Struct, tag="ready", kw_only=True):
    """The session listens on its seat's update subject: the owner may send its views."""

    member: Member
    seat: int | None


class Say(Struct, tag="say", kw_only=True):
    """A chat line (the front applied the session's own rate limit)."""

    member: Member
    author: str
    text: str
    watching: bool = False


class PlayAgain(Struct, tag="play_again", kw_only=True):
    """The same seats again, after this (finished) table's game (server/lobby/rematch.py)."""

    member: Member


class Export(Struct, tag="export", kw_only=True):
    """The table's game as a save file's bytes (`Outcome.data`), for the creator's "save"."""

    member: Member


ToOwner = (
    Arrive
    | Join
    | Watch
    | BackToTable
    | ToLobby
    | Leave
    | Start
    | AddBot
    | Remove
    | ReplaceWithBot
    | SpectatorChat
    | Rename
    | Depart
    | Resume
    | Ready
    | Say
    | PlayAgain
    | Export
)


class Outcome(Struct, kw_only=True):
    """The owner's answer: an error for the player, or where the session is now."""

    error: str | None = None
    cause: str | None = None  # the lobby's cause word, for the front's refusal counters
    table: str | None = None  # the table the session is at (None: back in the lobby)
    seat: int | None = None
    at_table: bool = False
    listing: TableListing | None = None  # the table's listing as of the answer
    data: bytes = b""  # Export: the save file


# --- front -> owner (a seat's command subject) ---------------------------------------------------


class Play(Struct, kw_only=True):
    """A seat's command. `retry`: sent again after the table changed owner (a refusal of it,
    the command having been applied before the move, is not shown)."""

    node: str
    session: str
    command: Command
    retry: bool = False


class Received(Struct, kw_only=True):
    ok: bool = True
    error: str | None = None  # not at this seat (yet): the front tries again


# --- owner -> front (the front node's inbox) -----------------------------------------------------


class Entered(Struct, tag="entered", kw_only=True):
    """The session is put on the table's screen at `seat` (None: watching)."""

    session: str
    table: str
    seat: int | None
    listing: TableListing | None = None


class Moved(Struct, tag="moved", kw_only=True):
    """Where the session is now, and what the table or the lobby told it on the way: `displaced`
    (it lost its seat or the table closed under it: back to the lobby with that line) or
    `notice` (a line for the lobby screen)."""

    session: str
    about: str  # the table this comes from (a session may have gone elsewhere since)
    table: str | None
    seat: int | None
    at_table: bool
    displaced: str | None = None
    displaced_key: str = ""  # the `lobby.<key>` sentence of a Displaced (said in the player's language)
    notice: str | None = None
    listing: TableListing | None = None


class Watched(Struct, tag="watched", kw_only=True):
    """A table's message for a spectator session (public: what `view(state, None)` shows)."""

    session: str
    message: ToSession


class Closed(Struct, tag="closed", kw_only=True):
    """Close the session with this line (a ban found by the owner)."""

    session: str
    text: str | None = None


ToFront = Entered | Moved | Watched | Closed

_encoder = msgspec.msgpack.Encoder()


class KeyRemoved(Struct, tag="key_removed", kw_only=True):
    """A key was removed from its account (on `<ns>.accounts`): every node closes its sessions and
    forgets whose it was."""

    fingerprint: str


key_removed = msgspec.msgpack.Decoder(KeyRemoved)
to_owner = msgspec.msgpack.Decoder(ToOwner)
outcome = msgspec.msgpack.Decoder(Outcome)
play = msgspec.msgpack.Decoder(Play)
received = msgspec.msgpack.Decoder(Received)
to_front = msgspec.msgpack.Decoder(ToFront)
to_session = msgspec.msgpack.Decoder(ToSession)


def encode(message: Any) -> bytes:
    return _encoder.encode(message)


__all__ = [
    "AddBot",
    "Arrive",
    "BackToTable",
    "Closed",
    "Command",
    "Depart",
    "Entered",
    "Export",
    "Join",
    "Leave",
    "Member",
    "Moved",
    "Outcome",
    "Play",
    "PlayAgain",
    "Ready",
    "Received",
    "Remove",
    "Rename",
    "ReplaceWithBot",
    "Resume",
    "Say",
    "SpectatorChat",
    "Start",
    "ToFront",
    "ToLobby",
    "ToOwner",
    "Watch",
    "Watched",
]
