"""Issue 26: a map shows, and its heading names, the moment of the line it is placed
under: an action that ran on into later phases (the engine began them by itself) is drawn
from the position as its first phase ended, the game's end from the end; a turn's marks
are those of the turn shown."""

from __future__ import annotations

from dataclasses import replace

from bot.record.announce import draw_maps
from bot.render import StormPath, render_map
from bot.render.maps import MapMaker
from bot.render.turn_example import mid_turn, whole_turn_steps
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.storm.events import StormMoved
from rules.view import PublicView
from tests.rules.battle_helpers import duel, plan
from tests.rules.helpers import act

F = Faction


def resolved_in_one_action() -> tuple[list[Event], PublicView, PublicView, GameState]:
    """The only battle resolved by the last traitor answer, which ends the Battle phase
    and begins Spice Collection: (its events, the view now, the view at the phase's
    end, the game)."""
    game = duel(traitors={F.EMPEROR: ("Feyd Rautha",), F.HARKONNEN: ("Bashar",)})
    plan(game, "harkonnen", "Feyd Rautha", 3)
    plan(game, "emperor", "Bashar", 2)
    events: list[Event] = []
    for faction in list(game.whole.waiting):
        events = act(game, faction.value, "pass")
    return events, game.public_view(), game.public_view_at_phase_end(events), game


def test_the_view_as_the_first_phase_of_an_action_ended() -> None:
    events, now, ended, game = resolved_in_one_action()
    assert [e.kind for e in events][-2:] == ["battles_over", "phase_began"]
    assert now.game.phase == "spice_collection"
    assert ended.game.phase == "battle" and ended.game.turn == now.game.turn
    # the battle's losses are in it: the position as the phase ended, not before
    assert ended.stacks == now.stacks
    # other events than the last action's (or none of a phase's end): the view now
    assert game.public_view_at_phase_end(events[:-1]) == now
    assert game.public_view_at_phase_end([]) == now


async def test_a_map_is_drawn_from_the_view_it_is_shown() -> None:
    """A renderer is handed the view the map shows; the record's words follow the view now."""
    events, now, ended, _ = resolved_in_one_action()
    seen: list[PublicView] = []

    async def renderer(view: PublicView, told: list[Event]) -> bytes | None:
        seen.append(view)
        return b"png"

    draw = draw_maps(renderer, now, events, shown=ended)
    assert draw is not None and await draw() is not None
    assert [v.game.phase for v in seen] == ["battle"]
    draw = draw_maps(renderer, now, events)
    assert draw is not None and await draw() is not None
    assert seen[-1] == now


async def test_a_map_of_an_earlier_turns_end_keeps_that_turns_marks() -> None:
    """An action that ended a turn and ran on into the next one's storm: the map of the
    turn that ended marks that turn's storm path, not the next one's."""
    maker = MapMaker("action")
    for step in whole_turn_steps()[:-1]:  # the turn's storm and worms, as announced
        maker.turn_marks(step.view, list(step.events))
    view = mid_turn().view
    marks = maker.turn_marks(view, [])
    assert marks[0] == StormPath(2, 6, 4) and marks[1]
    game = view.game
    next_turn = replace(view, game=replace(game, turn=game.turn + 1, phase="spice_blow"))
    storm = [StormMoved(6, 8, 2, "1.01.02")]
    draw = draw_maps(maker, next_turn, storm, shown=view)
    assert draw is not None
    maps = await draw()
    assert maps is not None and maps.picture == render_map(
        view, storm_path=marks[0], worms=marks[1]
    )
    assert maker.turn_marks(next_turn, []) == (StormPath(6, 8, 2), ())  # the new turn's
