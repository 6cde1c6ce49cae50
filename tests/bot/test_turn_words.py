"""Issue 13: every event of the whole game has words for the table, without internal ids,
and the public sentence never tells a secret; a faction's own side goes to it alone."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.publisher import fill_players
from bot.render.examples import public_view
from bot.words.ceremony import public_notice
from bot.words.narrate import correction_made, describe
from bot.words.turn import describe_turn_event, phase_name, private_lines, private_notice
from rules.battle.events import (
    BattleRecorded,
    CaptivesReleased,
    CardsKept,
    KwisatzHaderachKilled,
    LasgunShield,
    LeaderCaptured,
    PrescienceAnswered,
    TraitorCalled,
    TraitorKept,
    VoiceUsed,
    WeaponStruck,
)
from rules.battle.view import traitor_secrets
from rules.bidding.events import CardsGivenBack, HandTaken
from rules.board import standard_board
from rules.components import leaders, treachery_cards
from rules.events import (
    EVENT_TYPES,
    AllianceConstraint,
    CardGiven,
    CardTaken,
    CardWon,
    Corrected,
    CrossShipped,
    Event,
    ForcesDestroyed,
    ForcesPlaced,
    ForcesRemoved,
    ForcesSetUp,
    GameWon,
    GuildTimingCancelled,
    KaramaCancelled,
    KaramaPower,
    Passed,
    PhaseBegan,
    PredictionMade,
    Retake,
    Sent,
    ShipmentStopped,
    ShippedToReserves,
    SpiceDestroyed,
    SpiceSet,
    StormLosses,
    StormSet,
    TruthtranceAnswered,
    TruthtrancePlayed,
    WormRidden,
)
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.model import Ability
from rules.storm.events import StormCardRevealed, StormDialed, StormDialsRevealed, StormMoved
from rules.view import PrivateView
from tests.bot.whole_games import SEED_BASE, games, played
from tests.rules.game_helpers import DECK, game_at
from tests.rules.helpers import act

SNAKE_CASE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
INTERNAL = re.compile(r"Faction\.|[{}]|<(?!@\d)|\bNone\b|\bTrue\b|\bFalse\b(?! Wall)")
SILENT = {"turn_ended", "prompts_closed", "prompt_declined"}
"""Bookkeeping the table is never told (who declined a window is nobody's business)."""

HAND_MADE: tuple[Event, ...] = (
    Sent(Faction.FREMEN, "The Great Flat", 14, 3, 1, 0, "spice_bank", None, 0),
    CrossShipped(Faction.SPACING_GUILD, "Arrakeen", 9, 2, 0, 2, "spice_bank", None, 0, "Carthag"),
    ShippedToReserves(Faction.SPACING_GUILD, "Carthag", 2, 0, 1, "spice_bank", "2.06.05"),
    StormLosses(Faction.FREMEN, "Red Chasm", 6, 2, 1, "2.04.17"),
    AllianceConstraint(Faction.ATREIDES, Faction.FREMEN, "Polar Sink", None, 2, 0, "1.06.03.08"),
    StormSet(4),
    ForcesPlaced(Faction.HARKONNEN, "Polar Sink", None, 3, 0),
    ForcesRemoved(Faction.EMPEROR, "Arrakeen", 9, 2, 1, True),
    SpiceSet(Faction.ATREIDES),
    CardGiven(Faction.ATREIDES),
    CardTaken(Faction.ATREIDES),
    ForcesSetUp(Faction.BENE_GESSERIT, "Polar Sink", None, 1, "0.13", "advisor"),
    GuildTimingCancelled(Faction.SPACING_GUILD, "2.06.12"),
    ShipmentStopped(Faction.SPACING_GUILD, Faction.EMPEROR, "Cielago South", 1, 3, 0, "1.14.06"),
    KaramaCancelled(
        Faction.ATREIDES, "Karama", Ability.GUILD_PAYMENT, Faction.SPACING_GUILD, "3.01.11.01"
    ),
    Retake(Faction.SPACING_GUILD, Ability.GUILD_PAYMENT, "3.01.11.01"),
    HandTaken(Faction.HARKONNEN, Faction.ATREIDES, 3),
    KaramaPower(Faction.FREMEN, "Karama", "worm", None, "1.14.03"),
    CardsGivenBack(Faction.HARKONNEN, Faction.ATREIDES, 3),
    # Truthtrance (3.01.21): who asked whom, the answer as given, none in time
    TruthtrancePlayed(Faction.ATREIDES, Faction.HARKONNEN, "3.01.21"),
    TruthtranceAnswered(Faction.HARKONNEN, Faction.ATREIDES, "yes", "not this turn", "3.01.21"),
    TruthtranceAnswered(Faction.BENE_GESSERIT, Faction.FREMEN, "none", "", "3.01.21"),
    # kinds the random games of this seed base happen not to make since battles are played
    BattleRecorded(Faction.ATREIDES, Faction.HARKONNEN),  # a moderator's correction now
    WormRidden(Faction.FREMEN, "The Great Flat", "Sietch Tabr", 13, 3, 1, "2.04.08"),
    Retake(Faction.FREMEN, Ability.FREMEN_MOVEMENT, "3.01.11"),
    # the Battle phase's rare kinds (an explosion, a captive, a Karama plan, the Voice)
    LasgunShield("Carthag", 4, "3.01.14"),
    KwisatzHaderachKilled("2.01.13"),
    LeaderCaptured(Faction.HARKONNEN, Faction.ATREIDES, False, "2.05.10"),
    LeaderCaptured(Faction.HARKONNEN, Faction.ATREIDES, True, "2.05.10"),
    CaptivesReleased(("Duncan Idaho",), "2.05.11"),
    TraitorCalled(Faction.HARKONNEN, "Duncan Idaho", Faction.ATREIDES, "1.07.06.06"),
    PrescienceAnswered(Faction.HARKONNEN, "plan", "", "2.01.08"),
    VoiceUsed(Faction.BENE_GESSERIT, Faction.ATREIDES, "not_play", "poison weapon", "2.02.06"),
    CardsKept(Faction.ATREIDES, ("Shield", "Crysknife")),
    WeaponStruck(Faction.ATREIDES, "Crysknife", "Feyd Rautha", False, "Shield", "1.07.06.01"),
)
"""The kinds random play seldom or never makes (corrections, rare Guild and Fremen moves)."""


def all_events() -> Iterator[Event]:
    for game in games():
        for step in game:
            yield from step.events
    yield from HAND_MADE


def sentence(event: Event) -> str | None:
    """The sentence as a reader sees it: a player named (a mark) is written by the
    publisher (here as the console writes them)."""
    if isinstance(event, Corrected):
        return correction_made(1, [event])
    line = describe(event)
    return None if line is None else fill_players(line, lambda f: f"@{f.label}")


def test_every_kind_of_event_has_words_without_internal_ids() -> None:
    samples: dict[str, Event] = {}
    for event in all_events():
        samples.setdefault(event.kind, event)
        line = sentence(event)
        if event.kind in SILENT:
            assert line is None
            continue
        assert line, event
        assert not SNAKE_CASE.search(line), (line, event)
        assert not INTERNAL.search(line), (line, event)
    assert set(samples) == set(EVENT_TYPES)


def test_every_whole_turn_kind_has_its_own_sentence() -> None:
    """From the phase's start on, each kind of events.py is worded by turn_words itself."""
    kinds = list(EVENT_TYPES)
    whole_turn = kinds[kinds.index("phase_began") : kinds.index("game_won") + 1]
    found: dict[str, str] = {}
    for event in all_events():
        if event.kind in whole_turn and (line := describe_turn_event(event)):
            found.setdefault(event.kind, line)
    assert sorted(found) == sorted(whole_turn)


def test_the_polar_sink_reads_right() -> None:
    event = ForcesDestroyed(Faction.ATREIDES, "Polar Sink", None, 2, 0, 0, "storm", "1.01.03")
    assert describe_turn_event(event) == (
        "The storm kills 2 forces of Atreides in the Polar Sink: to the Tleilaxu Tanks."
    )
    set_up = ForcesSetUp(Faction.BENE_GESSERIT, "Polar Sink", None, 1, "0.13", "advisor")
    assert describe(set_up) == "Bene Gesserit sets up 1 advisor in the Polar Sink."


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (StormMoved(18, 3, 3, "1.01.02"), "The storm moves 3 sectors, from sector 18 to sector 3."),
        (StormMoved(5, 5, 0, "1.01.02"), "The storm stays in sector 5."),
        (
            SpiceDestroyed("The Minor Erg", 7, 8, "worm", "1.02.05"),
            "Shai-Hulud swallows 8 spice in The Minor Erg (sector 7).",
        ),
        (PhaseBegan(3, "spice_blow"), "**Turn 3: the Spice Blow phase begins.**"),
        (
            GameWon((Faction.ATREIDES, Faction.FREMEN), "alliance", "1.09.02.02"),
            "**Atreides and Fremen win the game** as allies holding enough strongholds!",
        ),
        (TraitorKept(Faction.HARKONNEN, 4, "0.11"), "Harkonnen keeps all 4 traitors, face down."),
        (
            CardWon(Faction.ATREIDES, 3, Faction.EMPEROR, "1.04.06.02"),
            "Atreides wins a treachery card for 3 spice, paid to Emperor.",
        ),
        (  # the Emperor's commitment pays its part to the bank, not to itself (2.03.04)
            CardWon(Faction.ATREIDES, 5, Faction.EMPEROR, "1.04.06.02", Faction.EMPEROR, 3),
            "Atreides wins a treachery card for 5 spice: 2 paid to Emperor, 3 by its ally "
            "Emperor to the Spice Bank.",
        ),
        (
            CardWon(Faction.EMPEROR, 3, Faction.EMPEROR, "1.04.06.02", Faction.FREMEN, 2),
            "Emperor wins a treachery card for 3 spice: 1 paid to the Spice Bank, 2 by its ally "
            "Fremen to Emperor.",
        ),
    ],
)
def test_sentences_read_as_words(event: Event, words: str) -> None:
    assert describe(event) == words


