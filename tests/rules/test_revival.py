"""The Revival Phase (1.05), run by the engine: worked examples of every rule and ability,
refusals that cite their rule and change nothing, the moderator's corrections."""

from __future__ import annotations

from typing import Any

import pytest

from rules.actions import Pass, PhaseDone, PlayGhola, action_from_dict, action_to_dict
from rules.defaults import default_action
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.revival.actions import KaramaRevive, PayAllyRevival, Revive
from rules.revival.model import revivals
from rules.revival.phase import ally_revival_options, revival_options
from rules.revival.prices import Price, revivable_leaders
from tests.rules.game_helpers import game_at, of_kind, spice_total, types
from tests.rules.helpers import act
from tests.rules.refusal import refused

F = Faction


def revival(**kwargs: Any) -> GameState:
    return game_at("revival", **kwargs)


def holding(state: GameState, faction: Faction) -> tuple[int, int, int, int, int]:
    own = state.factions[faction]
    return own.tanks, own.special_tanks, own.reserves, own.special_reserves, own.spice


# -- 1.05.00-1.05.01: everyone at once, free first, then 2 spice each ----------------


def test_everyone_at_once_and_nothing_to_decide_is_never_asked() -> None:
    """1.05.00, 1.05.01.01: the Harkonnen (2 in the tanks, 2 free) and the Guild (no
    spice for a second) are revived by themselves; the Atreides (5) and the Emperor (4)
    are asked together, in no turn order."""
    state = revival(
        factions={
            "harkonnen": {"tanks": 2},
            "spacing_guild": {"tanks": 4, "spice": 1},
            "atreides": {"tanks": 5},
            "emperor": {"tanks": 4},
        }
    )
    assert set(state.waiting_on()) == {F.SPACING_GUILD, F.ATREIDES, F.EMPEROR}
    assert state.whole.step == "revive"
    assert holding(state, F.HARKONNEN) == (0, 0, 12, 0, 10)
    assert revivals(state.whole).done == {F.HARKONNEN, F.FREMEN, F.BENE_GESSERIT}
    act(state, "spacing_guild", "pass")  # asked though it cannot pay: spice is secret
    assert holding(state, F.SPACING_GUILD) == (3, 0, 11, 0, 1)
    total = spice_total(state)
    event = of_kind(act(state, "emperor", "revive", forces=3), "revived")[0]
    assert (event["forces"], event["cost"], event["rule"]) == (3, 4, "1.05.01")
    assert holding(state, F.EMPEROR) == (1, 0, 13, 0, 6)
    assert state.waiting_on() == (F.ATREIDES,) and spice_total(state) == total
    events = act(state, "atreides", "pass")
    assert types(events)[:3] == ["passed", "revived", "phase_began"]
    assert holding(state, F.ATREIDES) == (3, 0, 12, 0, 10)
    assert state.game_phase is GamePhase.SHIPMENT_MOVEMENT


def test_the_whole_revival_names_the_free_ones_and_pays_the_bank() -> None:
    """1.05.01.02-1.05.01.03: 2 free, the third at 2 spice, to the bank."""
    state = revival(factions={"atreides": {"tanks": 5}, "fremen": {"tanks": 9}})
    bank = state.spice_bank
    act(state, "atreides", "revive", forces=3)
    assert state.spice_bank == bank + 2 and state.factions[F.ATREIDES].spice == 8
    assert F.FREMEN not in state.waiting_on()  # their 3 are all free: nothing to decide
    assert holding(state, F.FREMEN)[:3] == (6, 0, 13)


def test_a_faction_without_spice_for_more_is_asked_and_may_only_take_its_free_revival() -> None:
    """Whom the phase asks is a function of public facts (the tanks, the free revival,
    the leaders), never of spice: a faction that cannot pay is asked like one that can."""
    state = revival(factions={"atreides": {"tanks": 5, "spice": 1}, "emperor": {"tanks": 3}})
    assert set(state.waiting_on()) == {F.ATREIDES, F.EMPEROR}
    assert [a for a in state.legal_actions(F.ATREIDES) if not isinstance(a, Revive)] == [
        Pass(F.ATREIDES)
    ]
    assert {a for a in state.legal_actions(F.ATREIDES) if isinstance(a, Revive)} == {
        Revive(F.ATREIDES, 2)  # the free revival named: the same as a pass
    }
    act(state, "atreides", "pass")
    assert holding(state, F.ATREIDES)[:3] == (3, 0, 12)


