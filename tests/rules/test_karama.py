"""Karama (3.01.11): cancelling each ✷ ability of this phase (000's Karama list), what
happens afterwards, who may cancel, the Bene Gesserit's worthless cards (2.02 KARAMA,
advanced), preventing SHIP AS IT PLEASES YOU (✷…✷) and the half-price Karama shipment.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.model import Ability, BlockedAbility, PromptKind
from tests.rules.helpers import act, forces, kinds, position, stack
from tests.rules.refusal import refused

GUILD = Faction.SPACING_GUILD
BG = Faction.BENE_GESSERIT
KARAMA = {"cards": ["Karama"]}


def windows(state: GameState) -> list[Any]:
    return [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]


def prompt_kinds(state: GameState) -> list[PromptKind]:
    return [p.kind for stage in state.phase.stages for p in stage]


def spice(state: GameState, faction: Faction) -> int:
    return state.factions[faction].spice


def cancel(state: GameState, faction: str, ability: str | None = None) -> list[Any]:
    fields = {"ability": ability} if ability else {}
    events = act(state, faction, "karama_cancel", **fields)
    (event,) = [e for e in events if e.kind == "karama_cancel"]
    if ability:
        assert event.ability == ability
    return events


# -- Fremen ---------------------------------------------------------------------------


def test_cancel_fremen_movement_then_retake_a_move_of_one() -> None:
    state = position(
        storm=18,
        seats=["fremen", "atreides"],
        factions={"atreides": KARAMA},
        board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 5}],
    )
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=5)
    events = cancel(state, "atreides", "fremen_movement")
    assert "retake" in kinds(events)
    assert forces(state, "fremen", "Sietch Tabr") == 5
    assert state.factions[Faction.ATREIDES].cards == ()
    refused(
        state,
        IllegalActionError,
        "1.06.03.02",
        "fremen",
        "move",
        from_="Sietch Tabr",
        to="Funeral Plain",
        forces=5,
    )
    act(state, "fremen", "move", from_="Sietch Tabr", to="Plastic Basin", sector=13, forces=5)
    assert forces(state, "fremen", "Plastic Basin") == 5


def test_cancel_storm_migration_restores_the_reserves() -> None:
    state = position(
        storm=14,
        seats=["atreides", None, None, None, None, "fremen"],
        factions={"atreides": KARAMA},
    )
    act(state, "fremen", "send", to="The Great Flat", forces=6)
    cancel(state, "atreides", "storm_migration")
    own = state.factions[Faction.FREMEN]
    assert (own.reserves, own.tanks) == (10, 0)
    assert state.to_act() is Faction.FREMEN
    refused(
        state, IllegalActionError, "1.06.02.04", "fremen", "send", to="The Great Flat", forces=6
    )
    act(state, "fremen", "send", to="Sietch Tabr", forces=6)
    assert forces(state, "fremen", "Sietch Tabr") == 6


# -- Spacing Guild ----------------------------------------------------------------------


def test_cancel_guild_payment_the_shipment_stands_and_the_bank_is_paid() -> None:
    state = position(
        storm=18, seats=["atreides", "harkonnen", "spacing_guild"], factions={"harkonnen": KARAMA}
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    assert spice(state, GUILD) == 25
    cancel(state, "harkonnen", "guild_payment")
    assert forces(state, "atreides", "Arrakeen") == 5
    assert spice(state, Faction.ATREIDES) == 15
    assert spice(state, GUILD) == 20
    assert state.spice_bank == 5
    assert state.factions[Faction.HARKONNEN].cards == ()
    # The shipment was made: no second one.
    refused(state, IllegalActionError, "1.06.01", "atreides", "ship", to="Carthag", forces=1)


def guild_first(**kw: Any) -> GameState:
    kw.setdefault("factions", {"atreides": KARAMA})
    kw.setdefault(
        "board", [{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 6}]
    )
    state = position(storm=18, seats=["spacing_guild", "atreides", "harkonnen"], **kw)
    assert state.to_act() is GUILD
    return state


def test_cancel_cross_ship_then_retake_the_shipment_without_it() -> None:
    state = guild_first()
    act(state, "spacing_guild", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=4)
    assert {w.ability for w in windows(state)} == {Ability.CROSS_SHIP, Ability.HALF_PRICE}
    cancel(state, "atreides", "cross_ship")
    assert forces(state, "spacing_guild", "Tuek's Sietch") == 6
    assert forces(state, "spacing_guild", "Carthag") == 0
    assert spice(state, GUILD) == 20
    assert state.spice_bank == 0
    refused(
        state,
        IllegalActionError,
        "3.01.11",
        "spacing_guild",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Carthag",
        forces=4,
    )
    act(state, "spacing_guild", "ship", to="Carthag", forces=4)
    assert forces(state, "spacing_guild", "Carthag") == 4
    assert spice(state, GUILD) == 18  # still half price


def test_cancel_off_planet_then_retake_without_it() -> None:
    state = guild_first()
    act(state, "spacing_guild", "ship_to_reserves", from_="Tuek's Sietch", forces=6)
    cancel(state, "atreides", "off_planet")
    assert forces(state, "spacing_guild", "Tuek's Sietch") == 6
    assert state.factions[GUILD].reserves == 10
    assert spice(state, GUILD) == 20
    refused(
        state,
        IllegalActionError,
        "3.01.11",
        "spacing_guild",
        "ship_to_reserves",
        from_="Tuek's Sietch",
        forces=6,
    )
    act(state, "spacing_guild", "pass")
    assert state.to_act() is GUILD


@pytest.mark.parametrize(("count", "half", "full"), [(4, 2, 4), (3, 2, 3), (1, 1, 1)])
def test_cancel_half_price_then_the_guild_pays_full_price(count: int, half: int, full: int) -> None:
    state = guild_first()
    act(state, "spacing_guild", "ship", to="Arrakeen", forces=count)
    assert spice(state, GUILD) == 20 - half
    cancel(state, "atreides", "half_price")
    assert spice(state, GUILD) == 20
    assert state.factions[GUILD].reserves == 10
    act(state, "spacing_guild", "ship", to="Arrakeen", forces=count)
    assert spice(state, GUILD) == 20 - full
    assert state.spice_bank == full


def ally_first(**kw: Any) -> GameState:
    kw.setdefault("factions", {"harkonnen": KARAMA})
    state = position(
        storm=18,
        seats=["atreides", "spacing_guild", "harkonnen"],
        alliances=[["atreides", "spacing_guild"]],
        **kw,
    )
    assert state.to_act() is Faction.ATREIDES
    return state


def test_cancel_ally_half_price_then_the_ally_pays_full_price() -> None:
    state = ally_first()
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    assert spice(state, Faction.ATREIDES) == 17
    cancel(state, "harkonnen", "ally_half_price")
    assert spice(state, Faction.ATREIDES) == 20
    assert forces(state, "atreides", "Arrakeen") == 0
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    assert spice(state, Faction.ATREIDES) == 15
    assert spice(state, GUILD) == 25


def test_cancel_ally_cross_ship_then_retake_without_it() -> None:
    state = ally_first(board=[{"faction": "atreides", "territory": "Tuek's Sietch", "forces": 4}])
    act(state, "atreides", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=4)
    cancel(state, "harkonnen", "ally_cross_ship")
    assert forces(state, "atreides", "Tuek's Sietch") == 4
    assert forces(state, "atreides", "Carthag") == 0
    refused(
        state,
        IllegalActionError,
        "3.01.11",
        "atreides",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Carthag",
        forces=4,
    )
    act(state, "atreides", "ship", to="Carthag", forces=4)
    assert forces(state, "atreides", "Carthag") == 4


ORDER = ["atreides", "emperor", "spacing_guild", "harkonnen"]


def test_cancel_guild_now_the_guild_acts_in_storm_order() -> None:
    state = position(storm=18, seats=ORDER, factions={"harkonnen": KARAMA})
    act(state, "spacing_guild", "guild_now")
    assert state.to_act() is GUILD
    cancel(state, "harkonnen", "ship_as_it_pleases_you")
    assert state.to_act() is Faction.ATREIDES
    order = []
    while not state.is_complete:
        faction = state.to_act()
        assert faction is not None
        order.append(faction)
        assert PromptKind.GUILD_TIMING not in prompt_kinds(state)
        if faction is GUILD:
            refused(state, IllegalActionError, "2.06.12.02", "spacing_guild", "guild_delay")
        act(state, faction.value, "pass")
        act(state, faction.value, "pass")
    assert order == [Faction.ATREIDES, Faction.EMPEROR, GUILD, Faction.HARKONNEN]


def test_cancel_guild_delay_the_guild_acts_now() -> None:
    state = position(storm=18, seats=ORDER, factions={"harkonnen": KARAMA})
    for faction in ("atreides", "emperor"):
        act(state, faction, "pass")
        act(state, faction, "pass")
    act(state, "spacing_guild", "guild_delay")
    assert state.to_act() is Faction.HARKONNEN
    cancel(state, "harkonnen", "ship_as_it_pleases_you")
    assert state.to_act() is GUILD


# -- Bene Gesserit -------------------------------------------------------------------------


def test_cancel_spiritual_advisors() -> None:
    state = position(
        storm=18, seats=["atreides", "bene_gesserit", "harkonnen"], factions={"harkonnen": KARAMA}
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    act(state, "bene_gesserit", "advise", to="Polar Sink")
    cancel(state, "harkonnen", "spiritual_advisors")
    assert stack(state, "bene_gesserit", "Polar Sink", None) == (0, 0, 0)
    assert state.factions[BG].reserves == 10
    assert PromptKind.ADVISE not in prompt_kinds(state)
    assert forces(state, "atreides", "Arrakeen") == 3  # the shipment stands


def test_cancel_intrusion_the_fighters_stay() -> None:
    state = position(
        storm=18,
        seats=["atreides", "bene_gesserit", "harkonnen"],
        factions={"harkonnen": KARAMA},
        board=[{"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 3}],
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=2)
    act(state, "bene_gesserit", "flip", territory="Arrakeen", to="advisors")
    assert stack(state, "bene_gesserit", "Arrakeen", 9) == (0, 0, 3)
    cancel(state, "harkonnen", "intrusion")
    assert stack(state, "bene_gesserit", "Arrakeen", 9) == (3, 0, 0)
    assert state.factions[Faction.HARKONNEN].cards == ()


def test_cancel_take_up_arms_then_retake_the_move_as_advisors() -> None:
    state = position(
        storm=18,
        seats=["bene_gesserit", "atreides", "harkonnen"],
        factions={"atreides": KARAMA},
        board=[
            {"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 3, "advisors": True},
            {"faction": "harkonnen", "territory": "Arrakeen", "forces": 1},
            {"faction": "atreides", "territory": "Old Gap", "sector": 9, "forces": 1},
        ],
    )
    state.close_all_prompts()
    act(state, "bene_gesserit", "pass")
    act(
        state,
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
        take_up_arms=True,
    )
    assert stack(state, "bene_gesserit", "Old Gap", 9) == (3, 0, 0)
    cancel(state, "atreides", "take_up_arms")
    assert stack(state, "bene_gesserit", "Arrakeen", 9) == (0, 0, 3)
    assert stack(state, "bene_gesserit", "Old Gap", 9) == (0, 0, 0)
    assert state.to_act() is BG
    refused(
        state,
        IllegalActionError,
        "2.02.17",
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
        take_up_arms=True,
    )
    act(
        state,
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
    )
    assert stack(state, "bene_gesserit", "Old Gap", 9) == (0, 0, 3)


def test_cancel_wartime_blocks_that_territory_only() -> None:
    state = position(
        storm=18,
        seats=["atreides", "bene_gesserit", "harkonnen"],
        factions={"harkonnen": KARAMA},
        board=[
            {"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 2, "advisors": True},
            {"faction": "bene_gesserit", "territory": "Carthag", "forces": 2, "advisors": True},
        ],
    )
    act(state, "bene_gesserit", "flip", territory="Arrakeen", to="fighters")
    cancel(state, "harkonnen", "wartime")
    assert stack(state, "bene_gesserit", "Arrakeen", 9) == (0, 0, 2)
    refused(
        state,
        IllegalActionError,
        "2.02.18",
        "bene_gesserit",
        "flip",
        territory="Arrakeen",
        to="fighters",
    )
    act(state, "bene_gesserit", "flip", territory="Carthag", to="fighters")
    assert stack(state, "bene_gesserit", "Carthag", 10) == (2, 0, 0)


def test_a_blocked_wartime_is_stored_as_before_and_read_back() -> None:
    state = position(
        storm=18,
        seats=["atreides", "bene_gesserit", "harkonnen"],
        factions={"harkonnen": KARAMA},
        board=[
            {"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 2, "advisors": True}
        ],
    )
    act(state, "bene_gesserit", "flip", territory="Arrakeen", to="fighters")
    cancel(state, "harkonnen", "wartime")
    data = state.to_dict()
    assert data["phase"]["karama_blocked"] == ["wartime:Arrakeen"]
    assert state.phase.karama_blocked == {BlockedAbility(Ability.WARTIME, "Arrakeen")}
    assert GameState.from_dict(data).phase.karama_blocked == state.phase.karama_blocked


# -- who may cancel, with what ---------------------------------------------------------------


def fremen_moved(**factions: Any) -> GameState:
    state = position(
        storm=18,
        seats=["fremen", "atreides", "bene_gesserit", "harkonnen"],
        factions=factions,
        board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 5}],
    )
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=5)
    assert windows(state)
    return state


def test_a_faction_cannot_cancel_its_own_ability() -> None:
    state = fremen_moved(fremen=KARAMA)
    refused(state, IllegalActionError, "3.01.11", "fremen", "karama_cancel")


def test_a_faction_without_karama_is_refused() -> None:
    state = fremen_moved(atreides={"cards": ["Hajr", "Baliset"]})
    refused(state, IllegalActionError, "3.01.11", "atreides", "karama_cancel")
    assert "karama_cancel" not in state.legal_actions(Faction.ATREIDES).kinds()


def test_cancel_with_no_window_open_is_refused() -> None:
    state = position(storm=18, seats=["atreides", "harkonnen"], factions={"harkonnen": KARAMA})
    refused(state, IllegalActionError, "3.01.11", "harkonnen", "karama_cancel")


def test_cancel_naming_another_ability_is_refused() -> None:
    state = fremen_moved(atreides=KARAMA)
    refused(state, IllegalActionError, "3.01.11", "atreides", "karama_cancel", ability="cross_ship")
    refused(state, InvalidActionError, "3.01.11", "atreides", "karama_cancel", ability="truthsay")


def test_bg_worthless_card_counts_as_karama_in_the_advanced_game() -> None:
    state = fremen_moved(bene_gesserit={"cards": ["Baliset"]})
    assert "karama_cancel" in state.legal_actions(BG).kinds()
    cancel(state, "bene_gesserit", "fremen_movement")
    assert state.factions[BG].cards == ()
    assert forces(state, "fremen", "Sietch Tabr") == 5


def test_bg_worthless_card_is_no_karama_in_the_basic_game() -> None:
    state = position(
        storm=18,
        seats=["fremen", "atreides", "bene_gesserit"],
        advanced=False,
        factions={"bene_gesserit": {"cards": ["Baliset"]}},
        board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 5}],
    )
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=5)
    assert windows(state)
    refused(state, IllegalActionError, "3.01.11", "bene_gesserit", "karama_cancel")


def test_other_factions_worthless_cards_are_no_karama() -> None:
    state = fremen_moved(atreides={"cards": ["La La La"]})
    refused(state, IllegalActionError, "3.01.11", "atreides", "karama_cancel")


def test_bg_worthless_card_buys_a_half_price_shipment_in_the_advanced_game() -> None:
    state = position(
        storm=18,
        seats=["bene_gesserit", "spacing_guild"],
        factions={"bene_gesserit": {"cards": ["Kulon"]}},
    )
    act(state, "bene_gesserit", "ship", to="Arrakeen", forces=5, karama=True)
    assert spice(state, BG) == 17
    assert state.spice_bank == 3
    assert spice(state, GUILD) == 20
    assert state.factions[BG].cards == ()


def test_a_window_expires_when_the_flow_moves_on() -> None:
    state = fremen_moved(atreides=KARAMA)
    assert state.to_act() is Faction.ATREIDES
    act(state, "atreides", "pass")  # the flow moves on: the window is declined
    assert not windows(state)
    refused(state, IllegalActionError, "3.01.11", "atreides", "karama_cancel")


def test_public_view_lists_every_other_faction_whoever_holds_karama() -> None:
    state = fremen_moved(harkonnen=KARAMA)
    (prompt,) = state.public_view().prompts
    assert prompt.kind == "karama"
    assert prompt.ability == "fremen_movement"
    assert set(prompt.responders) == {Faction.ATREIDES, BG, Faction.HARKONNEN}
    assert "karama_cancel" in state.view_for(Faction.HARKONNEN).legal_actions
    assert "karama_cancel" not in state.view_for(Faction.ATREIDES).legal_actions
    assert "pass" in state.view_for(Faction.ATREIDES).legal_actions


# -- prevent SHIP AS IT PLEASES YOU (✷…✷) -----------------------------------------------------


def test_karama_prevent_ship_as_it_pleases_you() -> None:
    state = position(storm=18, seats=ORDER, factions={"harkonnen": KARAMA})
    assert "karama_prevent" in state.legal_actions(Faction.HARKONNEN).kinds()
    events = act(state, "harkonnen", "karama_prevent", ability="ship_as_it_pleases_you")
    assert "karama_prevent" in kinds(events)
    assert state.factions[Faction.HARKONNEN].cards == ()
    assert PromptKind.GUILD_TIMING not in prompt_kinds(state)
    refused(state, NotYourTurnError, "2.06.12.01", "spacing_guild", "guild_now")
    for faction in ("atreides", "emperor"):
        act(state, faction, "pass")
        act(state, faction, "pass")
        assert PromptKind.GUILD_TIMING not in prompt_kinds(state)
    assert state.to_act() is GUILD
    refused(state, IllegalActionError, "2.06.12.02", "spacing_guild", "guild_delay")


def test_karama_prevent_only_for_ship_as_it_pleases_you() -> None:
    state = position(storm=18, seats=ORDER, factions={"harkonnen": KARAMA})
    refused(
        state,
        IllegalActionError,
        "3.01.11",
        "harkonnen",
        "karama_prevent",
        ability="fremen_movement",
    )


def test_karama_prevent_refused_in_the_basic_game_and_for_the_guild() -> None:
    basic = position(storm=18, seats=ORDER, advanced=False, factions={"harkonnen": KARAMA})
    refused(
        basic,
        IllegalActionError,
        "3.01.11",
        "harkonnen",
        "karama_prevent",
        ability="ship_as_it_pleases_you",
    )
    own = position(storm=18, seats=ORDER, factions={"spacing_guild": KARAMA})
    refused(
        own,
        IllegalActionError,
        "3.01.11",
        "spacing_guild",
        "karama_prevent",
        ability="ship_as_it_pleases_you",
    )


def test_karama_prevent_refused_without_karama_or_after_the_guild_acted() -> None:
    state = position(storm=18, seats=ORDER, factions={"harkonnen": {"cards": ["Hajr"]}})
    refused(
        state,
        IllegalActionError,
        "3.01.11",
        "harkonnen",
        "karama_prevent",
        ability="ship_as_it_pleases_you",
    )
    late = position(storm=18, seats=ORDER, factions={"harkonnen": KARAMA})
    act(late, "spacing_guild", "guild_now")
    act(late, "spacing_guild", "pass")
    act(late, "spacing_guild", "pass")
    refused(
        late,
        IllegalActionError,
        "3.01.11",
        "harkonnen",
        "karama_prevent",
        ability="ship_as_it_pleases_you",
    )


# -- the half-price Karama shipment ----------------------------------------------------------


@pytest.mark.parametrize(
    ("to", "sector", "count", "cost"),
    [("Arrakeen", 9, 5, 3), ("Imperial Basin", 9, 6, 6), ("Tuek's Sietch", 4, 2, 1)],
)
def test_karama_shipment_half_price_to_the_bank_not_the_guild(
    to: str, sector: int, count: int, cost: int
) -> None:
    state = position(
        storm=18,
        seats=["atreides", "spacing_guild", "bene_gesserit"],
        factions={"atreides": KARAMA},
    )
    events = act(state, "atreides", "ship", to=to, sector=sector, forces=count, karama=True)
    (shipment,) = [e for e in events if e.kind == "shipment"]
    assert (shipment.cost, shipment.paid_to) == (cost, "spice_bank")
    assert state.spice_bank == cost
    assert spice(state, GUILD) == 20
    assert spice(state, Faction.ATREIDES) == 20 - cost
    assert not [w for w in windows(state) if w.ability is Ability.GUILD_PAYMENT]


def test_karama_prevent_when_the_guild_is_up_but_has_not_used_its_timing() -> None:
    """3.01.11: "Prevent one use of a faction ability that has an ✷ before and after it.
    This must be done before that faction uses that ability." The Guild is up in storm
    order and has not announced "Delay" (2.06.12.02): the ability is not used yet."""
    state = position(storm=18, seats=ORDER, factions={"harkonnen": KARAMA})
    for faction in ("atreides", "emperor"):
        act(state, faction, "pass")
        act(state, faction, "pass")
    assert state.to_act() is GUILD
    act(state, "harkonnen", "karama_prevent", ability="ship_as_it_pleases_you")
    assert state.to_act() is GUILD
    refused(state, IllegalActionError, "2.06.12.02", "spacing_guild", "guild_delay")


# -- a Karama against the Bene Gesserit's worthless-card Karama (2.02.23 ✷) -------------


def test_a_karama_cancels_the_bene_gesserit_worthless_card_karama() -> None:
    """The BG's worthless card as Karama is itself ✷: a real Karama cancels that use; the
    ability it cancelled stands again, with its window open, and both cards are spent."""
    state = position(
        storm=10,
        seats=[None, "atreides", None, None, "fremen", "bene_gesserit"],
        factions={
            "bene_gesserit": {"cards": ["Kulon"]},
            "atreides": {"cards": ["Karama"]},
        },
        board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 4}],
    )
    assert state.to_act() is Faction.FREMEN
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=4)
    act(state, "bene_gesserit", "karama_cancel")
    assert forces(state, "fremen", "Funeral Plain") == 0
    window = state.open_prompts()[0]
    assert (window.ability, window.subject) == (Ability.BG_KARAMA, Faction.BENE_GESSERIT)
    assert Faction.BENE_GESSERIT not in window.responders
    events = act(state, "atreides", "karama_cancel")
    assert [e.ability for e in events if e.kind == "karama_cancel"] == ["bg_karama"]
    assert forces(state, "fremen", "Funeral Plain") == 4  # the move of two stands again
    assert state.open_prompts()[0].ability is Ability.FREMEN_MOVEMENT
    assert state.factions[Faction.BENE_GESSERIT].cards == ()
    assert state.factions[Faction.ATREIDES].cards == ()


def test_a_karama_cancels_a_bene_gesserit_half_price_shipment_bought_with_a_worthless_card() -> (
    None
):
    state = position(
        storm=18,
        seats=["bene_gesserit", "atreides", None, None, None, None],
        factions={"bene_gesserit": {"cards": ["Baliset"]}, "atreides": {"cards": ["Karama"]}},
    )
    act(state, "bene_gesserit", "ship", to="Carthag", forces=4, karama=True)
    assert state.factions[Faction.BENE_GESSERIT].spice == 18
    act(state, "atreides", "karama_cancel", ability="bg_karama")
    assert forces(state, "bene_gesserit", "Carthag") == 0
    assert state.factions[Faction.BENE_GESSERIT].spice == 20
    assert state.factions[Faction.BENE_GESSERIT].cards == ()
    assert state.to_act() is Faction.BENE_GESSERIT
    assert state.phase.turn is not None and state.phase.turn.step.value == "ship"
    act(state, "bene_gesserit", "ship", to="Carthag", forces=4)  # full price now
    assert state.factions[Faction.BENE_GESSERIT].spice == 16


def test_a_real_karama_played_by_the_bene_gesserit_opens_no_such_window() -> None:
    state = position(
        storm=18,
        seats=["bene_gesserit", "atreides", None, None, None, None],
        factions={"bene_gesserit": {"cards": ["Karama"]}},
    )
    act(state, "bene_gesserit", "ship", to="Carthag", forces=4, karama=True)
    assert not any(p.ability is Ability.BG_KARAMA for p in state.open_prompts())
