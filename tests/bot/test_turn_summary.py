"""The turn's summary for the table and the spectators (issue 26): who holds which
stronghold with what, who leads, the alliances, the spice on the board and the cards held;
public facts only."""

from __future__ import annotations

from dataclasses import replace

from bot.render.examples import public_view
from bot.words.ceremony import turn_summary
from rules.factions import Faction
from rules.view import SpiceView, StackView

F = Faction


def test_the_summary_tells_the_strongholds_the_leader_the_spice_and_the_cards() -> None:
    view = replace(
        public_view(
            (
                StackView(F.ATREIDES, "Arrakeen", 9, 5, 0, 0),
                StackView(F.HARKONNEN, "Carthag", 10, 8, 0, 0),
                StackView(F.EMPEROR, "Carthag", 10, 1, 2, 0),
                StackView(F.BENE_GESSERIT, "Tuek's Sietch", 4, 0, 0, 3),  # advisors hold nothing
                StackView(F.HARKONNEN, "Sietch Tabr", 13, 2, 0, 0),
                StackView(F.FREMEN, "The Great Flat", 14, 4, 0, 0),
            ),
            spice=(SpiceView("Habbanya Erg", 8, 8), SpiceView("The Great Flat", 14, 6)),
        ),
        alliances=(),
    )
    lines = turn_summary(3, view)
    assert lines[0] == "**Turn 3 is over.**"
    assert lines[1] == (
        "Strongholds: Arrakeen: Atreides (5 forces); Carthag: Harkonnen (8 forces) and "
        "Emperor (1 force and 2 Sardaukar); Sietch Tabr: Harkonnen (2 forces). Alliances: none."
    )
    assert lines[2] == "Most strongholds (2): Harkonnen."
    assert lines[3] == "Spice on the board: 14 spice in 2 territories."
    assert lines[4].startswith("Treachery cards held: ")
    allied = replace(view, alliances=((F.ATREIDES, F.EMPEROR),))
    assert turn_summary(3, allied)[2] == "Most strongholds (2 each): Atreides + Emperor; Harkonnen."


def test_an_empty_board_says_so() -> None:
    lines = turn_summary(1, replace(public_view(()), alliances=()), final=True)
    assert lines[:3] == [
        "**The game is over.**",
        "Strongholds: none held. Alliances: none.",
        "Spice on the board: none.",
    ]