@pytest.mark.parametrize(
    "factions",
    [
        {"atreides": {"tanks": 5, "spice": 0}},
        {"atreides": {"tanks": 5, "spice": 10}},
        {"atreides": {"tanks": 5}, "emperor": {"tanks": 4, "cards": ("Karama",), "spice": 0}},
        {"atreides": {"tanks": 5}, "emperor": {"tanks": 4, "cards": ("Kulon",), "spice": 0}},
    ],
)
def test_whom_revival_asks_never_tells_spice_or_a_karama(
    factions: dict[str, dict[str, Any]],
) -> None:
    """The issue's cases: "Waiting for Atreides" only when the Atreides could pay, or for the
    Emperor only when it held a Karama. Now the same factions are asked either way."""
    state = revival(advanced=True, factions=factions)
    expected = {F.ATREIDES} | ({F.EMPEROR} if "emperor" in factions else set())
    assert set(state.waiting_on()) == expected


@pytest.mark.parametrize("spice", [0, 1, 10])
def test_the_emperor_is_asked_for_its_allys_forces_whatever_it_holds(spice: int) -> None:
    state = revival(
        alliances=[["emperor", "atreides"]],
        factions={"atreides": {"tanks": 8}, "emperor": {"spice": spice}},
    )
    assert F.EMPEROR in state.waiting_on()
    assert bool(state_options(state)) is (spice >= 2)
    act(state, "emperor", "pass")
    assert F.EMPEROR not in state.waiting_on()


def test_sardaukar_count_one_and_one_a_turn() -> None:
    """2.03.11 (advanced): one Sardaukar a turn, counted as one force; the Emperor's free
    one goes to a regular force first, the Sardaukar then costs 2."""
    state = revival(advanced=True, factions={"emperor": {"tanks": 1, "special_tanks": 3}})
    refused(state, IllegalActionError, "2.03.11", "emperor", "revive", forces=1, special=2)
    event = of_kind(act(state, "emperor", "revive", forces=1, special=1), "revived")[0]
    assert (event["forces"], event["special"], event["cost"]) == (1, 1, 2)
    assert holding(state, F.EMPEROR)[:4] == (0, 2, 11, 1)


def test_in_the_basic_game_starred_forces_have_no_limit_of_their_own() -> None:
    state = revival(advanced=False, factions={"emperor": {"tanks": 0, "special_tanks": 3}})
    act(state, "emperor", "revive", forces=0, special=3)
    assert holding(state, F.EMPEROR) == (0, 0, 10, 3, 6)


def test_the_fremen_choose_a_fedaykin_among_their_free_three() -> None:
    """2.04.19: free 3, of them at most one Fedaykin; regular ones first by default."""
    state = revival(advanced=True, factions={"fremen": {"tanks": 5, "special_tanks": 2}})
    assert F.FREMEN in state.waiting_on()
    assert default_action(state, F.FREMEN) == Pass(F.FREMEN)
    event = of_kind(act(state, "fremen", "revive", forces=2, special=1), "revived")[0]
    assert (event["special"], event["cost"]) == (1, 0)
    assert holding(state, F.FREMEN)[:4] == (3, 1, 12, 1)


def test_a_starred_force_in_the_free_revival_alone() -> None:
    """A Fremen with only Fedaykin and one regular force: the free revival takes the
    regular one and one Fedaykin (1.05.01.01, 2.04.19)."""
    state = revival(advanced=True, factions={"fremen": {"tanks": 1, "special_tanks": 3}})
    assert F.FREMEN not in state.waiting_on()
    assert holding(state, F.FREMEN)[:4] == (0, 2, 11, 1)


# -- 1.05.03-1.05.04: leaders ---------------------------------------------------------


def test_a_leader_once_none_is_active_for_its_strength() -> None:
    """1.05.03, 1.05.03.01-02: no active leader left: one leader a turn, strength to the bank."""
    state = revival(
        leaders={F.ATREIDES: ()},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho", "Lady Jessica")},
    )
    assert state.waiting_on() == (F.ATREIDES,)
    bank = state.spice_bank
    event = of_kind(act(state, "atreides", "revive", forces=0, leader="lady jessica"), "revived")
    assert (event[0]["leader"], event[0]["cost"]) == ("Lady Jessica", 5)
    assert state.spice_bank == bank + 5
    assert state.whole.leaders[F.ATREIDES] == ("Lady Jessica",)
    assert state.whole.leaders_tanks[F.ATREIDES] == ("Duncan Idaho",)


