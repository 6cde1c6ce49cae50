"""Property tests: random positions and random action sequences keep the invariants.

Forces and spice are conserved and never negative, a refused action changes
nothing, undo restores exactly, to_dict round-trips, and the public view
never carries spice behind a shield or cards.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import Action, FactionAction, action_from_dict
from rules.board import standard_board
from rules.components import forces_total, starred_total
from rules.errors import RulesError
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.scenario import load_scenario

BOARD = standard_board()
TERRITORIES = sorted(BOARD.territories)
FACTIONS = [f.value for f in Faction]
STARRED = ("emperor", "fremen")
CARDS = ["Karama", "Hajr", "Baliset", "Lasgun"]
ACTION_NAMES = [
    "ship", "send", "cross_ship", "ship_to_reserves", "move", "pass", "hajr", "karama_cancel",
    "karama_prevent", "karama_stop_shipment", "advise", "flip", "guild_now", "guild_delay",
]  # fmt: skip


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    chosen = draw(st.lists(st.sampled_from(FACTIONS), min_size=2, max_size=6, unique=True))
    seats: list[str | None] = [None] * 6
    for faction, seat in zip(chosen, draw(st.permutations(range(6))), strict=False):
        seats[seat] = faction
    factions = {
        f: {
            "spice": draw(st.integers(0, 15)),
            "reserves": draw(st.integers(0, 12)),
            "special_reserves": draw(st.integers(0, 3)) if f in STARRED else 0,
            "cards": draw(st.lists(st.sampled_from(CARDS), max_size=3)),
        }
        for f in chosen
    }
    board = possible(draw(st.lists(stacks(chosen), max_size=10)), factions)
    allies = draw(st.booleans())
    data = {
        "format": "dune-scenario/1",
        "advanced": draw(st.booleans()),
        "variants": {
            "fremen_storm_movement": draw(st.sampled_from(["blocked", "free", "half_loss"])),
            "ornithopters_from_shipment": draw(st.booleans()),
        },
        "storm_sector": draw(st.integers(1, 18)),
        "seats": seats,
        "alliances": [chosen[:2]] if allies else [],
        "factions": factions,
        "board": board,
    }
    return load_scenario(data).initial_state()


@st.composite
def stacks(draw: st.DrawFn, chosen: list[str]) -> dict[str, Any]:
    faction = draw(st.sampled_from(chosen))
    territory = BOARD[draw(st.sampled_from(TERRITORIES))]
    sector = draw(st.sampled_from(territory.sectors)) if territory.sectors else None
    advisors = faction == "bene_gesserit" and draw(st.booleans())
    return {
        "faction": faction,
        "territory": territory.name,
        "sector": sector,
        "forces": draw(st.integers(1, 6)),
        "special": draw(st.integers(0, 1)) if faction in STARRED else 0,
        "advisors": advisors,
    }


def possible(board: list[dict[str, Any]], factions: dict[str, Any]) -> list[dict[str, Any]]:
    """The stacks that fit the faction's tokens, the Bene Gesserit one kind per territory."""
    used = {f: fields["reserves"] + fields["special_reserves"] for f, fields in factions.items()}
    starred = {f: fields["special_reserves"] for f, fields in factions.items()}
    advisors_in: dict[tuple[str, str], bool] = {}
    kept = []
    for entry in board:
        faction = entry["faction"]
        count = entry["forces"] + entry["special"]
        if used[faction] + count > forces_total(Faction(faction)):
            continue
        if starred[faction] + entry["special"] > starred_total(Faction(faction)):
            continue
        where = (faction, entry["territory"])
        if advisors_in.setdefault(where, entry["advisors"]) != entry["advisors"]:
            continue
        used[faction] += count
        starred[faction] += entry["special"]
        kept.append(entry)
    return kept


def random_action(draw: st.DrawFn, state: GameState) -> Action:
    """Mostly the engine's own legal actions (concrete answers as they are, ships and
    moves aimed with its destination queries), sometimes wild ones."""
    actors = [f.value for f in state.factions]
    to_act = state.to_act()
    responders = [f.value for p in state.open_prompts() for f in p.responders]
    pool = ([to_act.value] * 4 if to_act else []) + responders * 3 + actors
    faction = draw(st.sampled_from(pool))
    legal = state.legal_actions(Faction(faction))
    choices: list[Action | str] = [*legal, *legal.parametrised]
    if not choices or draw(st.integers(0, 4)) == 0:
        return wild_action(draw, state, faction)
    choice = draw(st.sampled_from(choices))
    if isinstance(choice, Action):
        assert choice in legal, f"{choice} is listed but refused"
        return choice
    data: dict[str, Any] = {
        "faction": faction,
        "action": choice,
        **wild_fields(draw, state, faction),
    }
    data.update(aimed_fields(draw, state, Faction(faction), choice))
    return action_from_dict(data)


def wild_action(draw: st.DrawFn, state: GameState, faction: str) -> Action:
    name = draw(st.sampled_from(ACTION_NAMES))
    data: dict[str, Any] = {"faction": faction, "action": name, **wild_fields(draw, state, faction)}
    if name == "flip":
        data["to"] = draw(st.sampled_from(["fighters", "advisors"]))
    return action_from_dict(data)


