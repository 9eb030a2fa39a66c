"""The prompt's sentences that depend only on the view: whom we wait for, the title and hint of
the decision, and the words of a `Choice`'s answers. No Textual, no menus (`ui.prompt_model`)."""

from __future__ import annotations

from typing import Any

from .i18n import Catalogue


def who(view: Any, cat: Catalogue, seat: int, character: str | None = None) -> str:
    """A player's name, with the character they play when public: "Ana (Magistrate)"."""
    if not 0 <= seat < len(view.players):
        return cat.t("ui.nobody")
    p = view.players[seat]
    if character is None and p.revealed:
        character = p.revealed[-1]
    return cat.player_as(p.name, character) if character else p.name


def waiting_sentence(view: Any, cat: Catalogue) -> str:
    """The localized "waiting for Ana (Magistrate)" for the pending decision."""
    pd = view.pending
    if pd is None:
        return cat.t("ui.connecting")
    kind = pd.kind
    if kind == "game_over":
        return cat.t("waiting.game_over")
    if not 0 <= pd.seat < len(view.players):
        return cat.t("waiting.other", name="?")
    name = view.players[pd.seat].name
    character = view.turn.character if view.turn is not None and view.turn.seat == pd.seat else None
    if kind == "pick_character":
        key = "waiting.discard_character" if pd.mode == "discard" else "waiting.pick_character"
        return cat.t(key, name=name)
    if kind in ("play_turn", "keep_cards"):
        return cat.t(f"waiting.{kind}", name=who(view, cat, pd.seat, character))
    if kind == "choice":
        return cat.t("waiting.choice", name=who(view, cat, pd.seat, character), about=about_label(cat, pd.about))
    if kind == "select_cards":
        return cat.t("waiting.select_cards", name=who(view, cat, pd.seat, character), about=select_label(cat, pd.about))
    return cat.t("waiting.other", name=who(view, cat, pd.seat, character))


def about_label(cat: Catalogue, about: str | None) -> str:
    """The question of a `Choice`: `choice.<about>`, or the raw key."""
    return cat.t(f"choice.{about}", fallback=about or "?")


def select_label(cat: Catalogue, purpose: str | None) -> str:
    """What a `SelectCards` chooses: `select.<purpose>`, or the raw key."""
    return cat.t(f"select.{purpose}", fallback=purpose or "?")


def choice_texts(view: Any, cat: Catalogue, about: str | None, option: str) -> tuple[str, str, bool]:
    """(label, what it does, known) for the answer `option` to the `Choice` `about`.

    Keys, first found: `choice.<about>.<option>`; `choice.<about>.*:*` for "<seat>:<character>";
    `choice.<about>.*` for a seat ({player}) or any other value ({option}, translated);
    `choice.<option>` (yes/no ...). `_does` after the same key says what it does."""
    fields: dict[str, Any] = {"option": cat.value(option)}
    seat, _, rest = option.partition(":")
    generic = "*"
    if seat.isdigit():  # a seat, or "<seat>:<character>"
        s = int(seat)
        fields["option"] = fields["player"] = view.players[s].name if 0 <= s < len(view.players) else seat
        if rest:
            fields["character"] = cat.character(rest)
            generic = "*:*"
    key = cat.first(f"choice.{about}.{option}", f"choice.{about}.{generic}", f"choice.{option}")
    if key is None:
        label = cat.t("choice.fallback", option=fields["option"])
        return label, cat.t("cmd.choose_does", option=label), False
    label = cat.t(key, **fields)
    does = cat.t(key + "_does", **fields) if cat.has(key + "_does") else cat.t("cmd.choose_does", option=label)
    return label, does, True


def title_for(view: Any, cat: Catalogue) -> tuple[str, str]:
    """The prompt's title and hint for the decision this seat must make."""
    pd = view.pending
    kind = pd.kind if pd is not None else ""
    if kind == "pick_character":
        faceup = cat.names([cat.ranked(c) for c in view.faceup])
        if pd.mode == "discard":
            return cat.t("prompt.discard"), cat.t("prompt.discard_hint")
        return cat.t("prompt.pick"), cat.t("prompt.pick_hint", n=len(view.pool), faceup=faceup)
    if kind == "play_turn" and view.turn is not None:
        if view.turn.gather_only_reason:  # the Witch's victim, or a killed player with the Hospital
            return cat.t(
                f"gather_only.{view.turn.gather_only_reason}", character=cat.character(view.turn.character)
            ), ""
        key = "prompt.play_turn" if view.turn.gathered else "prompt.play_turn_gather"
        return cat.t(key, character=cat.character(view.turn.character)), ""
    if kind == "keep_cards":
        return cat.t("prompt.keep_cards", n=pd.min or 1), cat.t("prompt.keep_hint")
    if kind == "choice":
        return cat.t("prompt.choice", about=about_label(cat, pd.about)), ""
    if kind == "select_cards":
        hint = cat.t("prompt.select_hint", n=len(pd.selected), min=pd.min, max=pd.max)
        if cat.has(f"select.{pd.about}_hint"):
            hint = cat.t(f"select.{pd.about}_hint") + " " + hint
        return cat.t("prompt.select_cards", about=select_label(cat, pd.about)), hint
    if kind == "game_over":
        return cat.t("prompt.game_over"), cat.t("prompt.game_over_hint")
    return cat.t("ui.prompt"), ""
