"""Hostile use of every whole-turn command (cogs.turn): another faction, an outsider, an
ex-moderator, junk and oversized input, the wrong phase, twice. Each refusal is private,
short, cites the rule where the engine refused, changes nothing and posts nothing; and
autocomplete offers nothing to those who have no such choice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import simcord
from simcord.backend.errors import OptionError

from rules.factions import Faction
from rules.storm.model import StormTurn
from tests.cogs.conftest import Table, is_ephemeral, refusals, text_of
from tests.cogs.turn_helpers import (
    WORM,
    done,
    public_messages,
    set_up_by_commands,
    start_at,
    traitors_of,
    whole_table,
)
from tests.rules.game_helpers import game_at

F = Faction
LONG = "Arrakeen" + "x" * 1952
Options = dict[str, Any]


async def _nothing(t: Table) -> None:
    return None


async def _fremen_placed(t: Table) -> None:
    await done(t, F.FREMEN, "fremen place", sietch_tabr=4, false_wall_south=3, false_wall_west=3)


async def _storm_cards(t: Table) -> None:
    held = {"cards": ("Weather Control", "Family Atomics")}
    await start_at(
        t,
        game_at(
            "storm",
            turn=3,
            storm=7,
            dialers=(F.EMPEROR, F.FREMEN),
            factions={"harkonnen": held},
            board=[("harkonnen", "Imperial Basin", 10, 2)],
        ),
    )
    await done(t, F.EMPEROR, "dial", value=1)
    await done(t, F.FREMEN, "dial", value=1)


async def _fremen_losses(t: Table) -> None:
    await start_at(
        t,
        game_at(
            "storm",
            turn=2,
            storm=2,
            advanced=True,
            storm_turn=StormTurn(next=1),
            board=[("fremen", "Cielago East", 3, 3)],
            special=[("fremen", "Cielago East", 3, 2)],
        ),
    )


async def _worm(t: Table) -> None:
    await start_at(
        t,
        game_at(
            "spice_blow",
            advanced=True,
            storm=10,
            board=[("harkonnen", "Imperial Basin", 10, 2), ("fremen", "Imperial Basin", 9, 2)],
            spice_deck=(WORM, WORM, "Red Chasm", "South Mesa"),
            spice_discard=("Old Gap",),
        ),
    )


async def _ride(t: Table) -> None:
    await _worm(t)
    await done(t, F.FREMEN, "fremen worm", territory="Imperial Basin")
    for faction in t.state().waiting_on():
        await done(t, faction, "pass")


def _nexus(alliances: list[list[str]]) -> Callable[[Table], Awaitable[None]]:
    async def prepare(t: Table) -> None:
        deck = {"spice_deck": (WORM, "Red Chasm"), "spice_discard": ("Old Gap",)}
        await start_at(t, game_at("spice_blow", alliances=alliances, **deck))
        await done(t, F.HARKONNEN, "pass")  # done with the Nexus: no longer to be asked

    return prepare


async def _charity(t: Table) -> None:
    await start_at(t, game_at("choam_charity", factions={"atreides": {"spice": 0}}))


def _bidding(**fields: Any) -> Callable[[Table], Awaitable[None]]:
    async def prepare(t: Table) -> None:
        # no card to sell; the game then waits in the Revival phase (the Bene Gesserit choose)
        factions = {"bene_gesserit": {"tanks": 5}, **fields.get("factions", {})}
        await start_at(t, game_at("bidding", **{**fields, "factions": factions}))

    return prepare


def _dialer(t: Table) -> Faction:
    return t.state().waiting_on()[0]


@dataclass
class Case:
    command: str
    kind: str  # the engine's action name
    owner: Callable[[Table], Faction]
    options: Callable[[Table], Options]
    prepare: Callable[[Table], Awaitable[None]] = _nothing
    junk: Callable[[Table], list[Options]] = field(default=lambda t: [])
    repeat_refused: bool = True
    plain: tuple[str, ...] = ()  # options without autocomplete


def _own(faction: Faction) -> Callable[[Table], Faction]:
    return lambda t: faction


CASES = [
    Case(
        "traitor keep",
        "keep_traitor",
        _own(F.ATREIDES),
        lambda t: {"leader": traitors_of(t, F.ATREIDES).traitors_offered[0]},
        junk=lambda t: [
            {"leader": "Xyzzy"},
            {"leader": LONG},
            {"leader": traitors_of(t, F.EMPEROR).traitors_offered[0]},  # another's
        ],
    ),
    Case(
        "predict",
        "predict",
        _own(F.BENE_GESSERIT),
        lambda t: {"winner": "atreides", "turn": 5},
        junk=lambda t: [
            {"winner": "bene_gesserit", "turn": 5},
            {"winner": LONG, "turn": 5},
            {"winner": "atreides", "turn": 15},
        ],
    ),
    Case(
        "fremen place",
        "place_fremen",
        _own(F.FREMEN),
        lambda t: {"sietch_tabr": 4, "false_wall_south": 3, "false_wall_west": 3},
        junk=lambda t: [
            {"sietch_tabr": 4, "false_wall_south": 4, "false_wall_west": 4},
            {"sietch_tabr": 0, "false_wall_south": 0, "false_wall_west": 0},
        ],
    ),
    Case(
        "place-advisor",
        "place_advisor",
        _own(F.BENE_GESSERIT),
        lambda t: {"to": "Arrakeen"},
        _fremen_placed,
        junk=lambda t: [{"to": LONG}, {"to": "Arrakeen", "sector": 3}, {"to": "x" * 90}],
    ),
    Case("dial", "dial", _dialer, lambda t: {"value": 5}, set_up_by_commands),
    Case(
        "weather-control",
        "weather_control",
        _own(F.HARKONNEN),
        lambda t: {"sectors": 3},
        _storm_cards,
    ),
    Case("family-atomics", "family_atomics", _own(F.HARKONNEN), lambda t: {}, _storm_cards),
    Case(
        "fremen storm-losses",
        "fremen_storm_losses",
        _own(F.FREMEN),
        lambda t: {"territory": "Cielago East", "sector": 3, "special": 1},
        _fremen_losses,
        junk=lambda t: [
            {"territory": LONG, "sector": 3, "special": 1},
            {"territory": "Cielago East", "sector": 3, "special": 3},
            {"territory": "South Mesa", "sector": 3, "special": 0},
        ],
    ),
    Case(
        "fremen worm",
        "place_worm",
        _own(F.FREMEN),
        lambda t: {"territory": "Imperial Basin"},
        _worm,
        junk=lambda t: [{"territory": "Carthag"}, {"territory": LONG}],
    ),
    Case(
        "fremen ride",
        "ride_worm",
        _own(F.FREMEN),
        lambda t: {"to": "Red Chasm", "sector": 6},
        _ride,
        junk=lambda t: [{"to": LONG}, {"to": "Red Chasm", "sector": 2}],
    ),
    Case(
        "ally",
        "ally",
        _own(F.ATREIDES),
        lambda t: {"with": "emperor"},
        _nexus([]),
        junk=lambda t: [{"with": "atreides"}, {"with": LONG}, {"with": "harkonnen"}],
        repeat_refused=False,  # asking again changes nothing (the offer stands)
    ),
    Case(
        "ally-break",
        "break_alliance",
        _own(F.ATREIDES),
        lambda t: {},
        _nexus([["atreides", "emperor"]]),
    ),
    Case("charity", "claim_charity", _own(F.ATREIDES), lambda t: {}, _charity),
    Case(
        "bribe",
        "bribe",
        _own(F.ATREIDES),
        lambda t: {"to": "harkonnen", "amount": 10},
        _bidding(factions={f: {"spice": 0} for f in ("emperor", "fremen", "bene_gesserit")}),
        junk=lambda t: [
            {"to": "atreides", "amount": 1},
            {"to": LONG, "amount": 1},
            {"to": "harkonnen", "amount": 11},
        ],
        plain=("amount",),
    ),
    Case(
        "truthtrance ask",
        "truthtrance",
        _own(F.ATREIDES),
        lambda t: {"target": "harkonnen", "question": "Do you hold a Lasgun?"},
        _bidding(factions={"atreides": {"cards": ("Truthtrance",)}}),
        junk=lambda t: [
            {"target": "atreides", "question": "Me?"},
            {"target": LONG, "question": "Who?"},
            {"target": "harkonnen", "question": " "},
            {"target": "harkonnen", "question": LONG},
        ],
        plain=("question",),
    ),
    Case(
        "fremen karama-worm",
        "karama_worm",
        _own(F.FREMEN),
        lambda t: {"territory": "The Great Flat"},
        _bidding(advanced=True, factions={"fremen": {"cards": ("Karama",)}}),
        junk=lambda t: [{"territory": "Carthag"}, {"territory": LONG}],
    ),
    Case(
        "fremen ally-worm",
        "fremen_ally_worm",
        _own(F.FREMEN),
        lambda t: {"protect": False},
        _bidding(alliances=[["fremen", "atreides"]]),
        repeat_refused=False,  # saying it again changes nothing
        plain=("protect",),
    ),
]


def refused(result: simcord.InteractionResult, *, rule: bool) -> str:
    text = text_of(result)
    assert is_ephemeral(result) and text.startswith("Refused: "), text
    assert len(text) <= 2000 and "x" * 100 not in text, text
    if rule:
        assert "(rule " in text, text
    return text


@pytest.mark.parametrize("case", CASES, ids=[c.command for c in CASES])
async def test_hostile_use_changes_nothing(simcord_env: simcord.Env, case: Case) -> None:
    t = await whole_table(simcord_env, moderator_role="Mentats")
    await case.prepare(t)
    owner, options = case.owner(t), case.options(t)
    other = next(
        f for f in F if f is not owner and case.kind not in t.state().legal_actions(f).kinds()
    )
    before, seen = t.state().to_dict(), public_messages(t)
    # another faction: as itself (not its choice), then naming the owner
    refused(await t.players[other].slash(t.table, case.command, **options), rule=True)
    named = {**options, "faction": owner.value}
    text = refused(await t.players[other].slash(t.table, case.command, **named), rule=False)
    assert f"{owner.label} seat" in text
    # an outsider, and a moderator whose role was taken away
    assert "no seat" in refused(
        await t.outsider.slash(t.table, case.command, **options), rule=False
    )
    holder = t.role_holder
    assert holder is not None and t.role is not None
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    refused(await holder.slash(t.table, case.command, **named), rule=False)
    # junk and oversized input
    for junk in case.junk(t):
        refused(await t.players[owner].slash(t.table, case.command, **junk), rule=True)
    # autocomplete: nothing for those who have no such choice
    for who in (t.players[other], t.outsider, holder):
        for option in (o for o in options if o not in case.plain):
            assert await who.autocomplete(t.table, case.command, option, "", **named) == []
    assert t.state().to_dict() == before and public_messages(t) == seen
    # accepted once, and not again
    await done(t, owner, case.command, **options)
    after, seen = t.state().to_dict(), public_messages(t)
    again = await t.players[owner].slash(t.table, case.command, **options)
    if case.repeat_refused:
        refused(again, rule=True)
        assert public_messages(t) == seen
    assert t.state().to_dict() == after
    refusals(simcord_env)


WRONG_AT_SET_UP: list[tuple[Faction, str, Options]] = [
    (F.HARKONNEN, "dial", {"value": 3}),
    (F.HARKONNEN, "weather-control", {"sectors": 3}),
    (F.HARKONNEN, "family-atomics", {}),
    (F.FREMEN, "fremen storm-losses", {"territory": "Sietch Tabr", "sector": 13, "special": 1}),
    (F.FREMEN, "fremen worm", {"territory": "The Great Flat"}),
    (F.FREMEN, "fremen ride", {"to": "The Great Flat"}),
    (F.ATREIDES, "ally", {"with": "emperor"}),
    (F.ATREIDES, "ally-break", {}),
    (F.ATREIDES, "charity", {}),
    (F.ATREIDES, "bribe", {"to": "harkonnen", "amount": 1}),  # not before the first storm
    (F.FREMEN, "fremen karama-worm", {"territory": "The Great Flat"}),
]
WRONG_IN_THE_STORM: list[tuple[Faction, str, Options]] = [
    (F.ATREIDES, "traitor keep", {"leader": "Duncan Idaho"}),
    (F.BENE_GESSERIT, "predict", {"winner": "atreides", "turn": 2}),
    (F.FREMEN, "fremen place", {"sietch_tabr": 10, "false_wall_south": 0, "false_wall_west": 0}),
    (F.BENE_GESSERIT, "place-advisor", {"to": "Arrakeen"}),
]


async def test_every_command_in_the_wrong_phase_is_refused_citing_the_rule(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    for wrong in (WRONG_AT_SET_UP, WRONG_IN_THE_STORM):
        if wrong is WRONG_IN_THE_STORM:
            await set_up_by_commands(t)
        before, seen = t.state().to_dict(), public_messages(t)
        for faction, command, options in wrong:
            result = await t.players[faction].slash(t.table, command, **options)
            refused(result, rule=True)
        assert t.state().to_dict() == before and public_messages(t) == seen
    refusals(simcord_env)


async def test_out_of_range_numbers_never_reach_the_bot(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    await set_up_by_commands(t)
    dialer = t.state().waiting_on()[0]
    for command, options in (
        ("dial", {"value": 99}),
        ("dial", {"value": -1}),
        ("weather-control", {"sectors": 11}),
        ("fremen place", {"sietch_tabr": 21, "false_wall_south": 0, "false_wall_west": 0}),
        ("predict", {"winner": "atreides", "turn": 0}),
    ):
        with pytest.raises(OptionError):
            await t.players[dialer].slash(t.table, command, **options)
    assert t.state().waiting_on()[0] is dialer


async def test_a_pass_naming_a_step_outside_shipment_and_movement_is_refused(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, game_at("choam_charity", factions={"atreides": {"spice": 0}}))
    before, seen = t.state().to_dict(), public_messages(t)
    for step in ("shipment", "movement"):
        result = await t.players[F.ATREIDES].slash(t.table, "pass", step=step)
        text = refused(result, rule=False)
        assert f"no {step} step in the CHOAM charity phase" in text
    assert t.state().to_dict() == before and public_messages(t) == seen
    assert await done(t, F.ATREIDES, "pass") == "Done: you do not claim CHOAM Charity."
    refusals(simcord_env)