def test_every_phase_has_a_name() -> None:
    for phase in GamePhase:
        assert phase_name(phase.value) and "_" not in phase_name(phase.value)


def test_public_notice_tells_the_whole_turn_events() -> None:
    events = [PhaseBegan(2, "storm"), StormMoved(18, 3, 3, "1.01.02")]
    text = public_notice(events, public_view(())).text
    assert "**Turn 2: the Storm phase begins.**" in text
    assert "The storm moves 3 sectors, from sector 18 to sector 3." in text


# -- secrets ------------------------------------------------------------------------------

CARD_NAMES = set(treachery_cards())
LEADER_NAMES = {name for f in Faction for name in leaders(f)}
TERRITORIES = sorted((t.name for t in standard_board()), key=len, reverse=True)


def _values(event: Event) -> str:
    return " ".join(str(v) for v in event.to_dict().values())


def test_public_sentences_never_tell_a_card_a_traitor_a_dial_or_the_seed() -> None:
    """A card or leader is named only when the event itself names it (a discard, a leader
    killed) or it is played face up, never from a hand or a traitor; dials and the
    prediction stay sealed."""
    told = 0
    for event in all_events():
        line = sentence(event)
        if not line:
            continue
        told += 1
        assert str(SEED_BASE)[:6] not in line
        words = line
        for territory in TERRITORIES:  # "Shield Wall" names no Shield card
            words = words.replace(territory, "")
        for secret in CARD_NAMES | LEADER_NAMES:
            played = f"plays {secret}" in words or words.startswith(f"{secret}:")
            if secret in words and not played:  # a card played (and its effect) is seen
                told_by = _values(event).lower().replace("_", " ")  # a cause: family_atomics
                assert secret.lower() in told_by, (secret, line)
        if isinstance(event, StormDialed | PredictionMade | TraitorKept):
            assert not re.search(r"\d", line.replace("4 traitors", "")), line
    assert told > 1000


