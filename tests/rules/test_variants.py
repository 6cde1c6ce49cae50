"""The variant switches are typed: a bool or an enum of stored strings, checked in one place
(RuleSet), and stored exactly as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.starts import standard_start, whole_game_start
from rules.errors import MentatError
from rules.factions import Faction
from rules.model import RuleSet
from rules.scenario import ScenarioError, load_scenario
from rules.variants import (
    AllyBattleSpice,
    FirstStorm,
    FremenStormMovement,
    GuildAllyPays,
    KaramaBid,
    VariantError,
)
from tests.rules.test_scenario import minimal

OLD_STORED: dict[str, Any] = {
    "advanced": True,
    "variants": {
        "ornithopters_from_shipment": False,
        "fremen_storm_movement": "half_loss",
        "guild_ally_pays": "bank",
        "guild_ally_ship_to_reserves": True,
        "first_storm": "path",
        "ally_battle_spice": "yes",
        "bid_pass_final": True,
        "karama_bid": "pay",
    },
}
"""Rules as a game stored before the switches were typed (a log's start entry)."""
OLD_BASIC: dict[str, Any] = {
    "advanced": False,
    "variants": {
        "ornithopters_from_shipment": True,
        "fremen_storm_movement": "blocked",
        "guild_ally_pays": "guild",
        "guild_ally_ship_to_reserves": False,
    },
}


def test_a_bad_value_is_refused_naming_the_switch_the_value_and_the_allowed_values() -> None:
    with pytest.raises(VariantError) as caught:
        RuleSet(fremen_storm_movement="nonsense")  # type: ignore[arg-type]
    assert isinstance(caught.value, MentatError)
    assert str(caught.value) == (
        "fremen_storm_movement: 'nonsense' is not one of ['blocked', 'free', 'half_loss']"
    )
    assert caught.value.switch == "fremen_storm_movement"


def test_a_bool_switch_takes_only_a_bool() -> None:
    with pytest.raises(VariantError, match=r"bid_pass_final: 'yes' is not one of \[True, False\]"):
        RuleSet(bid_pass_final="yes")  # type: ignore[arg-type]
    with pytest.raises(VariantError, match="advanced: expected true or false"):
        RuleSet(advanced="no")  # type: ignore[arg-type]


def test_a_string_switch_takes_only_its_own_values() -> None:
    with pytest.raises(VariantError, match="karama_bid: True is not one of"):
        RuleSet(karama_bid=True)  # type: ignore[arg-type]
    with pytest.raises(VariantError, match="first_storm: 'hit' is not one of"):
        RuleSet.parse(True, {"first_storm": "hit"})


def test_an_unknown_switch_is_a_variant_error() -> None:
    with pytest.raises(VariantError, match=r"storm_migration: unknown variant \(known: "):
        RuleSet.from_dict({"advanced": True, "variants": {"storm_migration": True}})


def test_the_stored_strings_read_as_enums() -> None:
    rules = RuleSet.from_dict(OLD_STORED)
    assert rules.fremen_storm_movement is FremenStormMovement.HALF_LOSS
    assert rules.guild_ally_pays is GuildAllyPays.BANK
    assert rules.first_storm is FirstStorm.PATH
    assert rules.ally_battle_spice is AllyBattleSpice.YES
    assert rules.karama_bid is KaramaBid.PAY
    assert rules == RuleSet(
        ornithopters_from_shipment=False,
        fremen_storm_movement=FremenStormMovement.HALF_LOSS,
        guild_ally_pays=GuildAllyPays.BANK,
        guild_ally_ship_to_reserves=True,
        first_storm=FirstStorm.PATH,
        ally_battle_spice=AllyBattleSpice.YES,
        bid_pass_final=True,
        karama_bid=KaramaBid.PAY,
    )


@pytest.mark.parametrize("stored", [OLD_STORED, OLD_BASIC])
def test_to_dict_is_what_was_stored_byte_for_byte(stored: dict[str, Any]) -> None:
    again = RuleSet.from_dict(stored).to_dict()
    assert json.dumps(again) == json.dumps(stored)


def test_a_whole_game_keeps_its_typed_rules_through_a_snapshot() -> None:
    rules = RuleSet.from_dict(OLD_STORED)
    start = whole_game_start((Faction.ATREIDES, Faction.FREMEN), rules=rules, seed=7)
    assert start.rules == rules
    stored = start.to_dict()
    assert json.dumps(stored["rules"]) == json.dumps(OLD_STORED)
    assert type(start).from_dict(stored).rules == rules


def test_one_phase_start_reads_its_rules_through_the_scenario() -> None:
    rules = RuleSet.from_dict(OLD_BASIC)
    start = standard_start((Faction.ATREIDES, Faction.FREMEN), rules=rules)
    assert start.rules == rules


def test_a_scenario_file_reads_its_variants_through_the_same_parser() -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(minimal(variants={"karama_bid": "later"}))
    assert str(caught.value) == "variants.karama_bid: 'later' is not one of ['free', 'pay']"
