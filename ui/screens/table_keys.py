"""The table screen's keys: what each key does, where the focus is, what the footer says.

- Digits choose in the prompt from any panel (a list of characters by rank),
  `e` ends the turn (asking once), Enter confirms, Esc goes back one step (or
  back to the prompt from another panel).
- Tab / Shift+Tab move the focus between the panels: the prompt, the log, the
  chat, your hand (on a small screen the lower panel shown follows the focus);
  arrows and PgUp/PgDn scroll the focused panel.
- The chat is entered with `c` only: Enter sends and returns to the game, Esc
  returns without sending (the text stays), so no game key is ever typed into
  the chat by accident. Keys that move the focus (`c`, Tab, and Enter and Esc
  in the chat) are priority bindings: they act when the app receives them,
  before it routes the next key, so keys typed at once (one SSH packet) go
  where the focus is by then ("chello" is typed, "hi⏎3" sends hi and plays 3);
  Enter first lets the input take the letters already routed to it.
- The footer shows the keys that work in the focused panel (`KeyBar.show_keys`); a key
  that opens or leaves a menu paints it with the prompt, in the same write.

`TableKeys` is the base class of `ui.screens.table.TableScreen`, which owns the
layout (`compact`, `lower`, `_set_lower`) and the widgets.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual import events, on
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from ..compat.direct_paint import painted
from ..prompt_keys import DIGITS, END_TURN
from ..widgets.chat import ChatPanel
from ..widgets.hand import HandPanel
from ..widgets.key_bar import KeyBar
from ..widgets.log_view import LogView
from ..widgets.prompt import PromptPanel

CHAT_KEY = "c"
RING = ("prompt", "log", "chat", "hand")  # Tab order; ending on the hand leaves it shown with the prompt


class TableKeys(Screen):
    BINDINGS = [
        *[Binding(d, f"digit('{d}')", show=False) for d in DIGITS],
        Binding(END_TURN, "end_turn", show=False),
        Binding(CHAT_KEY, "chat", show=False, priority=True),
        Binding("enter", "chat_send", show=False, priority=True),  # only while typing in the chat
        Binding("escape", "chat_leave", show=False, priority=True),  # only while typing in the chat
        Binding("escape", "back", show=False),
        Binding("tab", "focus_panel(1)", show=False, priority=True),
        Binding("shift+tab", "focus_panel(-1)", show=False, priority=True),
        Binding("up", "scroll_panel(-1)", show=False),
        Binding("down", "scroll_panel(1)", show=False),
        Binding("pageup", "page_panel(-1)", show=False),
        Binding("pagedown", "page_panel(1)", show=False),
        Binding("home", "panel_end(-1)", show=False),
        Binding("end", "panel_end(1)", show=False),
    ]

    cat: Any
    compact: bool
    lower: str
    show_chat: bool
    _lower_before_chat: str | None = None
    _panel_widgets: dict[str, Widget] | None = None
    _keys_shown: tuple | None = None  # what the footer was made from (not rebuilt when unchanged)
    _key_bar: KeyBar | None = None
    _prompt_panel: PromptPanel | None = None
    _focus_seen: tuple[Widget, str] | None = None  # the focused widget last asked about, and its panel

    def _set_lower(self, which: str) -> None:  # pragma: no cover - the layout's (TableScreen)
        raise NotImplementedError

    # --- panels --------------------------------------------------------------------------------
    def _panels(self) -> dict[str, Widget]:
        out = self._panel_widgets
        if out is None:
            out = {"prompt": self.query_one(PromptPanel), "log": self.query_one("#log")}
            if self.show_chat:
                out["chat"] = self.query_one("#chat-lines")
            out["hand"] = self.query_one("#hand")
            self._panel_widgets = out
        return out

    def _prompt(self) -> PromptPanel:
        """The prompt, found once (the footer asks for it on every view; a query each time cost more)."""
        prompt = self._prompt_panel
        if prompt is None:
            prompt = self._prompt_panel = self.query_one(PromptPanel)
        return prompt

    def _log_view(self, name: str) -> LogView:
        """The panel that counts its lines back from the end: the log ("log") or the chat's lines ("chat")."""
        return self.query_one("#log" if name == "log" else "#chat-lines", LogView)

    def setup_keys(self) -> None:
        """At mount: the panels Tab reaches take the focus; the prompt has it first."""
        for name, w in self._panels().items():
            if name != "prompt":
                w.can_focus = True
        self.set_focus(self.query_one(PromptPanel))
        self.update_keys()

    def focused_panel(self) -> str:
        f = self.focused
        if f is None:
            return "prompt"
        seen = self._focus_seen  # the footer asks on every view: the focus seldom moves
        if seen is not None and seen[0] is f:
            return seen[1]
        name = self._panel_of(f)
        self._focus_seen = (f, name)
        return name

    def _panel_of(self, f: Widget) -> str:
        if f.id == "chat-input":
            return "chat-input"
        for name, w in self._panels().items():
            if w is f:
                return name
        return "prompt"

    def _focus(self, name: str) -> None:
        """Now, not after the keys already received: each of them goes where the focus is by then."""
        if name in ("log", "chat", "hand") and self.compact:
            self._set_lower(name)
        self.set_focus(self._panels()[name])

    def action_focus_panel(self, step: int) -> None:
        panels = [p for p in RING if p in self._panels()]
        here = self.focused_panel()
        here = "chat" if here == "chat-input" else here
        i = panels.index(here) if here in panels else 0
        self._lower_before_chat = None
        self._focus(panels[(i + step) % len(panels)])

    # --- keys ----------------------------------------------------------------------------------
    # A key's changed lines in one write (ui/compat/direct_paint.py): the prompt's, and the footer's
    # when the keys that work changed (a menu opened or left), not a frame of their own later
    # (`PromptPanel.Changed` then finds the footer made).
    @painted
    def action_digit(self, digit: str) -> None:
        prompt = self._prompt()
        if prompt.press_key(digit):
            self._footer_after(prompt)

    @painted
    def action_end_turn(self) -> None:
        prompt = self._prompt()
        if prompt.end_turn():
            self.set_focus(prompt)
            self._footer_after(prompt)

    @painted
    def action_back(self) -> None:
        here = self.focused_panel()
        prompt = self._prompt()
        if here not in ("prompt", "chat-input"):
            self.set_focus(prompt)
        elif prompt.back():
            self._footer_after(prompt)

    def _footer_after(self, prompt: PromptPanel) -> None:
        """The footer after a key the prompt took; not while a command sent waits for its answer
        (the view it brings updates the footer, as a sent command alone never did)."""
        if not prompt.sent:
            self.update_keys()

    @painted
    def action_scroll_panel(self, step: int) -> None:
        here = self.focused_panel()
        if here == "hand":
            self.query_one("#hand", HandPanel).scroll_rows(step)
        elif here in ("log", "chat"):
            self._log_view(here).scroll_rows(-step)  # a log counts lines back from the end

    @painted
    def action_page_panel(self, step: int) -> None:
        here = self.focused_panel()
        if here == "hand":
            hand = self.query_one("#hand", HandPanel)
            hand.scroll_rows(step * max(hand.content_size.height - 1, 1))
        else:  # the log from the prompt too
            self._log_view("chat" if here == "chat" else "log").page(-step)

    @painted
    def action_panel_end(self, step: int) -> None:
        here = self.focused_panel()
        if here == "hand":
            self.query_one("#hand", HandPanel).scroll_rows(step * 10_000)
        elif step > 0:
            self._log_view("chat" if here == "chat" else "log").to_end()
        elif here in ("log", "chat"):
            self._log_view(here).scroll_rows(10_000)

    # --- the chat --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        typing = action in ("chat", "chat_send", "chat_leave") and self.focused_panel() == "chat-input"
        if action == "chat":
            return self.show_chat and not typing  # in the chat, c is a letter
        if action in ("chat_send", "chat_leave"):
            return typing
        return True

    async def _settle(self, widget: Widget) -> None:
        """Let `widget` handle the keys already routed to it (a priority binding acts ahead of them)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def settled() -> None:
            if not done.done():
                done.set_result(None)

        widget.call_later(settled)
        try:
            await asyncio.wait_for(done, 1.0)
        except TimeoutError:  # pragma: no cover - a widget that stopped handling messages
            pass

    async def action_chat_send(self) -> None:
        await self._settle(self.query_one("#chat-input"))
        self.query_one(ChatPanel).send()
        self.leave_chat()

    async def action_chat_leave(self) -> None:
        await self._settle(self.query_one("#chat-input"))
        self.leave_chat()

    def action_chat(self) -> None:
        if not self.show_chat:
            return
        if self.compact and self.lower != "chat":
            self._lower_before_chat = self.lower
            self._set_lower("chat")
        self.set_focus(self.query_one("#chat-input"))  # at once: the next key of the same packet is typed

    def leave_chat(self) -> None:
        """Back to the game from the chat: the prompt has the focus, the panel shown before comes back."""
        if self._lower_before_chat is not None and self.compact:
            self._set_lower(self._lower_before_chat)
        self._lower_before_chat = None
        self.set_focus(self.query_one(PromptPanel))

    @on(ChatPanel.Closed)
    def _chat_closed(self, event: ChatPanel.Closed) -> None:
        event.stop()
        if self.focused_panel() == "chat-input":
            self.leave_chat()

    # --- the footer ------------------------------------------------------------------------------
    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.update_keys()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.update_keys()

    @on(PromptPanel.Changed)
    @painted  # (the prompt's own keys, Enter and the arrows, and clicks: the footer painted directly)
    def _prompt_changed(self, event: PromptPanel.Changed) -> None:
        event.stop()
        # A menu's change comes after the keys that arrived with it: one of them may have sent a
        # command since, and the footer then waits for the answer.
        self._footer_after(self._prompt())

    def update_keys(self) -> None:
        """The footer: the keys that work in the focused panel, most useful first."""
        bar = self._key_bar
        if bar is None:
            if not self.is_attached or not self.query(KeyBar) or not self.query(PromptPanel):
                return  # not composed yet
            bar = self._key_bar = self.query_one(KeyBar)
        here = self.focused_panel()
        shown = (here, self._prompt().footer_state, self.cat.key)
        if shown == self._keys_shown:
            return
        self._keys_shown = shown
        self.set_class(here != "prompt", "-away")
        bar.show_keys(self.keys_now())

    def keys_now(self) -> list[tuple[str, str]]:
        cat = self.cat
        k = lambda name: cat.t(f"keys.{name}")
        here = self.focused_panel()
        if here == "chat-input":
            return [("⏎", k("send")), ("Esc", k("back_to_game"))]
        prompt = self._prompt()
        menu = None if prompt.sent else prompt.menu  # what the player chooses from (nothing once a choice is sent)
        out: list[tuple[str, str]] = []
        if here in ("hand", "log", "chat"):
            out += [("↑↓ PgUp PgDn", k("scroll")), ("Esc", k("back_to_game"))]
            if here == "chat":
                out.insert(0, (CHAT_KEY, k("write")))
        if menu is not None and menu.entries:
            if prompt.confirming:
                out += [("⏎", k("confirm")), ("Esc", k("back"))]
            else:
                if any(e.key and e.key in DIGITS for e in menu.entries):
                    out.append(("1-9", k("rank" if prompt.ranked else "choose")))
                if here == "prompt":
                    out.append(("↑↓ ⏎", ""))
                if prompt.can_end_turn:
                    out.append((END_TURN, k("end_turn")))
                if prompt.depth > 1 and here == "prompt":
                    out.append(("Esc", k("back")))
        out.append(("Tab", k("panels")))
        if self.show_chat and here != "chat":
            out.append((CHAT_KEY, k("chat")))
        out += [("F1", k("help")), ("^Q", k("menu" if hasattr(self.app, "action_menu") else "quit"))]
        out.append(("F2", k("language")))
        return out
