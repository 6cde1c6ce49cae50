"""The Bidding Phase (1.04), run by the engine: hands declared, cards laid out, the auction.

Every player announces its hand (1.04.01); one card per player with room in its hand is
laid out face down (1.04.04); the cards are sold one at a time in storm order, the
opening rotating (1.04.05-1.04.07). Only the player whose turn it is waits. Whom the
auction asks is a function of public facts only (docs/secrets-and-waits.md): a player with
a full hand (a count everyone knows, 1.04.03) is passed by; every other player is asked in
turn, even one that cannot raise (its spice, its ally's commitment and its Karama are
secret): its only answer is a pass, given by hand or by its standing order. The readings
(a pass is not final unless the table's ``bid_pass_final`` says so; a Karama bid wins free
unless ``karama_bid`` says "pay"; the bidder's own spice pays first, its ally's commitment
the rest) are in docs/whole-turn-readings.md.

Abilities: the Emperor is paid for other factions' cards (2.03.04) and may give spice
to its ally at any time (2.03.06); the Harkonnen draw a free card with each purchase
(2.05.08) and, once a game, take a hand with a Karama and give back as many (1.14.04);
the Atreides see the card on offer (2.01.05, in their secrets, :mod:`rules.view`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import StrEnum

from rules import karama_turn
from rules.actions import Action, FactionAction, Pass, PhaseDone, RecordCardWon
from rules.bidding.actions import Bid, GiveBackCards, KaramaBuy, KaramaTakeHand, SupportBids
from rules.bidding.events import (
    AuctionOpened,
    BidMade,
    BidsSupported,
    CardsGivenBack,
    CardsLaidOut,
    CardsReturned,
    HandDeclared,
    HandTaken,
)
from rules.bidding.model import Auction, bids, bids_changed
from rules.bribes import MAX_AMOUNT, holds_spice
from rules.components import extras
from rules.decks import draw_treachery
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import CardDiscarded, CardWon, Event, KaramaPower, Passed
from rules.factions import Faction, same_card
from rules.game_model import GamePhase, PhaseStep
from rules.model import Ability
from rules.phase_spec import Stepped, first_of
from rules.position import Position
from rules.variants import KaramaBid

PHASE_RULE = "1.04"
INELIGIBLE_RULE = "1.04.03"
TURN_RULE = "1.04.05"
RAISE_RULE = "1.04.06"
OPEN_RULE = "1.04.06.01"
BUY_RULE = "1.04.06.02"
BID_LIMIT_RULE = "1.04.06.03"
KARAMA_RULE = "3.01.11.04"
ALLY_RULE = "1.10.02.04"
GIVE_SPICE_RULE = "2.03.06"
TOP_CARD_RULE = "2.05.08"
TAKE_HAND_RULE = "1.14.04"


class BiddingStep(StrEnum):
    """The Bidding phase's steps: the auction of the card on offer, and the Harkonnen
    giving back the cards their Karama took (1.14.04)."""

    AUCTION = "auction"
    GIVE_BACK = "give_back"


# -- who can bid --------------------------------------------------------------------


def hand_limit(faction: Faction) -> int:
    return int(extras(faction)["hand_limit"])


def full_hand(state: Position, faction: Faction) -> bool:
    """1.04.02-1.04.03: a full hand cannot bid."""
    return len(state.factions[faction].cards) >= hand_limit(faction)


def support_for(state: Position, faction: Faction) -> int:
    """What ``faction``'s ally commits to its bids now (1.10.02.04), capped by what the
    ally holds."""
    ally = state.ally_of(faction)
    if ally is None:
        return 0
    return min(bids(state.whole).bid_support.get(ally, 0), state.factions[ally].spice)


def bid_limit(state: Position, faction: Faction) -> int:
    """1.04.06.03: spice held plus the ally's commitment (a Karama aside)."""
    return state.factions[faction].spice + support_for(state, faction)


def karama_for_bidding(state: Position, faction: Faction) -> str | None:
    """The Karama ``faction`` could use to buy or out-bid (never with a full hand)."""
    return None if full_hand(state, faction) else state.karama_card(faction)


def can_raise(state: Position, faction: Faction, high_bid: int) -> bool:
    """Whether ``faction`` could raise ``high_bid`` now (a secret: its own prompt and
    standing order may use it; whom the auction asks never does)."""
    if full_hand(state, faction):
        return False
    return bid_limit(state, faction) > high_bid or state.karama_card(faction) is not None


