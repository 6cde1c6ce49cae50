"""Words for the Storm phase the engine runs (1.01): its events, a faction's own side of them
(its dial, the Fremen's storm card), its choices and answers, its steps and its pass, and its
standing order, never to play a storm card (:mod:`rules.storm.orders`).

:func:`describe_storm_event` gives the public sentence of each of the phase's events: it
reads only the event, and every event is public (a dial is "in" until all are revealed, the
Fremen's storm card is drawn "face down"). :func:`own_line` gives a faction its own side,
read from its :class:`~rules.view.PrivateView`. :data:`STORM_WORDS` registers them for the
generic words (:mod:`bot.words.phase_words`). The storm as a board piece (what it destroys,
where it sits) is the generic words' and the map's.
"""

from __future__ import annotations

from bot.words.common import and_list
from bot.words.phase_words import OrderWords, PhaseWords, register
from rules.actions import Action
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.storm.actions import Dial, FamilyAtomics, FremenStormLosses, WeatherControl
from rules.storm.events import (
    StormCardDrawn,
    StormCardPlayed,
    StormCardRevealed,
    StormDialed,
    StormDialsRevealed,
    StormMoved,
    StormOrder,
)
from rules.storm.model import PHASE_RULE, StormStep, asking_storm_cards
from rules.storm.orders import ORDER
from rules.storm.view import storm_secrets
from rules.view import PrivateView


def _sectors(n: int) -> str:
    return f"{n} sector{'s' * (n != 1)}"


# -- public sentences --------------------------------------------------------------------


def describe_storm_event(event: Event) -> str | None:
    """The public sentence of one of the Storm phase's events (None for any other)."""
    match event:
        case StormDialed(faction=faction):
            return f"{faction.label} has dialed for the storm."
        case StormDialsRevealed(factions=factions, values=values):
            dials = and_list([f"{f.label} {v}" for f, v in zip(factions, values, strict=False)])
            return f"Storm dials: {dials} ({sum(values)} in all)."  # the move is StormMoved's
        case StormCardRevealed(value=value):  # a storm card played may change the move
            return f"The storm card shows {value}."
        case StormCardDrawn(faction=faction):
            return f"{faction.label} draws next turn's storm card, face down."
        case StormCardPlayed(faction=faction, card=card, sectors=sectors):
            effect = ""
            if sectors is not None:
                effect = f": the storm moves {_sectors(sectors)}" if sectors else ": it holds"
            elif "atomics" in card.lower():
                effect = ": the Shield Wall is destroyed"
            return f"{faction.label} plays {card}{effect}."
        case StormMoved(from_sector=start, to_sector=end, sectors=0):
            return f"The storm stays in sector {end}."
        case StormMoved(from_sector=start, to_sector=end, sectors=sectors):
            return f"The storm moves {_sectors(sectors)}, from sector {start} to sector {end}."
        case StormOrder(order=order):
            names = [f.label for f in order]
            first = names[0] if names else "nobody"
            return f"First player: {first}. Storm order: {', '.join(names)}."
    return None


# -- a faction's own side ------------------------------------------------------------------


def own_line(event: Event, view: PrivateView) -> str | None:
    """A faction's own side of its event: its dial, the Fremen's storm card drawn."""
    secrets = view.secrets
    card = storm_secrets(secrets).storm_next
    match event:
        case StormDialed() if secrets.dial is not None:
            return f"Your storm dial: {secrets.dial}."
        case StormCardDrawn() if card is not None:
            return f"Next turn's storm card: the storm will move {_sectors(card)}."
    return None


# -- its choices -------------------------------------------------------------------------


def answer_words(action: Action) -> str | None:
    """A storm choice in the words of the faction that gave it ("you dial 2")."""
    match action:
        case Dial():
            return f"you dial {action.value}"
        case WeatherControl():
            return f"you play Weather Control: the storm moves {action.sectors} sectors"
        case FamilyAtomics():
            return "you play Family Atomics"
        case FremenStormLosses():
            return f"you lose {action.special} Fedaykin to the storm in {action.territory}"
    return None


def options(state: GameState, faction: Faction) -> list[str]:
    """The storm choices a faction may make now, in words."""
    legal = list(state.legal_actions(faction))
    kinds = {a.name for a in legal}
    out: list[str] = []
    dials = sorted(a.value for a in legal if isinstance(a, Dial))
    if dials:
        out.append(
            f"dial the storm: a number from {dials[0]} to {dials[-1]}, kept secret (`/dial`)"
        )
    if "weather_control" in kinds:
        out.append("play Weather Control: move the storm 0 to 10 sectors (`/weather-control`)")
    if "family_atomics" in kinds:
        out.append("play Family Atomics: destroy the Shield Wall (`/family-atomics`)")
    if "fremen_storm_losses" in kinds:
        out.append("say how many Fedaykin the storm takes (`/fremen storm-losses`)")
    return out


def declined(state: GameState, faction: Faction) -> tuple[str, str, str | None] | None:
    """What a pass declines while the storm cards are asked: the storm card."""
    if not asking_storm_cards(state.whole):
        return None
    return "you play no storm card this turn", "the storm card", PHASE_RULE


ORDER_WORDS = {"pass": "never play a storm card (pass at once when asked)"}
"""Each value of the storm's standing order (:mod:`rules.storm.orders`), in words."""


def _order(value: str) -> str:
    return ORDER_WORDS.get(value, "as ordered")


STORM_WORDS = register(
    PhaseWords(
        GamePhase.STORM,
        name="Storm",
        describe=describe_storm_event,
        own_line=own_line,
        answer=answer_words,
        options=options,
        steps={
            StormStep.DIAL: "the storm dial, kept secret until every dial is in",
            StormStep.STORM_CARDS: "whether to play a storm card",
            StormStep.FREMEN_LOSSES: "which Fremen forces the storm takes",
        },
        step_passes={StormStep.STORM_CARDS: "pass (play no storm card)"},
        declines=declined,
        passes={"": "plays no storm card"},
        order=OrderWords(ORDER.name, "Storm", _order),
    )
)
"""The Storm phase's words (its events, its choices, its steps and its pass), for the
generic words."""
