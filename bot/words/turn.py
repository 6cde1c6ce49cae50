"""Words for the events of the whole turn: one sentence each, for the table and spectators.

:func:`describe_turn_event` gives the public sentence of every event the engine emits
outside the Shipment & Movement phase (set-up, what the storm or a worm destroys, spice
blow and Nexus, the recorded phases, collection, the end of the game), and asks each
phase's words for its own events' (:mod:`bot.words.phase_words`). It reads only the event,
and every event is public, so its sentence may go to any channel: cards dealt are counts,
a dial is "in" until all are revealed, the Bene Gesserit's prediction is "written down".

:func:`private_lines` gives a faction its own side of the same events (the cards it was
dealt or won, its prediction, its Karama worm, and each phase's words' part: its storm
dial, the Fremen's storm card...), read from that faction's
:class:`~rules.view.PrivateView` after the events, and :func:`private_notice` wraps them
for its private channel. Nothing here names a faction by anything but its printed name,
and no internal id reaches a sentence.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.publisher import PrivateNotice
from bot.words import phase_words
from bot.words.common import and_list, plural, possessive
from bot.words.truthtrance import describe_event as describe_truthtrance
from bot.words.truthtrance import private_lines as truthtrance_lines
from rules.board import POLAR_SINK
from rules.events import (
    AllianceBroken,
    AllianceFormed,
    AllianceOffered,
    CardDiscarded,
    CardsDealt,
    CardWon,
    DeckShuffled,
    Event,
    ForcesDestroyed,
    ForcesLost,
    ForcesSetUp,
    GameWon,
    KaramaPower,
    LeaderKilled,
    NexusEnded,
    NexusStarted,
    Passed,
    PhaseBegan,
    PredictionMade,
    ShaiHulud,
    SpiceBlown,
    SpiceCollected,
    SpiceDestroyed,
    SpicePaid,
    SpiceReceived,
    WormRidden,
)
from rules.view import PrivateView

PHASE_NAMES = {
    "setup": "Set-up",
    "spice_blow": "Spice Blow",
    "shipment_movement": "Shipment & Movement",
    "spice_collection": "Spice Collection",
    "mentat_pause": "Mentat Pause",
    "over": "Game over",
}
"""Each phase of the whole game (``GameView.phase``) in words, but those its phase's words
name (:attr:`bot.words.phase_words.PhaseWords.name`)."""

DECKS = {"spice": "spice deck", "treachery": "treachery deck", "traitors": "traitor deck"}

WON_BY = {
    "strongholds": "holding enough strongholds",
    "alliance": "as allies holding enough strongholds",
    "fremen": "by the Fremen special victory",
    "guild": "by the Spacing Guild special victory",
    "prediction": "as the Bene Gesserit predicted",
    "default": "at the end of the last turn",
}

STANDS_ASIDE = {
    "nexus": "is done with the Nexus",
    "worm_ride": "does not ride the worm",
}
"""A pass in public words, by its phase (and ``phase:choice``), but those its phase's words
say (:attr:`bot.words.phase_words.PhaseWords.passes`)."""

CAUSES = {"storm": "The storm", "worm": "Shai-Hulud", "family_atomics": "Family Atomics"}


# -- small words ---------------------------------------------------------------------------


def phase_name(phase: str) -> str:
    """A phase's name in words (``"spice_blow"`` -> ``"Spice Blow"``)."""
    named = [w.name for w in phase_words.of(phase) if w.name]
    if named:
        return named[0]
    return PHASE_NAMES.get(phase, phase.replace("_", " ").capitalize())


def stands_aside(phase: str, choice: str) -> str:
    """A pass of ``phase``'s ``choice`` in public words ("does not use the Voice")."""
    for words in phase_words.of(phase):
        said = words.passes.get(choice) or words.passes.get("")
        if said:
            return said
    return STANDS_ASIDE.get(f"{phase}:{choice}") or STANDS_ASIDE.get(phase, "passes")


def _place(territory: str, sector: int | None) -> str:
    if territory == POLAR_SINK:
        return "the Polar Sink"
    return territory if sector is None else f"{territory} (sector {sector})"