def eligible(state: Position, faction: Faction) -> bool:
    """1.04.03: a player may bid unless its hand is full (public: hands are declared)."""
    return not full_hand(state, faction)


def _askable(state: Position, auction: Auction, faction: Faction) -> bool:
    return (
        faction is not auction.high_bidder
        and faction not in auction.passed
        and eligible(state, faction)
    )


def _after(order: tuple[Faction, ...], faction: Faction | None) -> tuple[Faction, ...]:
    """Storm order starting after ``faction`` (from the first player when None)."""
    if faction is None or faction not in order:
        return order
    i = order.index(faction)
    return order[i + 1 :] + order[: i + 1]


# -- the phase ------------------------------------------------------------------------


def begin(state: Position) -> list[Event]:
    """Declare hands, lay out one card per player allowed to bid, open the first card."""
    game = state.whole
    events: list[Event] = [HandDeclared(f, len(state.factions[f].cards)) for f in game.order]
    state.set_game(parts=bids_changed(state.whole, auction=None, bid_support={}, give_back=None))
    cards: list[str] = []
    for _ in [f for f in game.order if not full_hand(state, f)]:
        card, shuffled = draw_treachery(state)
        events += shuffled
        if card is None:
            break
        cards.append(card)
    events.append(CardsLaidOut(len(cards)))
    if not cards:
        state.set_game(step=PhaseStep.DONE, waiting=())
        return events
    return events + _open(state, tuple(cards), 1, len(cards), None)


def _open(
    state: Position, cards: tuple[str, ...], number: int, of: int, previous: Faction | None
) -> list[Event]:
    """Put ``cards[0]`` on offer; the opening goes to the first eligible player after the
    previous opener (1.04.05.02, 1.04.07). Nobody eligible: bought in."""
    opener = next((f for f in _after(state.whole.order, previous) if eligible(state, f)), None)
    if opener is None:
        return _bought_in(state, cards)
    seen, stopped = (
        karama_turn.uses(state, Ability.ATREIDES_BIDDING)
        if state.in_game(Faction.ATREIDES)
        else (True, [])
    )
    auction = Auction(
        cards=cards, number=number, of=of, opener=opener, bidder=opener, unseen=not seen
    )
    state.set_game(
        parts=bids_changed(state.whole, auction=auction),
        step=BiddingStep.AUCTION,
        waiting=(opener,),
    )
    return [*stopped, AuctionOpened(number, of, opener)]


def _next(state: Position, after: Faction) -> list[Event]:
    """The turn goes round in storm order to the next eligible player who has not passed
    since the last bid; when nobody is left the card is sold to the high bidder, or
    bought in."""
    auction = bids(state.whole).auction
    assert auction is not None
    nxt = next((f for f in _after(state.whole.order, after) if _askable(state, auction, f)), None)
    if nxt is not None:
        state.set_game(
            parts=bids_changed(state.whole, auction=replace(auction, bidder=nxt)),
            step=BiddingStep.AUCTION,
            waiting=(nxt,),
        )
        return []
    if auction.high_bidder is None:
        return _bought_in(state, auction.cards)
    return _sell(state, auction)


def _bought_in(state: Position, cards: tuple[str, ...]) -> list[Event]:
    """1.04.09: the card and every one not yet sold go back on top of the deck, in the order
    they were laid out, and the phase ends."""
    state.set_game(
        parts=bids_changed(state.whole, auction=None),
        treachery_deck=(*cards, *state.whole.treachery_deck),
        step=PhaseStep.DONE,
        waiting=(),
    )
    return [CardsReturned(len(cards))]


def _sell(state: Position, auction: Auction) -> list[Event]:
    winner = auction.high_bidder
    assert winner is not None
    events: list[Event] = []
    karama = state.karama_card(winner) if auction.karama else None
    if karama is not None:
        state.discard(winner, karama)
        events.append(CardDiscarded(winner, karama))
        price = min(auction.high_bid, bid_limit(state, winner))
        price = price if state.rules.karama_bid is KaramaBid.PAY else 0
        rule = KARAMA_RULE
    else:  # no bribe or gift lowers a standing bid's spice (check_standing_bid); a
        # moderator's correction can: then what it can, up to the bid
        price, rule = min(auction.high_bid, bid_limit(state, winner)), BUY_RULE
    events += _award(state, winner, price, rule)
    return events + _following(state, auction)


