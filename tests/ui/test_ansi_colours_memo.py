"""`line_styles.ansi_colours` (part of every frame key) keeps an app's ANSI theme and native-colour
switch: it must answer as Textual's properties do after each change of what they are read from."""

from __future__ import annotations

from dataclasses import replace

from rich.terminal_theme import DIMMED_MONOKAI, NIGHT_OWLISH
from textual.app import App

from ui.compat import line_styles


def _textuals(app: App) -> tuple[object, bool]:
    return app.ansi_theme, app.native_ansi_color


async def test_kept_ansi_colours_follow_every_change():
    app = App()
    async with app.run_test():
        assert line_styles.ansi_colours(app) == _textuals(app)
        # set without their watchers (a plain app's stylesheet is not what is tested here)
        steps = [
            lambda: app.set_reactive(App.ansi_color, True),
            lambda: app.set_reactive(App.ansi_color, None),
            lambda: app.set_reactive(App.theme, "textual-light"),
            lambda: app.set_reactive(App.ansi_theme_light, NIGHT_OWLISH),
            lambda: app.set_reactive(App.theme, "textual-dark"),
            lambda: app.set_reactive(App.ansi_theme_dark, DIMMED_MONOKAI),
            # the current theme registered again under its name, now light and with native colours
            lambda: app.register_theme(replace(app.current_theme, dark=False, ansi=True)),
            lambda: app.set_reactive(App.ansi_color, False),
        ]
        seen = {line_styles.ansi_colours(app)}
        for step in steps:
            step()
            ours = line_styles.ansi_colours(app)
            assert ours == _textuals(app)
            assert line_styles.ansi_colours(app) == ours  # kept: the same again
            seen.add(ours)
        assert len(seen) >= 4  # the steps did change what is read