def _tokens(forces: int, special: int = 0, advisors: int = 0) -> str:
    """``3 forces, 1 starred force and 2 advisors``; ``no forces`` for none."""
    parts = [
        plural(n, noun)
        for n, noun in ((forces, "force"), (special, "starred force"), (advisors, "advisor"))
        if n
    ]
    return and_list(parts) or "no forces"


# -- the public sentence of each event --------------------------------------------------------


def describe_turn_event(event: Event) -> str | None:
    """The public sentence of a whole-turn event; None for any other kind of event
    (those of the Shipment & Movement phase and corrections are :mod:`bot.words.narrate`'s)."""
    for words in phase_words.every():  # a phase's own events, before the generic words
        said = words.describe(event) if words.describe is not None else None
        if said:
            return said
    return (
        _set_up(event)
        or _destroyed(event)
        or _blow(event)
        or _recorded(event)
        or _end(event)
        or describe_truthtrance(event)
    )


def _set_up(event: Event) -> str | None:
    match event:
        case PhaseBegan(turn=turn, phase=phase):
            if phase == "over":
                return "The game is over."
            return f"**Turn {turn}: the {phase_name(phase)} phase begins.**"
        case DeckShuffled(deck=deck, cards=cards):
            return f"The {DECKS.get(deck, 'deck')} is shuffled ({plural(cards, 'card')})."
        case CardsDealt(faction=faction, cards=cards):
            return f"{faction.label} is dealt {plural(cards, 'treachery card')}, face down."
        case PredictionMade(faction=faction):
            return f"{faction.label} writes down a secret prediction."
        case ForcesSetUp(faction=faction, territory=territory, sector=sector, forces=n, token=t):
            noun = "advisor" if t == "advisor" else "force"
            return f"{faction.label} sets up {plural(n, noun)} in {_place(territory, sector)}."
    return None


def _destroyed(event: Event) -> str | None:
    """Forces and spice destroyed by the storm, a worm or Family Atomics."""
    match event:
        case ForcesDestroyed(faction=faction, territory=t, sector=s, cause=cause) as e:
            what = _tokens(e.forces, e.special, e.advisors)
            return (
                f"{CAUSES.get(cause, 'Destruction')} kills {what} of {faction.label} in "
                f"{_place(t, s)}: to the Tleilaxu Tanks."
            )
        case SpiceDestroyed(territory=t, sector=s, amount=amount, cause="worm"):
            return f"Shai-Hulud swallows {amount} spice in {_place(t, s)}."
        case SpiceDestroyed(territory=t, sector=s, amount=amount, cause=cause):
            return (
                f"{CAUSES.get(cause, 'Destruction')} blows away {amount} spice in {_place(t, s)}."
            )
    return None


def _blow(event: Event) -> str | None:
    match event:
        case SpiceBlown(pile=pile, territory=t, sector=s, amount=amount, placed=True):
            return f"Spice blow (pile {pile}): {amount} spice in {_place(t, s)}."
        case SpiceBlown(pile=pile, territory=t, sector=s, amount=amount):
            return (
                f"Spice blow (pile {pile}): {_place(t, s)} lies in the storm; its {amount} "
                "spice is lost."
            )
        case ShaiHulud(pile=pile, ignored=True):
            return f"Shai-Hulud (pile {pile}) on the first turn is set aside, to be shuffled back."
        case ShaiHulud(pile=pile, territory=None):
            return f"Shai-Hulud appears (pile {pile})!"
        case ShaiHulud(pile=pile, territory=territory):
            return f"Shai-Hulud appears (pile {pile}) in {territory}!"
        case WormRidden(faction=faction, from_territory=start, to=to, sector=s) as e:
            return (
                f"{faction.label} rides the worm from {start} to {_place(to, s)} with "
                f"{_tokens(e.forces, e.special)}."
            )
        case NexusStarted():
            return "Nexus! Alliances may be formed and broken."
        case NexusEnded():
            return "The Nexus is over."
        case AllianceOffered(faction=faction, to=to):
            return f"{faction.label} offers an alliance to {to.label}."
        case AllianceFormed(factions=factions):
            return f"{and_list([f.label for f in factions])} are now allies."
        case AllianceBroken(faction=faction, ally=ally):
            return f"{faction.label} breaks its alliance with {ally.label}."
        case Passed(faction=faction, phase=phase, choice=choice):
            return f"{faction.label} {stands_aside(phase, choice)}."
    return None