def _award(state: Position, winner: Faction, price: int, rule: str) -> list[Event]:
    """The card on offer goes to ``winner`` for ``price``: its own spice first, its ally's
    commitment the rest (1.10.02.04), to the Emperor when another faction pays (2.03.04);
    the Harkonnen draw one more (2.05.08). A Karama played ahead against either ability
    stops it this once (reading K1): the spice goes to the bank, no card is drawn."""
    game = state.whole
    auction = bids(game).auction
    assert auction is not None
    own = min(price, state.factions[winner].spice)
    ally = state.ally_of(winner) if price > own else None
    parts = [(winner, own), *([(ally, price - own)] if ally is not None else [])]
    emperor, events = _emperor_paid(state, parts)
    paid_to = pay_for_card(state, parts, emperor)
    if ally is not None:
        support = dict(bids(game).bid_support)
        support[ally] = max(0, support.get(ally, 0) - (price - own))
        state.set_game(
            parts=bids_changed(state.whole, bid_support={f: n for f, n in support.items() if n})
        )
    state.update(winner, cards=(*state.factions[winner].cards, auction.cards[0]))
    events.append(CardWon(winner, price, paid_to, rule, ally, price - own if ally else 0))
    if winner is Faction.HARKONNEN and not full_hand(state, winner):
        free, stopped = karama_turn.uses(state, Ability.TOP_CARD)
        events += draw_top_card(state, winner) if free else stopped
    return events


def _emperor_paid(
    state: Position, parts: list[tuple[Faction, int]]
) -> tuple[Faction | None, list[Event]]:
    """The Emperor, if it is to be paid for this card and no Karama stops it (reading K1)."""
    emperor = Faction.EMPEROR if Faction.EMPEROR in state.factions else None
    if emperor is None or not any(n > 0 and f is not emperor for f, n in parts):
        return None, []
    paid, stopped = karama_turn.uses(state, Ability.EMPEROR_PAYMENT)
    return (emperor if paid else None), stopped


def pay_for_card(
    state: Position, parts: list[tuple[Faction, int]], emperor: Faction | None
) -> Faction | None:
    """Each payer pays its part to the Emperor, the Emperor its own to the bank (2.03.04);
    the Emperor if it received some spice, else None."""
    received = False
    for payer, amount in parts:
        to = emperor if payer is not emperor else None
        state.pay(payer, amount, to)
        received = received or (to is not None and amount > 0)
    return emperor if received else None


def draw_top_card(state: Position, harkonnen: Faction) -> list[Event]:
    """TOP CARD (2.05.08): the Harkonnen draw one more card free (if the deck has one)."""
    extra, events = draw_treachery(state)
    if extra is not None:
        state.update(harkonnen, cards=(*state.factions[harkonnen].cards, extra))
        events.append(CardWon(harkonnen, 0, None, TOP_CARD_RULE))
    return events


def _following(state: Position, auction: Auction) -> list[Event]:
    """The next card laid out (1.04.07), or the end of the phase (1.04.08)."""
    rest = auction.cards[1:]
    if not rest:
        state.set_game(
            parts=bids_changed(state.whole, auction=None), step=PhaseStep.DONE, waiting=()
        )
        return []
    return _open(state, rest, auction.number + 1, auction.of, auction.opener)


# -- the bidder's actions ---------------------------------------------------------------


def _auction(state: Position, faction: Faction, what: str) -> Auction:
    game = state.whole
    auction = bids(game).auction
    if game.phase is not GamePhase.BIDDING or game.step != BiddingStep.AUCTION or auction is None:
        raise NotYourTurnError(
            f"no card is on offer now: {what} belongs to the Bidding phase's auction",
            rule=PHASE_RULE,
        )
    return auction


def _bidder(state: Position, faction: Faction, what: str, rule: str) -> Auction:
    auction = _auction(state, faction, what)
    if full_hand(state, faction):
        raise IllegalActionError(
            f"{faction.label} holds {len(state.factions[faction].cards)} cards, a full hand: "
            "it cannot bid",
            rule=rule,
        )
    if faction is not auction.bidder:
        raise NotYourTurnError(
            f"it is {auction.bidder.label}'s turn to bid or pass, not {faction.label}'s",
            rule=TURN_RULE,
        )
    return auction


