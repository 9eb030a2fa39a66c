"""What a demanding new player found on the table screen and its neighbours (issue 17's polish pass):
each test failed before its fix."""

from __future__ import annotations

from ui_helpers import make_app

from ui.widgets.hand import HandPanel


def _bold_at(line, index: int) -> bool:
    """Whether the character at `index` of a rich Text is drawn bold (base style and spans)."""
    bold = bool(line.style and "bold" in str(line.style))
    for span in line.spans:
        if span.start <= index < span.end and "bold" in str(span.style):
            bold = True
    return bold


async def test_the_hands_head_line_is_bold_only_where_it_means_it():
    """The name (full form) or the gold (short forms) stands out; the rest of the line is plain."""
    for size, form in (((120, 40), "full"), ((80, 24), None)):
        app, _ = make_app(players=4, seed=3)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            panel = app.table.query_one(HandPanel)
            for f in [form] if form else ["list", "packed"]:
                head = panel.lines_for(60, f)[0]
                cards = head.plain.index("card")
                assert head.plain.strip(), head
                assert not _bold_at(head, cards), (f, head.plain, head.spans, head.style)
                assert _bold_at(head, len(head.plain) - len(head.plain.lstrip())), (f, head.plain)