def _recorded(event: Event) -> str | None:
    match event:
        case ForcesLost(faction=faction, territory=t, sector=s) as e:
            what = _tokens(e.forces, e.special, e.advisors)
            return f"{faction.label} loses {what} in {_place(t, s)} to the Tleilaxu Tanks."
        case LeaderKilled(faction=faction, leader=leader):
            return f"{possessive(faction)} leader {leader} is killed."
        case CardDiscarded(faction=faction, card=card):
            return f"{faction.label} discards {card}."
        case SpicePaid(faction=faction, amount=amount, to=to):
            payee = to.label if to is not None else "the Spice Bank"
            return f"{faction.label} pays {amount} spice to {payee}."
        case SpiceReceived(faction=faction, amount=amount):
            return f"{faction.label} receives {amount} spice from the Spice Bank."
    return None


def _end(event: Event) -> str | None:
    match event:
        case SpiceCollected(faction=faction, territory=t, sector=s, amount=amount):
            return f"{faction.label} collects {amount} spice in {_place(t, s)}."
        case GameWon(factions=factions, how=how):
            verb = "wins" if len(factions) == 1 else "win"
            names = and_list([f.label for f in factions]) or "Nobody"
            return f"**{names} {verb} the game** {WON_BY.get(how, 'by the rules')}!"
    return None


# -- a faction's own side of the same events ------------------------------------------------


def private_lines(events: Iterable[Event], view: PrivateView) -> list[str]:
    """What ``view.faction`` alone learns from ``events``, read from its view after them.

    Only events of that faction have a private side: the treachery cards dealt or won (the
    newest of its hand), its prediction and, for the Fremen, where their Karama worm will
    come up; and each phase's words' part (:attr:`bot.words.phase_words.PhaseWords.own_line`
    and ``own_lines``: its storm dial, the Fremen's storm card, the traitors offered and
    kept, the Atreides' look at each card on offer, the spice left after paying, a hand
    taken or given back...).
    """
    events = list(events)
    own = view.faction
    registered = phase_words.every()
    lines: list[str] = []
    won = sum(1 for e in events if isinstance(e, CardWon) and e.faction is own)
    if won:
        lines.append(f"Your new treachery {_cards(won)}: {_newest(view, won)}.")
    for event in events:
        if getattr(event, "faction", None) is own and (line := _own_line(event, view)):
            lines.append(line)
    for words in registered:
        lines += words.own_lines(events, view) if words.own_lines is not None else []
    return lines + truthtrance_lines(events, view)


def _own_line(event: Event, view: PrivateView) -> str | None:
    for words in phase_words.every():
        line = words.own_line(event, view) if words.own_line is not None else None
        if line:
            return line
    return _private(event, view)


def private_notice(events: Iterable[Event], view: PrivateView) -> PrivateNotice | None:
    """:func:`private_lines` as one notice for the faction's own channel (None: nothing)."""
    lines = private_lines(events, view)
    return PrivateNotice(view.faction, "\n".join(lines)) if lines else None


def _private(event: Event, view: PrivateView) -> str | None:
    secrets = view.secrets
    match event:
        case CardsDealt(deck="treachery", cards=cards) if cards:
            return f"Your treachery {_cards(cards)}: {_newest(view, cards)}."
        case PredictionMade() if secrets.prediction is not None:
            winner, turn = secrets.prediction
            return f"Your prediction: {winner.label} wins on turn {turn}."
        case KaramaPower() if secrets.karama_worm is not None:
            return f"Your Karama worm will come up in {secrets.karama_worm} at the next spice blow."
    return None


def _cards(n: int) -> str:
    return "card" if n == 1 else "cards"


def _newest(view: PrivateView, n: int) -> str:
    """The ``n`` cards last added to the hand (a hand keeps the order cards came in)."""
    return and_list(list(view.cards[-n:])) if view.cards else "none left in your hand"