def test_a_leader_once_every_one_has_died_even_with_some_alive() -> None:
    """1.05.03: every leader has died at least once (three came back)."""
    names = (
        "Thufir Hawat",
        "Lady Jessica",
        "Gurney Halleck",
        "Duncan Idaho",
        "Dr. Wellington Yueh",
    )
    state = revival(
        leaders={F.ATREIDES: names[:3]},
        leaders_tanks={F.ATREIDES: names[3:]},
        leader_deaths=dict.fromkeys(names, 1),
    )
    assert revivable_leaders(state, F.ATREIDES) == names[3:]
    act(state, "atreides", "revive", forces=0, leader="duncan idaho")
    assert state.factions[F.ATREIDES].spice == 8


def test_a_leader_is_not_revived_while_a_never_killed_one_lives() -> None:
    state = revival(
        leaders={F.ATREIDES: ("Thufir Hawat",)},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho",)},
        factions={"atreides": {"tanks": 5}},
    )
    assert revivable_leaders(state, F.ATREIDES) == ()
    refused(
        state, IllegalActionError, "1.05.03", "atreides", "revive", forces=2, leader="Duncan Idaho"
    )


def test_a_leader_killed_twice_lies_face_down_and_waits_for_the_others() -> None:
    """1.05.04: Duncan died twice; Lady Jessica (once) comes back first."""
    state = revival(
        leaders={F.ATREIDES: ()},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho", "Lady Jessica")},
        leader_deaths={"Duncan Idaho": 2, "Lady Jessica": 1},
    )
    assert revivable_leaders(state, F.ATREIDES) == ("Lady Jessica",)
    error = refused(
        state, IllegalActionError, "1.05.04", "atreides", "revive", forces=0, leader="duncan idaho"
    )
    assert "face down" in error.message
    act(state, "atreides", "revive", forces=0, leader="Lady Jessica")
    state = revival(
        leaders={F.ATREIDES: ("Lady Jessica",)},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho",)},
        leader_deaths=dict.fromkeys(
            ("Thufir Hawat", "Lady Jessica", "Gurney Halleck", "Dr. Wellington Yueh"), 2
        )
        | {"Duncan Idaho": 2},
    )
    assert revivable_leaders(state, F.ATREIDES) == ("Duncan Idaho",)  # the others are back


def test_a_living_kwisatz_haderach_is_not_revived() -> None:
    state = revival(
        leaders={F.ATREIDES: ()},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho",)},
        kwisatz_haderach_active=True,
        advanced=True,
    )
    refused(
        state,
        IllegalActionError,
        "1.05.03",
        "atreides",
        "revive",
        forces=0,
        leader="Kwisatz Haderach",
    )


ATREIDES_LEADERS = (
    "Thufir Hawat",
    "Lady Jessica",
    "Gurney Halleck",
    "Duncan Idaho",
    "Dr. Wellington Yueh",
)


def test_the_dead_kwisatz_haderach_comes_back_for_2_once_every_other_leader_died() -> None:
    """2.01.14 REAWAKEN, D12 (cost 2): the turn's one leader revival spent on it."""
    state = revival(
        leaders={F.ATREIDES: ATREIDES_LEADERS[:4]},
        leaders_tanks={F.ATREIDES: ATREIDES_LEADERS[4:]},
        leader_deaths=dict.fromkeys(ATREIDES_LEADERS, 1),
        kwisatz_haderach_active=True,
        kwisatz_haderach_dead=True,
        advanced=True,
    )
    assert revivable_leaders(state, F.ATREIDES) == ("Dr. Wellington Yueh", "Kwisatz Haderach")
    assert F.ATREIDES in state.waiting_on()
    spice, bank = state.factions[F.ATREIDES].spice, state.spice_bank
    event = of_kind(
        act(state, "atreides", "revive", forces=0, leader="kwisatz haderach"), "revived"
    )
    assert (event[0]["leader"], event[0]["cost"]) == ("Kwisatz Haderach", 2)
    assert state.factions[F.ATREIDES].spice == spice - 2 and state.spice_bank == bank + 2
    assert not state.whole.kwisatz_haderach_dead
    assert state.whole.leaders_tanks[F.ATREIDES] == ("Dr. Wellington Yueh",)  # one a turn


