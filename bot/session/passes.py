"""``/pass`` in the phases of a whole turn (not Shipment & Movement): what it declines, in
words, and a repeated ``/pass`` refused as "already passed".

A slash command carries no binding to the question its player saw: a ``/pass`` sent twice
(a double Enter, a laggy retry) reaches the game after the first one moved it on, maybe to
a question the player never saw (the next card on offer, the worm ride after the Nexus).
So a ``/pass`` that follows its faction's own accepted ``/pass`` within
:data:`REPEAT_WINDOW`, with nothing else done by that faction in between, is read as a
repeat of it and refused, saying what was passed on; when the faction is asked something
new, the refusal names it, and a ``/pass`` sent after that refusal is taken as meant for it
(as in Shipment & Movement, where a repeated bare pass right after a shipment pass means
the shipment again, :func:`bot.words.refusals.bare_pass_step`). A prompt's Pass button is bound
to its question and is never refused this way (docs/whole-turn-readings.md, P1).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.waits import wait_of
from bot.words.choices import declined
from bot.words.refusals import SessionError
from rules.actions import Pass
from rules.bidding.view import auction_of
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.view import game_view

REPEAT_WINDOW = timedelta(minutes=1)
"""How long after an accepted ``/pass`` another ``/pass`` of the same faction is a repeat."""

AUCTION_RULE = "1.04.05"  # the auction goes round: each card is bid on in turn


def _card(state: GameState) -> str | None:
    """The card on offer in public words ("card 2 of 4"), None outside the auction."""
    on_offer = auction_of(game_view(state))
    return f"card {on_offer.number} of {on_offer.of}" if on_offer is not None else None


def _whole_turn(state: GameState) -> bool:
    """A phase of the turn other than Shipment & Movement."""
    return state.game_phase is not GamePhase.SHIPMENT_MOVEMENT


def pass_words(state: GameState, faction: Faction) -> str | None:
    """What ``/pass`` does now for ``faction`` in a phase of the whole turn, in words
    (None when a pass is not one of its choices there, or in Shipment & Movement)."""
    if not _whole_turn(state):
        return None
    if not state.in_game(faction) or not state.is_legal(Pass(faction)):
        return None
    if state.game_phase is GamePhase.BIDDING:
        card = _card(state)
        return f"you pass on {card}" if card else "you pass"
    return (declined(state, faction) or ("you pass", "", None))[0]


def passed_on(state: GameState, faction: Faction) -> tuple[str, str | None]:
    """What a pass of ``faction`` now passes on ("card 2 of 4", "the Voice"), and the rule
    of that choice."""
    if state.game_phase is GamePhase.BIDDING:
        return _card(state) or "the card on offer", AUCTION_RULE
    _, what, rule = declined(state, faction) or ("", "what is asked now", None)
    return what, rule


def _passed_on_this_card(state: GameState, faction: Faction) -> None:
    """In the auction, a faction that passed since the last bid and is not asked now has
    already passed on the card on offer."""
    on_offer = auction_of(game_view(state))
    if on_offer is not None and faction in on_offer.passed and faction is not on_offer.bidder:
        raise SessionError(
            f"you already passed on card {on_offer.number} of {on_offer.of}", rule=AUCTION_RULE
        )


@dataclass(frozen=True, slots=True)
class OwnPass:
    """A faction's accepted ``/pass``: the wait it answered, what it passed on, when."""

    wait: str
    what: str
    rule: str | None
    at: datetime


class RepeatedPasses:
    """Each faction's last accepted ``/pass`` (in memory: a restart forgets them, and a
    ``/pass`` after it is simply checked by the engine)."""

    def __init__(self) -> None:
        self._last: dict[Faction, OwnPass] = {}

    def check(self, state: GameState, faction: Faction, now: datetime) -> None:
        """Refuse a ``/pass`` that repeats ``faction``'s last one (said once: the next
        ``/pass`` is taken as meant for what is asked now)."""
        last = self._last.pop(faction, None)
        if not _whole_turn(state):
            return  # Shipment & Movement has its own reading (bare_pass_step)
        if last is None or now - last.at > REPEAT_WINDOW:
            _passed_on_this_card(state, faction)  # by the button, or long ago
            return
        wait = wait_of(state)
        asked = state.in_game(faction) and state.is_legal(Pass(faction))
        if wait is not None and wait.key == last.wait and asked:
            return  # still the very question it passed on: the engine answers
        if not asked:
            raise SessionError(f"you already passed on {last.what}", rule=last.rule)
        now_asked, rule = passed_on(state, faction)
        raise SessionError(
            f"you already passed on {last.what}. You are now asked about {now_asked}: to "
            "pass on it too, send /pass again (or use the Pass button of its prompt)",
            rule=rule,
        )

    def before(self, state: GameState, faction: Faction, now: datetime) -> OwnPass | None:
        """What a ``/pass`` of ``faction`` answers now (None in Shipment & Movement)."""
        wait = wait_of(state)
        if not _whole_turn(state) or wait is None:
            return None
        return OwnPass(wait.key, *passed_on(state, faction), now)

    def remember(self, faction: Faction, own: OwnPass | None) -> None:
        if own is not None:
            self._last[faction] = own

    def forget(self, faction: Faction) -> None:
        """``faction`` did something else: its next ``/pass`` is no repeat."""
        self._last.pop(faction, None)