def test_a_faction_alone_hears_its_traitors_and_cards() -> None:
    start = played(0)[0]
    offered: dict[Faction, tuple[str, ...]] = {}
    for view in start.private:
        secrets = view.secrets
        assert secrets is not None
        own = traitor_secrets(secrets)
        offered[view.faction] = own.traitors_offered or own.traitors
    for view in start.private:
        text = "\n".join(private_lines(start.events, view))
        assert all(name in text for name in offered[view.faction]), (view.faction, text)
        others = {n for f, names in offered.items() if f is not view.faction for n in names}
        assert not any(name in text for name in others), (view.faction, text)
        assert all(card in text for card in view.cards), (view.faction, text)


def _karama_worm() -> tuple[tuple[Event, ...], tuple[PrivateView, ...]]:
    """The Fremen's Karama worm, played for sure (random games seldom play it)."""
    state = game_at(
        "bidding",
        advanced=True,
        factions={"fremen": {"cards": ("Karama",)}, "bene_gesserit": {"tanks": 5}},
    )
    events = act(state, "fremen", "karama_worm", territory="The Great Flat")
    return tuple(events), tuple(state.view_for(f) for f in sorted(state.factions))


def test_the_prediction_dial_storm_card_and_karama_worm_go_to_their_owner_only() -> None:
    heard: dict[str, set[Faction]] = {
        "prediction": set(),
        "dial": set(),
        "storm card": set(),
        "Karama worm": set(),
    }
    for events, views in [*((s.events, s.private) for g in games() for s in g), _karama_worm()]:
        for view in views:
            text = "\n".join(private_lines(events, view))
            secrets = view.secrets
            assert secrets is not None
            if "Your prediction" in text:
                assert secrets.prediction is not None
                assert f"{secrets.prediction[0].label} wins on turn" in text
                heard["prediction"].add(view.faction)
            if "Your storm dial" in text:
                assert f"Your storm dial: {secrets.dial}." in text
                heard["dial"].add(view.faction)
            if "storm card" in text:
                heard["storm card"].add(view.faction)
            if "Your Karama worm" in text:
                assert f"come up in {secrets.karama_worm} " in text
                heard["Karama worm"].add(view.faction)
    assert heard["prediction"] == {Faction.BENE_GESSERIT}
    assert heard["storm card"] == heard["Karama worm"] == {Faction.FREMEN}
    assert heard["dial"]