def test_the_dead_kwisatz_haderach_waits_while_a_leader_never_died() -> None:
    state = revival(
        leaders={F.ATREIDES: ATREIDES_LEADERS},
        leaders_tanks={F.ATREIDES: ()},
        leader_deaths=dict.fromkeys(ATREIDES_LEADERS[:4], 1),
        kwisatz_haderach_active=True,
        kwisatz_haderach_dead=True,
        advanced=True,
        factions={"atreides": {"tanks": 5}},  # a choice of forces keeps the phase open
    )
    assert revivable_leaders(state, F.ATREIDES) == ()
    refused(
        state,
        IllegalActionError,
        "2.01.14",
        "atreides",
        "revive",
        forces=2,
        leader="Kwisatz Haderach",
    )


# -- abilities ----------------------------------------------------------------------


def test_the_fremen_ally_revives_three_free() -> None:
    """2.04.11: implied by the alliance, as the worm protection is. All 3 of a turn are
    free: the Guild has nothing to decide."""
    state = revival(
        alliances=[["fremen", "spacing_guild"]],
        factions={"spacing_guild": {"tanks": 5}, "emperor": {"tanks": 5}},
    )
    events = state.start_events
    event = next(e.to_dict() for e in events if e.to_dict().get("faction") == "spacing_guild")
    assert (event["forces"], event["cost"], event["rule"]) == (3, 0, "2.04.11")
    assert state.waiting_on() == (F.EMPEROR,)
    event = of_kind(act(state, "emperor", "revive", forces=3), "revived")[0]
    assert (event["cost"], event["rule"]) == (4, "1.05.01")


def test_the_emperor_pays_for_up_to_three_beyond_the_atreides_three() -> None:
    """2.03.07: the Atreides revive 3 (2 free, 1 at their cost); the Emperor, asked for
    that alone, pays for 3 more: 6 in all, 6 spice from the Emperor to the bank."""
    state = revival(
        alliances=[["emperor", "atreides"]],
        factions={"atreides": {"tanks": 8}},
    )
    assert set(state.waiting_on()) == {F.ATREIDES, F.EMPEROR}
    assert F.EMPEROR in revivals(state.whole).done  # nothing of its own to decide
    total = spice_total(state)
    act(state, "atreides", "revive", forces=3)
    assert state.waiting_on() == (F.EMPEROR,)
    events = act(state, "emperor", "pay_ally_revival", forces=3)
    assert types(events)[:3] == ["spice_paid", "revived", "phase_began"]
    assert of_kind(events, "spice_paid")[0] == {
        "type": "spice_paid",
        "faction": "emperor",
        "amount": 6,
        "to": None,
    }
    revived = of_kind(events, "revived")[0]
    assert (revived["faction"], revived["forces"], revived["cost"], revived["rule"]) == (
        "atreides",
        3,
        0,
        "2.03.07",
    )
    assert state.factions[F.EMPEROR].spice == 4 and state.factions[F.ATREIDES].spice == 8
    assert holding(state, F.ATREIDES)[:3] == (2, 0, 16)
    assert spice_total(state) == total


def test_the_emperor_pays_first_and_a_fremen_ally_keeps_its_own_three() -> None:
    """2.03.07, 2.04.19 (advanced): the Emperor may pay before its ally answers, only
    for what lies beyond the ally's own 3; a Fedaykin counts 1 and one comes back a turn
    in all, whoever pays."""
    state = revival(
        advanced=True,
        alliances=[["emperor", "fremen"]],
        factions={"fremen": {"tanks": 5, "special_tanks": 2}},
    )
    assert set(state.waiting_on()) == {F.FREMEN, F.EMPEROR}
    options = dict(state_options(state))
    assert set(options) == {
        PayAllyRevival(F.EMPEROR, n, s) for s in (0, 1) for n in range(4 - s) if n + s
    }
    assert options[PayAllyRevival(F.EMPEROR, 2, 1)] == 6
    act(state, "emperor", "pay_ally_revival", forces=2, special=1)
    assert holding(state, F.FREMEN)[:2] == (3, 1)
    refused(state, IllegalActionError, "2.04.19", "fremen", "revive", forces=2, special=1)
    act(state, "fremen", "revive", forces=3)
    assert holding(state, F.FREMEN)[:2] == (0, 1)
    assert state.game_phase is not GamePhase.REVIVAL