def wild_fields(draw: st.DrawFn, state: GameState, faction: str) -> dict[str, Any]:
    own = [t for (f, t, _), _ in state.stacks.items() if f.value == faction] or TERRITORIES
    territory = BOARD[draw(st.sampled_from(TERRITORIES))]
    advisors = faction == "bene_gesserit" and draw(st.booleans())
    return {
        "to": territory.name,
        "sector": draw(st.sampled_from([*territory.sectors, None])),
        "from": draw(st.sampled_from(own)),
        "forces": draw(st.integers(0, 5)),
        "special": draw(st.sampled_from([0, 0, 1])),
        "advisors": advisors,
        "take_up_arms": advisors and draw(st.booleans()),
        "karama": draw(st.sampled_from([False, False, True])),
        "territory": draw(st.sampled_from(own)),
        "ability": "ship_as_it_pleases_you",
        # the whole game's any-time actions (a bribe, the Emperor's gift, Truthtrance...)
        "amount": draw(st.integers(0, 4)),
        "target": draw(st.sampled_from(sorted(f.value for f in state.factions))),
        "question": "Will you ship this turn?",
        "protect": draw(st.booleans()),
    }


def aimed_fields(draw: st.DrawFn, state: GameState, faction: Faction, name: str) -> dict[str, Any]:
    """Fields for a shipment or move, aimed with the engine's destination queries."""
    if name in ("ship", "send"):
        found = (
            state.legal_send_destinations(faction)
            if name == "send"
            else state.legal_ship_destinations(faction)
        )
        if found:
            dest = draw(st.sampled_from(found))
            return {
                "to": dest.territory,
                "sector": draw(st.sampled_from(dest.sectors)),
                "forces": draw(st.integers(1, 3)),
                "special": 0,
            }
        return {}
    return aimed_move(draw, state, faction)


def aimed_move(draw: st.DrawFn, state: GameState, faction: Faction) -> dict[str, Any]:
    own = sorted(
        {(t, s) for (f, t, s), _ in state.stacks.items() if f is faction},
        key=lambda p: (p[0], p[1] or 0),
    )
    if not own:
        return {}
    territory, sector = draw(st.sampled_from(own))
    stack = state.stack(faction, territory, sector)
    advisors = bool(stack.advisors) and not stack.fighters
    try:
        found = state.legal_move_destinations(faction, territory, sector, advisors=advisors)
    except RulesError:
        found = []
    fields: dict[str, Any] = {
        "from": territory,
        "from_sector": sector,
        "forces": draw(st.integers(1, max(1, stack.forces + stack.advisors))),
        "special": 0,
        "advisors": advisors,
        "take_up_arms": advisors and draw(st.booleans()),
    }
    if found:
        dest = draw(st.sampled_from(found))
        fields.update(to=dest.territory, sector=draw(st.sampled_from(dest.sectors)))
    return fields


def totals(state: GameState) -> tuple[dict[Faction, int], int]:
    forces = {f: s.forces_off_board() for f, s in state.factions.items()}
    for (f, _, _), stack in state.stacks.items():
        forces[f] += stack.total
    spice = sum(s.spice for s in state.factions.values()) + state.spice_bank
    return forces, spice


def assert_sound(state: GameState) -> None:
    for s in state.factions.values():
        assert min(s.spice, s.reserves, s.special_reserves, s.tanks, s.special_tanks) >= 0
    for stack in state.stacks.values():
        assert min(stack.forces, stack.special, stack.advisors) >= 0 and stack.total > 0
    public = json.dumps(state.public_view().to_dict())
    assert '"cards"' not in public and '"spice":' not in public.replace('"spice": [', "")


def assert_dry_run_foretells(state: GameState, action: Action, events: list[Event]) -> None:
    """Undone, the action's dry run gives the same events and views, changing nothing."""
    assert isinstance(action, FactionAction)
    after = state.to_dict()
    public, private = state.public_view(), state.view_for(action.faction)
    state.undo()
    before = state.to_dict()
    trial = state.dry_run(action)
    assert state.to_dict() == before, f"the dry run of {action} changed the state"
    assert list(trial.events) == events
    assert trial.public == public and trial.private == private
    state.apply(action)
    assert state.to_dict() == after


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(positions(), st.data())
def test_random_sequences_keep_the_invariants(state: GameState, data: st.DataObject) -> None:
    start_forces, start_spice = totals(state)
    for _ in range(data.draw(st.integers(1, 40))):
        if state.is_complete:
            break
        action = random_action(data.draw, state)
        before = state.to_dict()
        legal = state.is_legal(action)
        assert state.to_dict() == before, f"is_legal({action}) changed the state"
        try:
            events = state.apply(action)
        except RulesError as error:
            assert error.rule and error.message
            assert state.to_dict() == before, f"refused {action} changed the state"
            assert not legal, f"{action} was said legal but refused: {error}"
            continue
        assert legal, f"{action} was said illegal but accepted"
        assert_dry_run_foretells(state, action, events)
        after = state.to_dict()
        state.undo()
        assert state.to_dict() == before, f"undo of {action} is not exact"
        state.apply(action)
        assert state.to_dict() == after, f"{action} is not deterministic"
        assert GameState.from_dict(after).to_dict() == after
        assert totals(state) == (start_forces, start_spice)
        assert_sound(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.data())
def test_closing_prompts_and_passing_always_ends_the_phase(
    state: GameState, data: st.DataObject
) -> None:
    for _ in range(40):
        if state.is_complete:
            break
        to_act = state.to_act()
        if state.open_prompts() and (to_act is None or data.draw(st.booleans())):
            state.close_all_prompts()
        else:
            assert to_act is not None
            state.apply(action_from_dict({"faction": to_act.value, "action": "pass"}))
    assert state.is_complete
    assert not state.open_prompts()
