"""Events are typed values whose stored form is the JSON games were always kept in."""

from __future__ import annotations

import json

import pytest

from rules.events import EVENT_TYPES, Event, Flipped, Moved, Shipped, SpiritualAdvisor
from rules.factions import Faction
from rules.model import Side
from tests.rules.helpers import act, position

STORED = [
    '{"type":"shipment","faction":"harkonnen","to":"Carthag","sector":10,"forces":2,'
    '"special":0,"cost":2,"paid_to":"spacing_guild","ally":null,"ally_paid":0,"karama":null}',
    '{"type":"move","faction":"atreides","from_territory":"Arrakeen","to":"Imperial Basin",'
    '"sector":9,"forces":3,"special":0,"advisors":false,"path":["Arrakeen","Imperial Basin"]}',
    '{"type":"spiritual_advisor","faction":"bene_gesserit","to":"Polar Sink","sector":null,'
    '"kind":"fighter","rule":"2.02.05"}',
    '{"type":"flipped","faction":"bene_gesserit","territory":"Arrakeen","to":"fighters",'
    '"forces":2,"rule":"2.02.18"}',
    '{"type":"prompts_closed","prompts":["karama","advise"]}',
    '{"type":"phase_complete"}',
]


@pytest.mark.parametrize("stored", STORED)
def test_a_stored_event_reads_back_and_writes_the_same_json(stored: str) -> None:
    event = Event.from_dict(json.loads(stored))
    assert json.dumps(event.to_dict(), separators=(",", ":")) == stored


def test_stored_events_become_typed_values() -> None:
    shipped, moved, advisor, flipped = (Event.from_dict(json.loads(s)) for s in STORED[:4])
    assert isinstance(shipped, Shipped) and shipped.cost == 2
    assert shipped.faction is Faction.HARKONNEN and shipped.ally is None
    assert isinstance(moved, Moved) and moved.path == ("Arrakeen", "Imperial Basin")
    assert isinstance(advisor, SpiritualAdvisor) and advisor.token == "fighter"
    assert isinstance(flipped, Flipped) and flipped.to is Side.FIGHTERS


def test_every_event_of_a_whole_phase_round_trips() -> None:
    state = position(storm=18, factions={"atreides": {"cards": ["Hajr"]}})
    events = act(state, "atreides", "ship", to="Arrakeen", forces=3)
    events += state.close_all_prompts()
    events += act(state, "atreides", "hajr")
    events += act(
        state, "atreides", "move", from_="Arrakeen", to="Imperial Basin", sector=9, forces=1
    )
    for faction in ["atreides", "emperor", "harkonnen", "fremen", "spacing_guild"]:
        events += state.close_all_prompts()
        while state.to_act() is Faction(faction):
            events += act(state, faction, "pass")
    events += state.close_all_prompts()
    assert {e.kind for e in events} >= {"shipment", "hajr_played", "move", "turn_ended"}
    for event in events:
        assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event


def test_an_unknown_stored_event_is_refused() -> None:
    with pytest.raises(ValueError, match="'teleported'"):
        Event.from_dict({"type": "teleported"})
    assert "teleported" not in EVENT_TYPES