def state_options(state: GameState) -> list[tuple[PayAllyRevival, int]]:
    return list(ally_revival_options(state, F.EMPEROR))


def test_the_emperor_pays_once_a_turn() -> None:
    state = revival(
        alliances=[["emperor", "atreides"]],
        factions={"atreides": {"tanks": 8}, "emperor": {"tanks": 5}},
    )
    act(state, "emperor", "pay_ally_revival", forces=1)
    assert F.EMPEROR in state.waiting_on()  # its own revival is still to decide
    assert not state_options(state)
    refused(state, IllegalActionError, "2.03.07", "emperor", "pay_ally_revival", forces=1)
    act(state, "emperor", "revive", forces=3)
    assert F.EMPEROR not in state.waiting_on()


def test_the_emperors_pass_declines_and_its_own_revival_keeps_it_asked() -> None:
    state = revival(
        alliances=[["emperor", "atreides"]],
        factions={"atreides": {"tanks": 8}, "emperor": {"tanks": 5}},
    )
    act(state, "emperor", "revive", forces=3)
    assert F.EMPEROR in state.waiting_on()  # the ally's forces are still to decide
    assert Pass(F.EMPEROR) in state.legal_actions(F.EMPEROR)
    refused(state, NotYourTurnError, "1.05.01", "emperor", "revive", forces=3)
    before = state.factions[F.EMPEROR].spice
    act(state, "emperor", "pass")
    assert F.EMPEROR not in state.waiting_on() and state.factions[F.EMPEROR].spice == before
    refused(state, IllegalActionError, "2.03.07", "emperor", "pay_ally_revival", forces=1)
    assert default_action(state, F.ATREIDES) == Pass(F.ATREIDES)


@pytest.mark.parametrize(
    ("alliances", "factions", "asked"),
    [
        ([["emperor", "atreides"]], {"atreides": {"tanks": 8}}, True),
        ([["emperor", "atreides"]], {"atreides": {"tanks": 3}}, False),  # its own 3 do
        ([["fremen", "atreides"]], {"atreides": {"tanks": 8}}, False),  # not allied
    ],
)
def test_the_emperor_is_asked_only_when_its_ally_has_forces_beyond_its_limit(
    alliances: list[list[str]], factions: dict[str, dict[str, int]], asked: bool
) -> None:
    state = revival(alliances=alliances, factions=factions)
    assert (F.EMPEROR in state.waiting_on()) is asked
    assert bool(state_options(state)) is asked


PAY = "pay_ally_revival"


@pytest.mark.parametrize(
    ("faction", "action", "fields", "factions", "error", "rule"),
    [
        ("atreides", "revive", {"forces": 4}, {}, IllegalActionError, "1.05.01"),  # 3 a turn
        ("emperor", PAY, {"forces": 4}, {}, IllegalActionError, "2.03.07"),  # at most 3
        ("emperor", PAY, {"forces": 0}, {}, IllegalActionError, "2.03.07"),
        ("emperor", PAY, {"forces": -2}, {}, InvalidActionError, "2.03.07"),
        ("emperor", PAY, {"forces": 10**9}, {}, InvalidActionError, "2.03.07"),
        ("emperor", PAY, {"forces": 1, "special": 1}, {}, IllegalActionError, "2.03.07"),
        ("atreides", PAY, {"forces": 1}, {}, IllegalActionError, "2.03.07"),  # the ally
        ("harkonnen", PAY, {"forces": 1}, {}, IllegalActionError, "2.03.07"),
        ("emperor", PAY, {"forces": 3}, {"emperor": {"spice": 5}}, IllegalActionError, "2.03.07"),
    ],
)
def test_the_emperors_payment_refusals(
    faction: str,
    action: str,
    fields: dict[str, int],
    factions: dict[str, dict[str, int]],
    error: type[IllegalActionError],
    rule: str,
) -> None:
    state = revival(
        alliances=[["emperor", "atreides"]],
        factions={
            "atreides": {"tanks": 8},
            "harkonnen": {"tanks": 8},
            "emperor": {"tanks": 8},
            **factions,
        },
    )
    refused(state, error, rule, faction, action, **fields)


