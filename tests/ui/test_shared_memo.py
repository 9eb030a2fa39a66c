"""ui/widgets/shared_memo.py: the seats of one table share what they build, and only that.

Screens of different seats of one game get each view of their own seat: the
status bar's and the players panel's lines are then the same objects where the
seats see the same thing, and differ where they must (whose turn it is "you",
your own line underlined).
"""

from __future__ import annotations

from engine import GameConfig, new_game, view
from ui import CitadelsApp, UiOptions, ViewUpdate
from ui.i18n import Catalogue
from ui.prompt_model import waiting_sentence
from ui.widgets.players import PlayersPanel
from ui.widgets.prompt import PromptPanel
from ui.widgets.shared_memo import Memo
from ui.widgets.status_bar import StatusBar

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva"]


def test_a_memo_forgets_its_oldest_entries():
    memo = Memo(3)
    for i in range(5):
        assert memo.put(i, str(i)) == str(i)
    assert list(memo) == [2, 3, 4]


async def test_seats_of_one_table_share_lines_where_they_see_the_same():
    game, _ = new_game(GameConfig(players=NAMES, preset="first-game", seed=11))
    pending = game.pending.seat
    seats = [pending, (pending + 1) % 5, (pending + 2) % 5]
    status: dict[int, object] = {}
    titles: dict[int, str] = {}
    own: dict[int, list] = {}
    other: dict[int, list] = {}
    for seat in seats:
        app = CitadelsApp(None, UiOptions(name=NAMES[seat], show_chat=False))
        async with app.run_test(size=(120, 40)) as pilot:
            app.post_message(ViewUpdate(view(game, seat), []))
            await pilot.pause()
            await pilot.pause()
            status[seat] = app.table.query_one(StatusBar)._text
            titles[seat] = app.table.query_one(PromptPanel).menu.title
            panel = app.table.query_one(PlayersPanel)
            width = panel.content_size.width
            own[seat] = panel._lines(seat, width)
            third = next(s for s in range(5) if s not in seats)
            other[seat] = panel._lines(third, width)
    a, b, c = seats
    # the two seats waiting for the one to move see the same status line, made once
    assert status[b] is status[c]
    # who the game waits for is said once, as the prompt's title (the status bar's height no longer
    # changes with every decision)
    sentence = waiting_sentence(view(game, b), Catalogue("en"))
    assert titles[b] == titles[c] == sentence
    # the seat to move is not told to wait for itself
    assert sentence not in status[a].plain and titles[a] != sentence
    # a fourth player's line is the same for all three; each one's own line is its own
    assert other[a] is other[b] is other[c]
    assert own[b] is not own[c] and own[b][0].plain != own[c][0].plain
    assert any("underline" in str(span.style) for span in own[b][0].spans)


def test_wrapped_lines_are_shared_but_each_caller_gets_its_own_copies():
    from rich.console import Console
    from rich.text import Text

    from ui.widgets.text_panel import wrap

    console = Console(width=80, file=None)
    text = Text("1 Take 2 gold from the bank, or draw two cards and keep one", style="bold", end="")
    first = wrap(text, 20, console, indent=2)
    assert len(first) > 2 and all(line.cell_len <= 20 for line in first)
    for line in first:  # what the prompt does to the highlighted entry
        line.pad_right(20 - line.cell_len)
        line.stylize("reverse")
    second = wrap(text, 20, console, indent=2)
    assert [line.plain.rstrip() for line in second] == [line.plain.rstrip() for line in first]
    assert all("reverse" not in str(span.style) for line in second for span in line.spans)
    # same words, another style: not the same entry
    other = wrap(Text(text.plain, style="italic", end=""), 20, console, indent=2)
    assert other[0].style == "italic"
