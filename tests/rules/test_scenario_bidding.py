"""``dune-scenario/2`` in the Bidding phase: ``bid``, ``pass`` and ``karama_buy`` as the format
fixes them, a scenario that starts at ``bidding`` and runs on."""

from __future__ import annotations

from typing import Any

from rules.scenario2 import run

HOLDINGS = {
    "harkonnen": {"spice": 10, "reserves": 20},
    "atreides": {"spice": 5, "reserves": 20, "cards": ["Karama"]},
    "emperor": {"spice": 8, "reserves": 15, "special_reserves": 5},
}


def scenario(actions: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "format": "dune-scenario/2",
        "advanced": False,
        "turn": 2,
        "phase": "bidding",
        "storm_sector": 18,  # storm order: Harkonnen, Atreides, Emperor
        "seats": ["harkonnen", None, "atreides", None, "emperor", None],
        "alliances": [],
        "board": [],
        "factions": HOLDINGS,
        "decks": {"treachery": ["Lasgun", "Shield", "Snooper", "Chaumas", "Kulon"]},
        "actions": actions,
        **extra,
    }


def kinds(result: dict[str, Any]) -> list[str]:
    return [e["type"] for e in result["events"]]


def test_an_auction_played_from_a_scenario() -> None:
    """Card 1: Harkonnen 2, Atreides 3, both others pass: the Atreides pay the Emperor 3
    (2.03.04). Card 2 opens with the Atreides (1.04.07), who take it with a Karama
    (3.01.11.04). Card 3 opens with the Emperor; the run stops waiting on the bidder."""
    _, output = run(
        scenario(
            [
                {"faction": "harkonnen", "action": "bid", "amount": 2},
                {"faction": "atreides", "action": "bid", "amount": 3},
                {"faction": "emperor", "action": "pass"},
                {"faction": "harkonnen", "action": "pass"},
                {"faction": "atreides", "action": "karama_buy"},
                {"faction": "emperor", "action": "bid", "amount": 1},
            ]
        )
    )
    results = output["results"]
    assert all(r["accepted"] for r in results)
    assert kinds(results[0]) == [
        "hand_declared",
        "hand_declared",
        "hand_declared",
        "cards_laid_out",
        "auction_opened",
        "bid_made",
    ]
    assert kinds(results[3]) == ["passed", "card_won", "auction_opened"]
    assert results[3]["events"][1] == {
        "type": "card_won",
        "faction": "atreides",
        "price": 3,
        "paid_to": "emperor",
        "rule": "1.04.06.02",
        "ally": None,
        "ally_paid": 0,
    }
    assert kinds(results[4]) == ["card_discarded", "card_won", "auction_opened"]
    assert results[4]["events"][1]["rule"] == "3.01.11.04"
    state = output["state"]
    assert (state["phase"], state["to_act"]) == ("bidding", ["harkonnen"])
    factions = state["factions"]
    assert factions["atreides"]["cards"] == ["Lasgun", "Shield"]
    assert (factions["atreides"]["spice"], factions["emperor"]["spice"]) == (2, 11)


def test_a_bid_out_of_turn_is_refused_and_passes_nobody() -> None:
    """A faction's turn to bid is not a choice another's action declines
    (docs/SCENARIO-FORMAT-2.md, 1.04.05): the Emperor's bid while the Harkonnen open is
    refused, nobody passes, and the Harkonnen still bid first."""
    _, output = run(
        scenario(
            [
                {"faction": "emperor", "action": "bid", "amount": 2},
                {"faction": "harkonnen", "action": "bid", "amount": 1},
            ]
        )
    )
    refused, accepted = output["results"]
    assert (refused["accepted"], refused["rule"]) == (False, "1.04.05")
    assert "passed" not in kinds(refused)
    assert accepted["accepted"] and kinds(accepted)[-1:] == ["bid_made"]
    assert "passed" not in kinds(accepted)
    assert output["state"]["to_act"] == ["atreides"]


def test_a_pass_out_of_turn_is_refused_and_passes_nobody() -> None:
    _, output = run(
        scenario(
            [
                {"faction": "harkonnen", "action": "bid", "amount": 1},
                {"faction": "emperor", "action": "pass"},
            ]
        )
    )
    refused = output["results"][1]
    assert (refused["accepted"], refused["rule"]) == (False, "1.04.05")
    assert "passed" not in kinds(refused)
    assert output["state"]["to_act"] == ["atreides"]


def test_an_illegal_bid_in_turn_is_refused_for_itself() -> None:
    _, output = run(scenario([{"faction": "harkonnen", "action": "bid", "amount": 11}]))
    refused = output["results"][0]
    assert (refused["accepted"], refused["rule"]) == (False, "1.04.06.03")
    assert output["state"]["to_act"] == ["harkonnen"]


def test_everyone_passing_returns_the_cards_and_the_run_goes_on() -> None:
    """1.04.09: bought in on the first card; the phase ends and the game moves on to the
    Revival phase."""
    _, output = run(
        scenario(
            [
                {"faction": "harkonnen", "action": "pass"},
                {"faction": "atreides", "action": "pass"},
                {"faction": "emperor", "action": "pass"},
            ]
        )
    )
    assert kinds(output["results"][-1]) == ["passed", "cards_returned"]
    assert {"type": "phase_began", "turn": 2, "phase": "revival"} in output["state"]["events"]
    assert output["state"]["phase"] == "shipment_movement"  # nobody had a revival to choose