def bid(state: Position, action: Bid) -> list[Event]:
    faction, amount = action.faction, action.amount
    rule = KARAMA_RULE if action.karama else INELIGIBLE_RULE
    auction = _bidder(state, faction, "a bid", rule)
    if not 0 < amount <= MAX_AMOUNT:
        raise InvalidActionError(
            f"a bid is a number of spice from 1, not {quote(amount)}", rule=OPEN_RULE
        )
    if amount <= auction.high_bid:
        raise IllegalActionError(
            f"a bid must raise the high bid of {auction.high_bid}: {quote(amount)} does not",
            rule=RAISE_RULE,
        )
    if action.karama:
        if state.karama_card(faction) is None:
            raise IllegalActionError(
                f"{faction.label} holds no Karama to bid beyond its spice", rule=KARAMA_RULE
            )
    elif amount > bid_limit(state, faction):
        support = support_for(state, faction)
        ally = f" and {support} committed by its ally" if support else ""
        raise IllegalActionError(
            f"{faction.label} may bid up to the {state.factions[faction].spice} spice it "
            f"holds{ally}, not {quote(amount)}",
            rule=BID_LIMIT_RULE,
        )
    passed = auction.passed if state.rules.bid_pass_final else ()
    state.set_game(
        parts=bids_changed(
            state.whole,
            auction=replace(
                auction, high_bid=amount, high_bidder=faction, karama=action.karama, passed=passed
            ),
        )
    )
    return [BidMade(faction, amount), *_next(state, faction)]


def pass_(state: Position, action: Pass) -> list[Event]:
    faction = action.faction
    auction = _auction(state, faction, "a pass")
    if faction is not auction.bidder:
        raise NotYourTurnError(
            f"it is {auction.bidder.label}'s turn to bid or pass, not {faction.label}'s",
            rule=TURN_RULE,
        )
    state.set_game(
        parts=bids_changed(state.whole, auction=replace(auction, passed=(*auction.passed, faction)))
    )
    return [Passed(faction, GamePhase.BIDDING.value), *_next(state, faction)]


def karama_buy(state: Position, action: KaramaBuy) -> list[Event]:
    """3.01.11.04 (a): take the card on offer without paying; the Karama is discarded."""
    faction = action.faction
    auction = _bidder(state, faction, "a Karama buy", KARAMA_RULE)
    card = state.karama_card(faction)
    if card is None:
        raise IllegalActionError(f"{faction.label} holds no Karama", rule=KARAMA_RULE)
    state.discard(faction, card)
    events: list[Event] = [CardDiscarded(faction, card)]
    events += _award(state, faction, 0, KARAMA_RULE)
    return events + _following(state, auction)


# -- an ally's commitment ---------------------------------------------


@holds_spice
def check_standing_bid(state: Position, rule: str = BUY_RULE) -> None:
    """A commitment, a gift or a bribe may not leave the high bidder unable to pay its bid
    (1.04.06.02): the bidder's spice and its ally's commitment stand behind it."""
    auction = bids(state.whole).auction
    if auction is None or auction.high_bidder is None or auction.karama:
        return
    if bid_limit(state, auction.high_bidder) < auction.high_bid:
        raise IllegalActionError(
            f"{auction.high_bidder.label}'s standing bid of {auction.high_bid} counts on that "
            "spice",
            rule=rule,
        )


def support_bids(state: Position, action: SupportBids) -> list[Event]:
    """1.10.02.04: an ally commits up to ``amount`` of its spice to its ally's bids."""
    faction, amount = action.faction, action.amount
    game = state.whole
    if game.phase is not GamePhase.BIDDING or game.step not in (
        BiddingStep.AUCTION,
        BiddingStep.GIVE_BACK,
    ):
        raise NotYourTurnError(
            "spice is committed to an ally's bids during the auction", rule=ALLY_RULE
        )
    if state.ally_of(faction) is None:
        raise IllegalActionError(f"{faction.label} has no ally to support", rule=ALLY_RULE)
    if not 0 <= amount <= MAX_AMOUNT:
        raise InvalidActionError(f"a commitment cannot be {quote(amount)} spice", rule=ALLY_RULE)
    if amount > state.factions[faction].spice:
        raise IllegalActionError(
            f"{faction.label} holds {state.factions[faction].spice} spice: it cannot commit "
            f"{quote(amount)}",
            rule=ALLY_RULE,
        )
    support = {f: n for f, n in bids(game).bid_support.items() if f is not faction}
    state.set_game(
        parts=bids_changed(
            state.whole, bid_support={**support, faction: amount} if amount else support
        )
    )
    check_standing_bid(state, ALLY_RULE)
    return [BidsSupported(faction)]


