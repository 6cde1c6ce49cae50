""" "Open the shields": once a game is over, what each faction kept behind its shield at a
moment (its spice, its hand, its traitors, the prediction, its dial and battle plan before
the reveal) and what it alone learned by that action. The server offers it only for a
finished game (:meth:`bot.web.timeline.Timelines.shields` refuses a running one)."""

from __future__ import annotations

from html import escape

from bot.web.page import words
from bot.web.sources import shield_rows
from bot.web.timeline import Shields
from bot.words.phase_words import (
    CARDS_ROW,
    DIAL_ROW,
    PREDICTION_ROW,
    SPICE_ROW,
    ShieldRow,
)
from rules.view import PrivateView


def _secrets(view: PrivateView) -> list[tuple[str, str]]:
    """The faction's rows, the phases' own among them, each at its place (a phase's words
    place theirs, :data:`bot.words.phase_words.ShieldRow`)."""
    rows: list[ShieldRow] = [
        (SPICE_ROW, "Spice", str(view.spice)),
        (CARDS_ROW, "Treachery cards", ", ".join(view.cards) or "none"),
    ]
    secrets = view.secrets
    if secrets.prediction is not None:
        faction, turn = secrets.prediction
        rows.append((PREDICTION_ROW, "Prediction", f"{faction.label} wins on turn {turn}"))
    if secrets.dial is not None:
        rows.append((DIAL_ROW, "Storm dial", str(secrets.dial)))
    rows += shield_rows(view)
    return [(name, value) for _, name, value in sorted(rows, key=lambda row: row[0])]


def section(shields: Shields, number: int) -> str:
    """The page's section of the open shields at moment ``number``."""
    learned = dict(shields.lines)
    rows = []
    for view in shields.views:
        cells = "".join(
            f"<div><strong>{escape(name)}:</strong> {escape(value)}</div>"
            for name, value in _secrets(view)
        )
        own = "".join(f"<div>{words(line)}</div>" for line in learned.get(view.faction, ()))
        rows.append(f"<tr><th>{escape(view.faction.label)}</th><td>{cells}{own}</td></tr>")
    return (
        f"<section class='behind'><h2>Behind the shields, after action {number}</h2>"
        f"<table class='shields-table'>{''.join(rows)}</table></section>"
    )