def test_a_private_notice_is_addressed_to_its_faction_and_none_without_news() -> None:
    step = played(0)[0]
    view = step.private_of(Faction.ATREIDES)
    notice = private_notice(step.events, view)
    assert notice is not None and notice.faction is Faction.ATREIDES
    assert private_notice([StormMoved(18, 3, 3, "1.01.02")], view) is None


def test_each_payer_of_a_card_hears_its_own_part() -> None:
    """The Atreides' 2 go to the Emperor, the Emperor's commitment pays its 3 to the bank:
    the Emperor hears it pays 3 and receives 2 (it heard it received the whole 5)."""
    state = game_at(
        "bidding",
        seats=["harkonnen", "atreides", "emperor"],
        treachery_deck=DECK,
        alliances=[["emperor", "atreides"]],
        factions={"atreides": {"spice": 2}},
    )
    events = [*act(state, "emperor", "support_bids", amount=5), *act(state, "harkonnen", "pass")]
    events += act(state, "atreides", "bid", amount=5)
    events += act(state, "emperor", "pass") + act(state, "harkonnen", "pass")
    emperor = "\n".join(private_lines(events, state.view_for(Faction.EMPEROR)))
    assert "You pay 3 spice; you now hold 9." in emperor
    assert "You receive 2 spice for cards sold; you now hold 9." in emperor
    atreides = "\n".join(private_lines(events, state.view_for(Faction.ATREIDES)))
    assert "You pay 2 spice; you now hold 0." in atreides


def test_the_storms_move_is_told_once_by_its_move() -> None:
    """The dials' or the card's reveal says what they show; the move itself (perhaps
    changed by a storm card played in between) is told once, by the move (issue 26)."""
    dials = StormDialsRevealed((Faction.BENE_GESSERIT, Faction.HARKONNEN), (19, 1), "1.01.02")
    card = StormCardRevealed(2, "1.01.04")
    moved = StormMoved(18, 2, 20, "1.01.02")
    said = [describe_turn_event(e) for e in (dials, card, moved)]
    assert said == [
        "Storm dials: Bene Gesserit 19 and Harkonnen 1 (20 in all).",
        "The storm card shows 2.",
        "The storm moves 20 sectors, from sector 18 to sector 2.",
    ]
    assert sum("moves" in line for line in said if line) == 1


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        ("voice", "Bene Gesserit does not use the Voice."),
        ("prescience", "Bene Gesserit does not use Prescience."),
        ("traitor_calls", "Bene Gesserit calls no traitor."),
        ("capture", "Bene Gesserit neither captures nor kills a leader."),
        ("", "Bene Gesserit passes."),
    ],
)
def test_a_pass_in_battle_says_what_was_declined(choice: str, said: str) -> None:
    """Issue 26: "Bene Gesserit passes." in a battle told no word of what was declined."""
    assert describe_turn_event(Passed(Faction.BENE_GESSERIT, "battle", choice)) == said