def test_the_emperor_not_allied_pays_for_nobody() -> None:
    state = revival(
        alliances=[["fremen", "atreides"]],
        factions={"atreides": {"tanks": 8}, "emperor": {"tanks": 8}},
    )
    assert F.EMPEROR in state.waiting_on()  # for its own revival
    error = refused(state, IllegalActionError, "2.03.07", "emperor", PAY, forces=1)
    assert "only when allied" in error.message


def test_a_scenario_runs_the_emperors_payment() -> None:
    """The scenario format names the action ``pay_ally_revival``."""
    state = revival(alliances=[["emperor", "atreides"]], factions={"atreides": {"tanks": 8}})
    action = action_from_dict({"action": "pay_ally_revival", "faction": "emperor", "forces": 2})
    assert action == PayAllyRevival(F.EMPEROR, 2)
    assert action_to_dict(action) == {
        "action": "pay_ally_revival",
        "faction": "emperor",
        "forces": 2,
        "special": 0,
    }
    state.apply(action)
    assert holding(state, F.ATREIDES)[:3] == (6, 0, 12)


def test_the_emperors_karama_revives_three_free_once_a_game() -> None:
    """1.14.02 (advanced): up to 3 forces or 1 leader, free, besides the normal revival;
    the Karama is discarded; once a game; one Sardaukar a turn all the same (2.03.11)."""
    state = revival(
        advanced=True,
        factions={"emperor": {"tanks": 6, "special_tanks": 2, "cards": ("Karama", "Lasgun")}},
    )
    assert F.EMPEROR in state.waiting_on()
    assert KaramaRevive(F.EMPEROR, 2, 1) in state.legal_actions(F.EMPEROR)
    refused(state, InvalidActionError, "1.14.02", "emperor", "karama_revive", forces=4)
    refused(state, IllegalActionError, "2.03.11", "emperor", "karama_revive", forces=0, special=2)
    events = act(state, "emperor", "karama_revive", forces=2, special=1)
    assert types(events) == ["karama_power", "revived"]
    assert of_kind(events, "revived")[0]["rule"] == "1.14.02"
    assert state.whole.treachery_discard == ("Karama",)
    assert holding(state, F.EMPEROR) == (4, 1, 12, 1, 10)
    assert F.EMPEROR in state.waiting_on()  # the normal revival still to come
    refused(state, IllegalActionError, "2.03.11", "emperor", "revive", forces=2, special=1)
    act(state, "emperor", "revive", forces=3)
    assert holding(state, F.EMPEROR) == (1, 1, 15, 1, 6)
    assert F.EMPEROR in state.whole.karama_powers_used


def test_the_emperors_karama_revives_a_leader_whatever_the_conditions() -> None:
    state = revival(
        advanced=True,
        factions={"emperor": {"cards": ("Karama",)}},
        leaders_tanks={F.EMPEROR: ("Bashar",)},
    )
    assert revivable_leaders(state, F.EMPEROR) == ()  # four leaders alive, never killed
    assert state.waiting_on() == (F.EMPEROR,)
    act(state, "emperor", "karama_revive", leader="bashar")
    assert "Bashar" in state.whole.leaders[F.EMPEROR]


@pytest.mark.parametrize(
    ("faction", "advanced", "used", "cards", "error", "rule"),
    [
        ("emperor", False, False, ("Karama",), IllegalActionError, "1.14.02"),
        ("emperor", True, True, ("Karama",), IllegalActionError, "1.14.02"),
        ("emperor", True, False, ("Lasgun",), IllegalActionError, "1.14.02"),
        ("atreides", True, False, ("Karama",), IllegalActionError, "1.14.02"),
    ],
)
def test_the_emperors_karama_revival_refusals(
    faction: str,
    advanced: bool,
    used: bool,
    cards: tuple[str, ...],
    error: type[IllegalActionError],
    rule: str,
) -> None:
    state = revival(
        advanced=advanced,
        factions={
            faction: {"tanks": 4, "cards": cards},
            "harkonnen": {"tanks": 9},  # keeps the phase open
        },
        karama_powers_used=frozenset({F.EMPEROR}) if used else frozenset(),
    )
    refused(state, error, rule, faction, "karama_revive", forces=1)