# -- the Harkonnen's Karama power (1.14.04) --------------------------------------------


def karama_take_hand(state: Position, action: KaramaTakeHand) -> list[Event]:
    faction = action.faction
    game = state.whole
    karama_turn.check_power(state, faction, Faction.HARKONNEN, TAKE_HAND_RULE)
    _auction(state, faction, "taking a hand")
    target = Faction.parse(action.target)
    if target is None or target not in state.factions or target is faction:
        raise InvalidActionError(
            f"{quote(action.target)} is not another faction in this game", rule=TAKE_HAND_RULE
        )
    taken = state.factions[target].cards
    if not taken:
        raise IllegalActionError(f"{target.label} hold no cards", rule=TAKE_HAND_RULE)
    card = state.karama_card(faction)
    if card is None:
        raise IllegalActionError("the Harkonnen hold no Karama", rule=TAKE_HAND_RULE)
    state.discard(faction, card)
    state.update(target, cards=())
    state.update(faction, cards=(*state.factions[faction].cards, *taken))
    state.set_game(
        parts=bids_changed(state.whole, give_back=(target, len(taken))),
        karama_powers_used=game.karama_powers_used | {faction},
        step=BiddingStep.GIVE_BACK,
        waiting=(faction,),
    )
    return [
        KaramaPower(faction, card, "take_hand", None, TAKE_HAND_RULE),
        HandTaken(faction, target, len(taken)),
    ]


def give_back_cards(state: Position, action: GiveBackCards) -> list[Event]:
    faction = action.faction
    game = state.whole
    taken = bids(game).give_back
    if game.phase is not GamePhase.BIDDING or game.step != BiddingStep.GIVE_BACK or taken is None:
        raise NotYourTurnError(
            "no hand was taken: there is nothing to give back", rule=TAKE_HAND_RULE
        )
    if faction is not Faction.HARKONNEN:
        raise NotYourTurnError("the Harkonnen give the cards back", rule=TAKE_HAND_RULE)
    target, count = taken
    names = [n.strip() for n in action.cards.split(",") if n.strip()]
    if len(names) != count:
        raise InvalidActionError(
            f"give back exactly {count} cards, not {quote(action.cards)}", rule=TAKE_HAND_RULE
        )
    hand = list(state.factions[faction].cards)
    given: list[str] = []
    for name in names:
        found = next((c for c in hand if same_card(c, name)), None)
        if found is None:
            raise IllegalActionError(
                f"the Harkonnen hold no {quote(name)} to give back", rule=TAKE_HAND_RULE
            )
        hand.remove(found)
        given.append(found)
    state.update(faction, cards=tuple(hand))
    state.update(target, cards=(*state.factions[target].cards, *given))
    auction = bids(game).auction
    assert auction is not None
    state.set_game(
        parts=bids_changed(state.whole, give_back=None),
        step=BiddingStep.AUCTION,
        waiting=(auction.bidder,),
    )
    events: list[Event] = [CardsGivenBack(faction, target, count)]
    if not _askable(state, auction, auction.bidder):  # the bidder's hand is full now
        events += _next(state, auction.bidder)
    return events


# -- the moderator ----------------------------------------------------------------------


def check_record(state: Position, action: RecordCardWon) -> None:
    """A card the moderator records during the auction corrects hands; it neither answers
    nor moves the auction, and cannot go to the high bidder (its card is to come)."""
    game = state.whole
    if game.phase is not GamePhase.BIDDING or game.step not in (
        BiddingStep.AUCTION,
        BiddingStep.GIVE_BACK,
    ):
        raise NotYourTurnError("a card is recorded in the Bidding phase", rule=PHASE_RULE)
    auction = bids(game).auction
    if auction is not None and action.faction is auction.high_bidder:
        raise IllegalActionError(
            f"{action.faction.label} holds the high bid: let the auction sell it the card first",
            rule=BUY_RULE,
        )


