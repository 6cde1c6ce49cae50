"""The Storm phase's choices in words (cogs.storm.choices) against engine positions: the
dialers are offered their dials, a storm card's holder its Weather Control, the Fremen their
storm losses; nobody else anything."""

from __future__ import annotations

from bot.session.passes import pass_words
from cogs.storm import choices as ch
from rules.factions import Faction
from rules.storm.actions import Dial
from rules.storm.model import StormTurn
from tests.rules.game_helpers import game_at
from tests.rules.helpers import act

F = Faction


def values(pairs: list[ch.Choice[str]] | list[ch.Choice[int]]) -> list[object]:
    return [value for _, value in pairs]


def test_dials_go_to_the_dialers_until_they_dial() -> None:
    state = game_at("storm", turn=1)
    dialers = state.waiting_on()
    assert dialers
    first = dialers[0]
    assert values(ch.dials(state, first)) == list(range(21))
    assert ch.dials(state, first)[3] == ("dial 3", 3)
    others = [f for f in F if f not in dialers]
    assert all(ch.dials(state, f) == [] for f in others)
    state.apply(Dial(first, 3))
    assert ch.dials(state, first) == []
    later = game_at("storm", turn=2, dialers=(F.HARKONNEN, F.ATREIDES))
    assert values(ch.dials(later, F.ATREIDES)) == [1, 2, 3]


def test_weather_control_only_for_its_holder_after_the_dials() -> None:
    state = game_at(
        "storm",
        turn=3,
        storm=7,
        dialers=(F.EMPEROR, F.FREMEN),
        factions={"atreides": {"cards": ("Weather Control",)}},
    )
    assert ch.weather_control(state, F.ATREIDES) == []
    act(state, "emperor", "dial", value=1)
    act(state, "fremen", "dial", value=1)
    choices = ch.weather_control(state, F.ATREIDES)
    assert choices[0] == ("the storm stays where it is", 0)
    assert choices[5] == ("move the storm 5 sectors", 5) and len(choices) == 11
    assert ch.weather_control(state, F.HARKONNEN) == []
    assert pass_words(state, F.ATREIDES) == "you play no storm card this turn"
    assert pass_words(state, F.HARKONNEN) is None


def test_fremen_storm_losses_offer_territory_sector_and_fedaykin() -> None:
    state = game_at(
        "storm",
        turn=2,
        storm=2,
        advanced=True,
        storm_turn=StormTurn(next=1),
        board=[("fremen", "Cielago East", 3, 3), ("fremen", "South Mesa", 3, 3)],
        special=[("fremen", "Cielago East", 3, 2)],
    )
    assert ch.loss_territories(state, F.FREMEN) == [("Cielago East", "Cielago East")]
    assert ch.loss_sectors(state, F.FREMEN, "cielago east") == [("sector 3", 3)]
    specials = ch.loss_specials(state, F.FREMEN, "Cielago East", 3)
    assert specials == [("0 Fedaykin", 0), ("1 Fedaykin", 1), ("2 Fedaykin", 2)]
    assert ch.loss_specials(state, F.FREMEN, "South Mesa", None) == []
    assert ch.loss_territories(state, F.ATREIDES) == []


def test_no_dials_for_a_faction_not_in_the_game() -> None:
    three = game_at("storm", turn=1, seats=["harkonnen", "atreides", "emperor"])
    assert ch.dials(three, F.FREMEN) == []
    assert ch.weather_control(three, F.FREMEN) == []
    assert ch.loss_territories(three, F.FREMEN) == []