def test_tleilaxu_ghola_at_any_time_besides_the_normal_revival() -> None:
    """3.01.20: up to 5 forces or 1 leader whatever the conditions, free; the normal
    revival still happens."""
    state = revival(
        factions={"atreides": {"tanks": 8, "cards": ("Tleilaxu Ghola",)}},
        leaders={F.ATREIDES: ("Thufir Hawat",)},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho",)},
    )
    assert PlayGhola(F.ATREIDES, 5, 0) in state.legal_actions(F.ATREIDES)
    refused(state, InvalidActionError, "3.01.20", "atreides", "ghola", forces=6)
    refused(
        state, InvalidActionError, "3.01.20", "atreides", "ghola", forces=1, leader="Duncan Idaho"
    )
    refused(state, IllegalActionError, "3.01.20", "harkonnen", "ghola", forces=1)
    event = of_kind(act(state, "atreides", "ghola", forces=5), "revived")[0]
    assert (event["forces"], event["cost"], event["rule"]) == (5, 0, "3.01.20")
    assert state.whole.treachery_discard == ("Tleilaxu Ghola",)
    act(state, "atreides", "revive", forces=3)
    assert state.factions[F.ATREIDES].tanks == 0 and state.factions[F.ATREIDES].spice == 8


def test_tleilaxu_ghola_brings_a_face_down_leader_in_another_phase() -> None:
    state = game_at(
        "battle",
        factions={"atreides": {"cards": ("Tleilaxu Ghola",)}},
        board=[("atreides", "Arrakeen", 9, 2), ("harkonnen", "Arrakeen", 9, 2)],  # a battle
        leaders={F.ATREIDES: ("Thufir Hawat",)},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho",)},
        leader_deaths={"Duncan Idaho": 2},
    )
    act(state, "atreides", "ghola", leader="duncan idaho")
    assert state.whole.leaders[F.ATREIDES] == ("Thufir Hawat", "Duncan Idaho")
    assert state.game_phase is GamePhase.BATTLE


# -- refusals -------------------------------------------------------------------------

LONG = "x" * 500


@pytest.mark.parametrize(
    ("fields", "error", "rule"),
    [
        ({"forces": 4}, IllegalActionError, "1.05.01"),  # 3 a turn
        ({"forces": 2, "special": 2}, IllegalActionError, "1.05.01"),  # none starred in tanks
        ({"forces": 1}, IllegalActionError, "1.05.01.01"),  # the 2 free come back anyway
        ({"forces": -1}, InvalidActionError, "1.05.01"),
        ({"forces": 10**9}, InvalidActionError, "1.05.01"),
        ({"forces": 3, "leader": LONG}, IllegalActionError, "1.05.03"),
        ({"forces": 3, "leader": "Feyd Rautha"}, IllegalActionError, "1.05.03"),
    ],
)
def test_revive_refusals(
    fields: dict[str, Any], error: type[IllegalActionError], rule: str
) -> None:
    state = revival(
        factions={"atreides": {"tanks": 5}},
        leaders={F.ATREIDES: ()},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho",)},
    )
    refusal = refused(state, error, rule, "atreides", "revive", **fields)
    assert len(refusal.message) < 300 and LONG not in refusal.message


def test_paying_more_than_held_is_refused() -> None:
    state = revival(
        factions={"atreides": {"tanks": 5, "spice": 3}},
        leaders={F.ATREIDES: ()},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho",)},
    )
    refused(
        state, IllegalActionError, "1.05.01", "atreides", "revive", forces=3, leader="Duncan Idaho"
    )
    act(state, "atreides", "revive", forces=3)  # 2 spice of the 3


def test_only_the_asked_answer_and_only_once() -> None:
    state = revival(factions={"atreides": {"tanks": 5}, "harkonnen": {"tanks": 1}})
    refused(state, NotYourTurnError, "1.05.01", "harkonnen", "revive", forces=1)
    refused(state, NotYourTurnError, "1.05.01", "fremen", "pass")
    state = revival(factions={"atreides": {"tanks": 5}, "emperor": {"tanks": 5}})
    act(state, "atreides", "pass")
    refused(state, NotYourTurnError, "1.05.01", "atreides", "revive", forces=3)
    shipment = game_at("shipment_movement", factions={"atreides": {"tanks": 5}})
    with pytest.raises(NotYourTurnError):
        shipment.apply(Revive(F.ATREIDES, 3))