def after_record(state: Position) -> list[Event]:
    """After a recorded card, a bidder whose hand is now full is skipped."""
    game = state.whole
    auction = bids(game).auction
    if (
        game.step != BiddingStep.AUCTION
        or auction is None
        or _askable(state, auction, auction.bidder)
    ):
        return []
    return _next(state, auction.bidder)


def phase_done(state: Position, action: PhaseDone) -> list[Event]:
    """The moderator ends the auction early: the cards not sold go back on top in order."""
    game = state.whole
    if game.step == BiddingStep.GIVE_BACK:
        raise IllegalActionError(
            "the Harkonnen first give back the cards they took", rule=TAKE_HAND_RULE
        )
    auction = bids(game).auction
    if auction is None:
        state.set_game(step=PhaseStep.DONE, waiting=())
        return []
    return _bought_in(state, auction.cards)


# -- choices -----------------------------------------------------------------------------


def candidates(state: Position, faction: Faction) -> list[FactionAction]:
    """What ``faction`` may choose now: Pass, the minimum raise and a few more, a Karama
    buy or bid; an ally's commitment; the Harkonnen's Karama power; giving back."""
    game = state.whole
    out: list[FactionAction] = []
    taken = bids(game).give_back
    if game.step == BiddingStep.GIVE_BACK and taken and faction is Faction.HARKONNEN:
        hand = state.factions[faction].cards
        count = taken[1]
        out += [GiveBackCards(faction, ", ".join(hand[-count:]))]
        out += [GiveBackCards(faction, ", ".join(hand[:count]))]
        return out
    auction = bids(game).auction
    if game.step != BiddingStep.AUCTION or auction is None:
        return out
    if faction is auction.bidder:
        out.append(Pass(faction))
        high, limit = auction.high_bid, bid_limit(state, faction)
        raises = sorted({high + 1, high + 2, high + 3, high + 5, limit})
        out += [Bid(faction, n) for n in raises if high < n <= limit]
        if karama_for_bidding(state, faction) is not None:
            out += [KaramaBuy(faction), Bid(faction, max(high, limit) + 1, karama=True)]
    ally = state.ally_of(faction)
    if ally is not None:
        current = bids(game).bid_support.get(faction, 0)
        out += [SupportBids(faction, n) for n in {0, state.factions[faction].spice} - {current}]
    if faction is Faction.HARKONNEN and faction not in game.karama_powers_used:
        out += [KaramaTakeHand(faction, f.value) for f in game.order if f is not faction]
    return out


def cards_in_play(state: Position) -> Counter[str]:
    """Every treachery card: deck, discard, hands, on offer, out of the game (a check)."""
    game = state.whole
    found: Counter[str] = Counter(game.treachery_deck)
    found.update(game.treachery_discard)
    found.update(game.cards_out)
    found.update(c for s in state.factions.values() for c in s.cards)
    auction = bids(game).auction
    found.update(auction.cards if auction else ())
    return found


def auction_open(game: Stepped) -> bool:
    """A card is on offer: each turn to bid is asked alike (docs/secrets-and-waits.md)."""
    return game.phase == GamePhase.BIDDING and game.step == BiddingStep.AUCTION


def giving_back(game: Stepped) -> bool:
    """The Harkonnen give back the cards their Karama took (1.14.04)."""
    return game.phase == GamePhase.BIDDING and game.step == BiddingStep.GIVE_BACK


def turn_to_bid(state: Position) -> str:
    """In the auction, each turn to bid is a wait of its own (its own prompt, ping and
    deadline): the card on offer, the high bid and the bidder name it (the same bidder
    never meets the same high bid twice on one card). Public facts only."""
    auction = bids(state.whole).auction if state.whole.phase is GamePhase.BIDDING else None
    if auction is None:
        return ""
    return f":card{auction.number}:{auction.high_bid}:{auction.bidder}"


def default(
    state: Position,
    faction: Faction,
    legal: Sequence[FactionAction],
    is_legal: Callable[[Action], bool],
) -> FactionAction | None:
    """The Harkonnen give back the cards they took (the last of their hand, 1.14.04); the
    auction: a pass (the fallback)."""
    return first_of(legal, GiveBackCards)
