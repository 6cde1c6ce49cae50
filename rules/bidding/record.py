"""The moderator's record of the Bidding phase: a card won during the auction, the next
card of the deck paid as recorded (a correction that leaves the auction as it is)."""

from __future__ import annotations

from rules.actions import RecordCardWon
from rules.bidding.auction import draw_top_card, pay_for_card
from rules.bribes import check_spice_held
from rules.components import extras
from rules.decks import draw_treachery
from rules.errors import IllegalActionError, quote
from rules.events import CardWon, Event
from rules.factions import Faction
from rules.position import Position
from rules.recorded import check_amount

BUY_RULE = "1.04.06.02"
HAND_RULE = "1.04.02"
BID_LIMIT_RULE = "1.04.06.03"
ALLY_BID_RULE = "1.10.02.04"


def win_card(state: Position, action: RecordCardWon) -> list[Event]:
    """The card recorded: the next of the deck, paid as recorded (the caller checks when)."""
    faction = action.faction
    check_amount(action.price, "a price", BUY_RULE)
    own = state.factions[faction]
    limit = extras(faction)["hand_limit"]
    if len(own.cards) >= limit:
        raise IllegalActionError(
            f"{faction.label} holds {len(own.cards)} cards, its limit: it cannot bid",
            rule=HAND_RULE,
        )
    payers = _bid_payers(state, action)
    card, events = draw_treachery(state)
    if card is None:
        raise IllegalActionError("the treachery deck and its discards are empty", rule=BUY_RULE)
    emperor = Faction.EMPEROR if Faction.EMPEROR in state.factions else None
    paid_to = pay_for_card(state, payers, emperor)  # a correction: no waiting Karama is used
    check_spice_held(state)  # not the spice behind a standing high bid (1.04.06.02)
    state.update(faction, cards=(*state.factions[faction].cards, card))
    ally = state.ally_of(faction) if action.ally_pays else None
    events.append(CardWon(faction, action.price, paid_to, BUY_RULE, ally, action.ally_pays))
    if faction is Faction.HARKONNEN and len(state.factions[faction].cards) < limit:
        events += draw_top_card(state, faction)  # a correction: no waiting Karama is used
    return events


def _bid_payers(state: Position, action: RecordCardWon) -> list[tuple[Faction, int]]:
    """Who pays what: the faction, and its ally for ``ally_pays`` (1.10.02.04); nobody
    pays more than it holds (1.04.06.03)."""
    faction = action.faction
    check_amount(action.ally_pays, "an ally's share", ALLY_BID_RULE)
    ally = state.ally_of(faction)
    if action.ally_pays and (ally is None or action.ally_pays > action.price):
        raise IllegalActionError(
            f"{faction.label}'s ally can pay part of the price, no more: "
            f"{quote(action.ally_pays)} of {action.price}",
            rule=ALLY_BID_RULE,
        )
    payers = [(faction, action.price - action.ally_pays)]
    if ally is not None and action.ally_pays:
        payers.append((ally, action.ally_pays))
    for payer, amount in payers:
        if amount > state.factions[payer].spice:
            raise IllegalActionError(
                f"{payer.label} cannot pay {amount} spice: it holds {state.factions[payer].spice}",
                rule=BID_LIMIT_RULE,
            )
    return payers