# -- the moderator's corrections ------------------------------------------------------


def test_a_recorded_revival_answers_for_the_faction_and_the_phase_waits() -> None:
    """RecordRevival marks the faction revived (not asked, no free revival again); it
    does not end the phase, "phase done" does, with the free revival for the rest."""
    state = revival(factions={"atreides": {"tanks": 5}, "emperor": {"tanks": 5}})
    act(state, "atreides", "record_revival", forces=1)  # a record need not name the free ones
    assert state.waiting_on() == (F.EMPEROR,)
    assert holding(state, F.ATREIDES)[:3] == (4, 0, 11)
    refused(state, IllegalActionError, "1.05.01", "atreides", "record_revival", forces=1)
    act(state, "emperor", "record_revival", forces=2)
    assert state.waiting_on() == () and state.game_phase is GamePhase.REVIVAL
    assert state.moderator_actions()[0] == PhaseDone()
    state.apply(PhaseDone())
    assert state.game_phase is GamePhase.SHIPMENT_MOVEMENT
    assert holding(state, F.ATREIDES)[:3] == (4, 0, 11)  # no free revival again


def test_phase_done_gives_the_free_revival_to_everyone_not_yet_revived() -> None:
    state = revival(factions={"atreides": {"tanks": 5}, "emperor": {"tanks": 5}})
    act(state, "atreides", "revive", forces=3)
    events = state.apply(PhaseDone())
    free = {e["faction"]: e["forces"] for e in of_kind(events, "revived")}
    assert free == {"emperor": 1}
    assert holding(state, F.ATREIDES)[:3] == (2, 0, 13)


def test_a_recorded_ghola_is_accepted_in_the_phase() -> None:
    state = revival(factions={"atreides": {"tanks": 8, "cards": ("Tleilaxu Ghola",)}})
    act(state, "atreides", "record_ghola", forces=5)
    assert state.waiting_on() == (F.ATREIDES,)


# -- choices and defaults -------------------------------------------------------------


def test_the_choices_are_legal_and_priced() -> None:
    state = revival(
        alliances=[["emperor", "atreides"]],
        factions={"atreides": {"tanks": 8, "spice": 3}},
        leaders={F.ATREIDES: ()},
        leaders_tanks={F.ATREIDES: ("Duncan Idaho",)},
    )
    legal = list(state.legal_actions(F.ATREIDES))
    assert legal[0] == Pass(F.ATREIDES) and all(state.is_legal(a) for a in legal)
    options = dict(revival_options(state, F.ATREIDES))
    assert options[Revive(F.ATREIDES, 3)] == Price(2, 0)
    assert max(a.forces for a in options) == 3  # the Emperor's 3 more are its own choice
    emperor = [a for a in state.legal_actions(F.EMPEROR) if isinstance(a, PayAllyRevival)]
    assert set(emperor) == {PayAllyRevival(F.EMPEROR, n) for n in (1, 2, 3)}
    assert options[Revive(F.ATREIDES, 2, leader="Duncan Idaho")] == Price(2, 0)
    assert Revive(F.ATREIDES, 3, leader="Duncan Idaho") not in options  # 4 spice
    assert set(options) == {a for a in legal if isinstance(a, Revive)}
    assert revival_options(state, F.HARKONNEN) == []
    assert default_action(state, F.ATREIDES) == Pass(F.ATREIDES)


def test_the_emperor_giving_its_spice_away_stays_asked_for_its_ally() -> None:
    """2.03.06 during the phase: the gift's amount is secret, so it changes nothing in whom
    the phase waits on; the Emperor, unable to pay now, may only pass."""
    state = revival(alliances=[["emperor", "atreides"]], factions={"atreides": {"tanks": 8}})
    assert F.EMPEROR in state.waiting_on() and F.EMPEROR in revivals(state.whole).done
    act(state, "emperor", "give_spice", amount=9)
    assert F.EMPEROR in state.waiting_on()
    refused(state, IllegalActionError, "2.03.07", "emperor", "pay_ally_revival", forces=1)
    act(state, "emperor", "pass")
    assert state.waiting_on() == (F.ATREIDES,)
