"""The live page's charts: strongholds and cards held per faction, turn by turn, from
public views only."""

from __future__ import annotations

from dataclasses import replace

from bot.web import charts
from rules.factions import Faction
from rules.view import PublicView, StackView
from tests.bot.whole_games import played


def views() -> list[PublicView]:
    return [step.view for step in played(0)]


def test_a_stronghold_is_held_by_forces_not_by_advisors() -> None:
    view = views()[-1]
    stacks = (
        StackView(Faction.ATREIDES, "Arrakeen", 9, 2, 0, 0),
        StackView(Faction.ATREIDES, "Carthag", 10, 0, 0, 0),
        StackView(Faction.BENE_GESSERIT, "Carthag", 10, 0, 0, 3),  # advisors only
        StackView(Faction.EMPEROR, "Tuek's Sietch", 4, 0, 1, 0),  # Sardaukar hold too
        StackView(Faction.FREMEN, "The Great Flat", 14, 5, 0, 0),  # no stronghold
    )
    held = charts.strongholds_held(replace(view, stacks=stacks))
    assert held[Faction.ATREIDES] == 1 and held[Faction.EMPEROR] == 1
    assert held[Faction.BENE_GESSERIT] == 0 and held[Faction.FREMEN] == 0


def test_one_point_per_turn_at_its_end() -> None:
    game = views()
    drawn = charts.charts(game)
    turns = sorted({v.game.turn for v in game})
    assert [c.title for c in drawn] == [
        "Strongholds held, per turn",
        "Treachery cards held, per turn",
    ]
    cards = dict(drawn[1].series)
    assert drawn[1].turns == tuple(turns)
    assert cards[Faction.HARKONNEN][-1] == game[-1].faction(Faction.HARKONNEN).cards_held
    svg = charts.svg(drawn[0])
    assert svg.startswith("<svg") and svg.count("<polyline") == len(drawn[0].series)


def test_no_chart_before_the_first_view() -> None:
    assert charts.charts([]) == []


def test_a_turn_ends_with_the_view_that_began_the_next_one() -> None:
    """One action may end a turn's last phases and begin the next turn: that action's view
    is the turn's end (as the turn's summary in words reads it), not the view before it."""
    game = views()
    last_turn = game[-1].game.turn
    ends = dict(charts.turn_ends(game))
    assert sorted(ends) == list(range(1, last_turn + 1)) and ends[last_turn] is game[-1]
    for turn in range(1, last_turn):
        first_of_next = next(v for v in game if v.game.turn == turn + 1)
        assert ends[turn] is first_of_next
