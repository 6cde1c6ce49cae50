"""The Bidding phase (1.04) declared for the registry: its actions, among them the
moderator's record of a card won during the auction (which needs :mod:`rules.recorded`,
itself built on :mod:`rules.bidding`; hence a module of its own).
"""

from __future__ import annotations

from rules.actions import RecordCardWon
from rules.bidding import auction as bidding
from rules.bidding import record
from rules.bidding import view as auction_view
from rules.bidding.actions import Bid, GiveBackCards, KaramaBuy, KaramaTakeHand, SupportBids
from rules.events import Event
from rules.game_model import GamePhase
from rules.phase_spec import PhaseSpec, PhaseWaits, handlers, on
from rules.position import Position


def record_card(state: Position, action: RecordCardWon) -> list[Event]:
    """A card recorded during the auction: a correction that leaves the auction as it is."""
    bidding.check_record(state, action)
    events = record.win_card(state, action)
    return events + bidding.after_record(state)


SPEC = PhaseSpec(
    phase=GamePhase.BIDDING,
    rule=bidding.PHASE_RULE,
    steps=bidding.BiddingStep,
    begin=bidding.begin,
    handlers=handlers(
        on(Bid, bidding.bid),
        on(KaramaBuy, bidding.karama_buy),
        on(SupportBids, bidding.support_bids),
        on(KaramaTakeHand, bidding.karama_take_hand),
        on(GiveBackCards, bidding.give_back_cards),
        on(RecordCardWon, record_card),
    ),
    pass_=bidding.pass_,
    phase_done=bidding.phase_done,
    offered=bidding.candidates,
    default=bidding.default,
    waits=PhaseWaits(turn_part=bidding.turn_to_bid, asked_alike=bidding.auction_open),
    views=(auction_view.VIEW,),
)
