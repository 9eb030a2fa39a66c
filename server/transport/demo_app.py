"""A tiny Textual app for testing and measuring the SSH transport.

Shows who is connected (user name, key fingerprint or guest), the terminal
type, colours and size, the last key pressed and the length of the last
paste. One Static, nothing animated, no command palette: it costs as little
as a served app can. Used until the game UI exists;
``python -m server.transport.demo_app`` serves it on the default port.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.events import Key, Paste, Resize
from textual.widgets import Static

from server.transport.session import ServerStopping, SessionInfo
from server.transport.session_info import InputThrottled


class DemoApp(App[None]):
    """Echoes the session's facts and the last key."""

    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { align: center middle; }
    #panel { width: auto; height: auto; border: round $accent; padding: 1 2; }
    """

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.info = info
        self.term_size = info.size
        self.last_key = "(none yet)"
        self.last_paste = "(none yet)"
        self.notice = ""
        self.resizes = 0  # Resize events received (tests count how many window changes were merged)

    def compose(self) -> ComposeResult:
        yield Static(self.panel_text(), id="panel", markup=False)

    def panel_text(self) -> str:
        info = self.info
        identity = "guest" if info.is_guest else f"key {info.key_fingerprint}"
        lines = [
            "Citadels over SSH - transport demo",
            "",
            f"user: {info.username}",
            f"identity: {identity}",
            f"term: {info.term}  colours: {info.color_system or 'none'}",
            f"size: {self.term_size[0]}x{self.term_size[1]}",
            f"last key: {self.last_key}",
            f"last paste: {self.last_paste}",
            "",
            "ctrl+q quits",
        ]
        if self.notice:
            lines.append(self.notice)
        return "\n".join(lines)

    def _update(self) -> None:
        self.query_one("#panel", Static).update(self.panel_text())

    def on_resize(self, event: Resize) -> None:
        self.resizes += 1
        self.term_size = (event.size.width, event.size.height)
        self._update()

    def on_key(self, event: Key) -> None:
        self.last_key = event.key
        self._update()

    def on_paste(self, event: Paste) -> None:
        self.last_paste = f"{len(event.text)} characters"
        self._update()

    def on_server_stopping(self, message: ServerStopping) -> None:
        self.notice = message.text
        self._update()

    def on_input_throttled(self, message: InputThrottled) -> None:
        self.notice = message.text
        self._update()


def demo_app_factory(info: SessionInfo) -> DemoApp:
    return DemoApp(info)


if __name__ == "__main__":  # pragma: no cover - manual use
    from server.config import ServerConfig
    from server.transport.ssh import serve_forever

    raise SystemExit(serve_forever(ServerConfig(), demo_app_factory))
