"""Issue 11, words not ids, in the application: what a faction is asked and reminded of,
the advisor's buttons, standing orders and places in words."""

from __future__ import annotations

import re

import pytest

from bot.orders import StandingOrders, order_words
from bot.session.prompts import prompt_for, reminder_for
from bot.waits import wait_of
from bot.words.common import either, join_place, may_do, split_place
from bot.words.narrate import describe
from rules.actions import Advise, Decline, Ship
from rules.events import Moved
from rules.factions import Faction
from rules.game import GameState
from rules.model import PromptKind
from tests.rules.helpers import position

ATREIDES, BG = Faction.ATREIDES, Faction.BENE_GESSERIT
SEATS = ["atreides", "bene_gesserit", "fremen", None, None, None]
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def shipped(advanced: bool) -> GameState:
    """Atreides shipped 2 forces to Arrakeen: the Bene Gesserit may send an advisor."""
    state = position(seats=SEATS, advanced=advanced, storm=18)
    while state.to_act() is not ATREIDES:
        faction = state.to_act()
        assert faction is not None
        state.apply(next(a for a in state.legal_actions(faction) if a.name == "pass"))
    state.apply(Ship(ATREIDES, "Arrakeen", None, 2))
    while any(p.kind.value != "advise" for p in state.open_prompts()):
        prompt = next(p for p in state.open_prompts() if p.kind.value != "advise")
        for faction in prompt.waiting_on():
            state.apply(state.answers(prompt, faction)[-1])  # its decline
    assert [p.kind.value for p in state.open_prompts()] == ["advise"]
    return state


def labels(state: GameState) -> list[tuple[str, object]]:
    """The Bene Gesserit's buttons: each one's words and the concrete action it submits."""
    wait = wait_of(state)
    assert wait is not None
    notice = prompt_for(state, BG, wait, "7", "soon")
    return [(a.label, a.action) for a in notice.answers]


def test_the_advisor_buttons_name_the_territory_in_the_advanced_game() -> None:
    assert labels(shipped(advanced=True)) == [
        ("Advise to the Polar Sink", Advise(BG, "Polar Sink")),
        ("Advise to Arrakeen (sector 9)", Advise(BG, "Arrakeen")),
        ("Decline", Decline(BG, PromptKind.ADVISE)),
    ]


def test_the_basic_game_offers_only_the_polar_sink() -> None:
    assert labels(shipped(advanced=False)) == [
        ("Advise to the Polar Sink", Advise(BG, "Polar Sink")),
        ("Decline", Decline(BG, PromptKind.ADVISE)),
    ]


def test_each_button_is_an_action_the_engine_takes_now() -> None:
    state = shipped(advanced=True)
    wait = wait_of(state)
    assert wait is not None
    notice = prompt_for(state, BG, wait, "7", "soon")
    keys = [a.key for a in notice.answers]
    assert len(set(keys)) == len(keys) and all(len(k) == 12 for k in keys)
    assert all(state.is_legal(a.action) for a in notice.answers)


@pytest.mark.parametrize("advanced", [True, False])
def test_the_prompt_and_reminder_say_what_is_awaited_in_words(advanced: bool) -> None:
    state = shipped(advanced)
    wait = wait_of(state)
    assert wait is not None and wait.kind == "prompt"
    notice = prompt_for(state, BG, wait, "7", "<t:100:f> (<t:100:R>)")
    assert "You may send a spiritual advisor or decline." in notice.text
    advise = ["advise"] * (2 if advanced else 1)  # the Polar Sink, and Arrakeen if advanced
    assert [a.action.name for a in notice.answers] == [*advise, "decline"]
    reminder = reminder_for(state, BG, wait, "<t:100:f> (<t:100:R>)")
    assert reminder == (
        "Reminder: Mentat awaits your answer. Spiritual Advisors: the Bene Gesserit may "
        "send an advisor after Atreides. You may send a spiritual advisor or decline. "
        "Deadline: <t:100:f> (<t:100:R>)."
    )
    assert not SNAKE.findall(notice.text + reminder)


def test_a_step_reminder_names_the_step() -> None:
    state = position(seats=SEATS, storm=18)
    wait = wait_of(state)
    assert wait is not None and wait.kind == "step"
    faction = wait.factions[0]
    text = reminder_for(state, faction, wait, "<t:5:R>")
    assert text.startswith("Reminder: Mentat awaits your shipment. You may ship")
    assert text.endswith("or pass. Deadline: <t:5:R>.")
    assert not SNAKE.findall(text)


def test_what_a_faction_may_do_reads_as_a_sentence() -> None:
    assert may_do(["ship", "cross_ship", "ship_to_reserves", "pass", "move"]) == (
        "You may ship, cross-ship, ship back to reserves, move or pass."
    )
    assert may_do(["decline", "karama_cancel"]) == "You may cancel it with Karama or decline."
    assert may_do([]) == "You have nothing to do right now."
    assert either(["a"]) == "a" and either(["a", "b"]) == "a or b"
    assert not SNAKE.findall(may_do(["some_future_kind"]))


def test_places_join_and_split() -> None:
    for territory, sector in (("Hagga Basin", 12), ("Arrakeen", None), ("Tuek's Sietch", None)):
        assert split_place(join_place(territory, sector)) == (territory, sector)
    assert split_place("Hagga Basin sector 12") == ("Hagga Basin", 12)
    assert split_place("Arrakeen (sector 9)") == ("Arrakeen", 9)
    assert split_place("Hagga Basin, sector 12: 4 spice") == ("Hagga Basin", 12)
    long = "sector 1 " * 100
    assert split_place(long) == (long.strip(), None)


def test_standing_orders_in_words() -> None:
    orders = StandingOrders(karama="never", advise="territory", guild_timing="before:harkonnen")
    text = " ".join([orders.describe(), *orders.lines()])
    assert "Guild timing: act right before Harkonnen" in text
    assert "to the shipment's territory when allowed" in text
    assert not SNAKE.findall(text.replace("standing-order", ""))
    assert order_words("guild_timing", "ask") == "Guild timing: ask me each time"
    assert StandingOrders().lines() == []


@pytest.mark.parametrize(
    ("frm", "to", "sector", "path", "said"),
    [
        (
            "False Wall East",
            "False Wall East",
            4,
            ("False Wall East",),
            "Fremen moves 1 force within False Wall East, to sector 4.",
        ),
        (
            "The Minor Erg",
            "False Wall East",
            4,
            ("The Minor Erg", "False Wall East"),
            "Fremen moves 1 force from The Minor Erg to False Wall East (sector 4).",
        ),
        (
            "Polar Sink",
            "Arrakeen",
            None,
            ("Polar Sink", "Imperial Basin", "Arrakeen"),
            "Fremen moves 1 force from the Polar Sink to Arrakeen by way of Imperial Basin.",
        ),
    ],
)
def test_a_move_says_its_route_once(
    frm: str, to: str, sector: int | None, path: tuple[str, ...], said: str
) -> None:
    """Issue 26: "moves 1 force from False Wall East to False Wall East (sector 5) (False
    Wall East)" said the territory three times and the path again."""
    move = Moved(Faction.FREMEN, frm, to, sector, 1, 0, False, path)
    assert describe(move) == said
