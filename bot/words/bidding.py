"""Words for the Bidding phase the engine runs (1.04).

:func:`describe_auction_event` gives the public sentence of each of its events: counts,
bids, passes, sales (who bought, the price; never which card). It reads only the event, and
these events are public by contract (rules/events.py), so the sentence may go to any
channel. :func:`auction_wait` says publicly whom the auction waits for.

:func:`own_lines` gives one faction its own side of the same events, read from its
:class:`~rules.view.PrivateView` after them: the Atreides' look at the card on offer
(2.01.05), the card bought, the spice left after paying, the hand taken or given back.
:func:`bid_prompt` is what the bidder is asked; :func:`declined` what a pass declines in the
auction. :data:`WORDS` registers them for the generic words (:mod:`bot.words.phase_words`);
the Revival phase's are :mod:`bot.words.revival`'s.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.orders import asked_alike
from bot.publisher import Answer, PrivateNotice
from bot.words.answers import buttons, presents
from bot.words.common import and_list, plural, possessive
from bot.words.phase_words import OrderWords, PhaseWords, register
from bot.words.refusals import SessionError
from rules.actions import Action, FactionAction
from rules.bidding import auction as bidding
from rules.bidding.actions import Bid, KaramaBuy
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
from rules.bidding.model import AUCTION
from rules.bidding.orders import ORDER
from rules.bidding.orders import PATTERN as ORDER_PATTERN
from rules.bidding.view import AuctionView, auction_of, auction_secrets
from rules.events import CardWon, Event, KaramaPower, SpiceGiven
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.view import PrivateView, PublicView, game_view

KARAMA_RULE = "3.01.11.04"
HARKONNEN_CARD_RULE = "2.05.08"
AUCTION_RULE = "1.04.05"  # the auction goes round: each card is bid on in turn
EMPEROR_KARAMA_RULE = "1.14.02"
GHOLA_RULE = "3.01.20"
EMPEROR_ALLY_RULE = "2.03.07"
POWERS = {"take_hand": "to take a whole hand"}


# -- public sentences --------------------------------------------------------------------


def price_words(event: CardWon) -> str:
    """A card's price and where it went: "5 spice, paid to Emperor", or with the ally's
    part, each part's way (a part the Emperor pays itself goes to the Spice Bank)."""
    if event.ally is None or not event.ally_paid:
        return f"{event.price} spice, paid to {_payee(event, event.faction)}"
    own = event.price - event.ally_paid
    return (
        f"{event.price} spice: {own} paid to {_payee(event, event.faction)}, {event.ally_paid} "
        f"by its ally {event.ally.label} to {_payee(event, event.ally)}"
    )


def _payee(event: CardWon, payer: Faction) -> str:
    to = event.paid_to
    return to.label if to is not None and to is not payer else "the Spice Bank"


def describe_auction_event(event: Event) -> str | None:
    """The public sentence of a Bidding event (None for any other)."""
    match event:
        case HandDeclared(faction=faction, cards=cards):
            return f"{faction.label} declares {plural(cards, 'treachery card')} in hand."
        case CardsLaidOut(count=0):
            return "No card is laid out: nobody may bid this turn."
        case CardsLaidOut(count=count):
            return f"{plural(count, 'treachery card')} laid out face down for bidding."
        case AuctionOpened(number=number, of=of, opener=opener):
            return f"**Card {number} of {of}** is on offer; {opener.label} opens the bidding."
        case BidMade(faction=faction, amount=amount):
            return f"{faction.label} bids {amount}."
        case CardWon(faction=faction, rule=rule, price=0) if rule == KARAMA_RULE:
            return f"{faction.label} plays Karama: it takes the card on offer, paying nothing."
        case CardWon(faction=faction, rule=rule) if rule == KARAMA_RULE:
            return (
                f"{faction.label} plays Karama: it takes the card on offer for "
                f"{price_words(event)}."
            )
        case CardWon(faction=faction, rule=rule) if rule == HARKONNEN_CARD_RULE:
            return f"{faction.label} draws a free treachery card (Harkonnen)."
        case CardWon(faction=faction, price=0):
            return f"{faction.label} takes a treachery card for free."
        case CardWon(faction=faction) as won:
            return f"{faction.label} wins a treachery card for {price_words(won)}."
        case CardsReturned(count=count):
            return (
                f"Everyone passes: {plural(count, 'card')} not sold "
                f"{'goes' if count == 1 else 'go'} back on top of the treachery deck."
            )
        case BidsSupported(faction=faction):
            return f"{faction.label} changes what it commits to its ally's bids."
        case HandTaken(faction=faction, target=target, count=count):
            hand = plural(count, "card")
            return f"{faction.label} takes {possessive(target)} whole hand ({hand})."
        case CardsGivenBack(faction=faction, target=target, count=count):
            return f"{faction.label} gives {plural(count, 'card')} back to {target.label}."
        case SpiceGiven(faction=faction, to=to):
            return f"{faction.label} gives spice to {to.label}, its ally."
        case KaramaPower(faction=faction, card=card, power=power) if power in POWERS:
            return f"{faction.label} plays {card} {POWERS[power]} (once a game)."
    return None


def auction_words(auction: AuctionView) -> str:
    """The auction as everyone sees it: "card 2 of 5, high bid 3 by Harkonnen"."""
    high = (
        f"high bid {auction.high_bid} by {auction.high_bidder.label}"
        if auction.high_bidder is not None
        else "no bid yet"
    )
    return f"card {auction.number} of {auction.of}, {high}"


def auction_wait(view: PublicView) -> str:
    """Whom the Bidding phase waits for, publicly ("" when it waits for nobody)."""
    game = view.game
    if game.phase != GamePhase.BIDDING.value or not game.waiting:
        return ""
    who = game.waiting[0].label
    if bidding.giving_back(game):
        return f"Waiting for {who} to give cards back (Bidding)."
    auction = auction_of(game)
    if auction is None:
        return f"Waiting for {who} (Bidding)."
    return f"Waiting for {who} to bid or pass (Bidding: {auction_words(auction)})."


# -- a faction's own side ----------------------------------------------------------------


def own_lines(events: Iterable[Event], view: PrivateView) -> list[str]:
    """What ``view.faction`` alone learns from Bidding events."""
    events = list(events)
    own = view.faction
    lines: list[str] = []
    secrets = view.secrets
    opened = [e for e in events if isinstance(e, AuctionOpened)]
    seen = auction_secrets(secrets).card_on_offer if secrets is not None else None
    if opened and seen is not None:
        number, of = opened[-1].number, opened[-1].of
        lines.append(
            f"Card {number} of {of}, seen before bidding (only you see it, 2.01.05): {seen}."
        )
    won = [e for e in events if isinstance(e, CardWon)]
    paid = sum(n for e in won for f, n in e.parts if f is own)
    earned = sum(e.received for e in won if e.paid_to is own)
    if paid:
        lines.append(f"You pay {paid} spice; you now hold {view.spice}.")
    if earned:
        lines.append(f"You receive {earned} spice for cards sold; you now hold {view.spice}.")
    moved = [
        e
        for e in events
        if isinstance(e, HandTaken | CardsGivenBack) and own in (e.faction, e.target)
    ]
    given = any(isinstance(e, SpiceGiven) and own in (e.faction, e.to) for e in events)
    if moved:
        lines.append(f"Your hand now: {and_list(list(view.cards)) or 'no cards'}.")
    if given:
        lines.append(f"You now hold {view.spice} spice.")
    return lines


# -- what a faction is asked ---------------------------------------------------------------


@presents(Bid, KaramaBuy)
def bid_button(state: GameState, action: FactionAction) -> Answer | None:
    """A bid the engine offers ("Bid 4 (+1)": the raise over the high bid), a bid or a buy
    with Karama."""
    auction = AUCTION.of(state.whole)
    match action:
        case Bid(amount=amount, karama=True):
            return Answer(action, f"Bid {amount} with Karama", f"Done: you bid {amount}")
        case Bid(amount=amount):
            high = auction.high_bid if auction is not None else 0
            label = f"Bid {amount} (+{amount - high})" if amount > high else f"Bid {amount}"
            return Answer(action, label, f"Done: you bid {amount}")
        case KaramaBuy():
            return Answer(action, "Take it with Karama", "Card taken with Karama")
    return None


def bid_prompt(
    state: GameState, faction: Faction, token: str | None, deadline: str
) -> PrivateNotice:
    """The bidder's private prompt: the card on offer (by number), the high bid, its spice
    and its ally's commitment; buttons for a pass and the next useful raises."""
    game = state.whole
    mine = state.view_for(faction)
    auction = auction_of(mine.public.game)
    head = f"**Turn {game.turn}, Bidding**: your turn to bid"
    if bidding.giving_back(game) or auction is None:
        return _give_back_prompt(state, faction, token, deadline)
    high = auction.high_bid
    lines = [
        f"{head} on card {auction.number} of {auction.of} ({auction.opener.label} opened). "
        + (
            f"High bid: {high} by {auction.high_bidder.label}."
            if auction.high_bidder is not None
            else "No bid yet."
        )
    ]
    secrets = auction_secrets(mine.secrets)
    if secrets.card_on_offer is not None:
        lines.append(f"The card (only you see it, 2.01.05): {secrets.card_on_offer}.")
    support = secrets.bid_support
    ally = f"; your ally commits {support} to your bids" if support else ""
    lines.append(f"You hold {mine.spice} spice{ally}.")
    offered = buttons(state, state.legal_actions(faction))
    legal = set(state.legal_actions(faction).kinds())
    bids = any(isinstance(a.action, Bid) for a in offered)
    how = "Raise with a button or `/bid amount`" if bids else "Bid with `/bid amount`"
    if "karama_buy" in legal:
        how += "; take the card with a Karama card with `/karama buy`"
    lines.append(f"{how}; or pass. If you do not answer in time, you pass. Deadline: {deadline}.")
    if alike := asked_alike(state, faction):
        lines.append(alike)
    return PrivateNotice(faction, "\n".join(lines), answers=offered, token=token)


def bid_status(state: GameState, faction: Faction) -> str:
    """The bidding as ``faction`` sees it when it is not its turn: the card on offer (by
    number; the Atreides see it), the high bid, whose turn it is, its spice and its ally's
    commitment."""
    mine = state.view_for(faction)
    game = mine.public.game
    auction = auction_of(game)
    if game.phase != GamePhase.BIDDING.value or auction is None:
        return "No card is on offer now."
    lines = [f"Bidding: {auction_words(auction)}; {auction.bidder.label} to bid or pass."]
    secrets = auction_secrets(mine.secrets)
    if secrets.card_on_offer is not None:
        lines.append(f"The card (only you see it, 2.01.05): {secrets.card_on_offer}.")
    support = secrets.bid_support
    given = secrets.bid_support_given
    ally = f"; your ally commits {support} to your bids" if support else ""
    ally += f"; you commit {given} to your ally's bids" if given else ""
    lines.append(f"You hold {mine.spice} spice{ally}.")
    return "\n".join(lines)


def _give_back_prompt(
    state: GameState, faction: Faction, token: str | None, deadline: str
) -> PrivateNotice:
    mine = state.view_for(faction)
    text = (
        f"**Turn {state.whole.turn}, Bidding**: give back as many cards as you took, with "
        f"`/give-back cards` (names separated by commas). Your hand: "
        f"{and_list(list(mine.cards)) or 'no cards'}. Deadline: {deadline}."
    )
    return PrivateNotice(faction, text, token=token)


def answer_words(action: FactionAction) -> str | None:
    """A bidding answer in its faction's words (None for any other action)."""
    match action:
        case Bid(amount=amount, karama=True):
            return f"you bid {amount} with a Karama card"
        case Bid(amount=amount):
            return f"you bid {amount}"
        case KaramaBuy():
            return "you take the card with a Karama card"
    return None


# -- a pass in the auction (bot.session.passes) --------------------------------------------


def _card(state: GameState) -> str | None:
    """The card on offer in public words ("card 2 of 4"), None outside the auction."""
    on_offer = auction_of(game_view(state))
    return f"card {on_offer.number} of {on_offer.of}" if on_offer is not None else None


def declined(state: GameState, faction: Faction) -> tuple[str, str, str | None]:
    """What a pass declines in the Bidding phase: the card on offer ("you pass on card 2
    of 4"), the card, and the auction's rule."""
    card = _card(state)
    reply = f"you pass on {card}" if card else "you pass"
    return reply, card or "the card on offer", AUCTION_RULE


def passed_on_this_card(state: GameState, faction: Faction) -> None:
    """In the auction, a faction that passed since the last bid and is not asked now has
    already passed on the card on offer: its ``/pass`` is refused, saying so."""
    on_offer = auction_of(game_view(state))
    if on_offer is not None and faction in on_offer.passed and faction is not on_offer.bidder:
        raise SessionError(
            f"you already passed on card {on_offer.number} of {on_offer.of}", rule=AUCTION_RULE
        )


def _answer(action: Action) -> str | None:
    return answer_words(action) if isinstance(action, FactionAction) else None


def _atreides(event: Event) -> tuple[Faction, ...]:
    """The Atreides see each card on offer (2.01.05)."""
    return (Faction.ATREIDES,) if isinstance(event, AuctionOpened) else ()


def bidding_order(value: str) -> str:
    """A bidding order in words (:mod:`rules.bidding.orders`)."""
    found = ORDER_PATTERN.match(value)
    if found is None:
        return "as ordered"
    if found["turn"] is not None:
        return f"pass on every card of the turn {int(found['turn'])} Bidding phase"
    n, turn, card = int(found["n"]), int(found["t"]), int(found["card"])
    if n == 0:
        return f"pass on card {card} of turn {turn}"
    return (
        f"bid up to {n} on card {card} of turn {turn} (raise by 1 when your turn comes, "
        f"never beyond {n}; pass once you cannot)"
    )


WORDS = register(
    PhaseWords(
        GamePhase.BIDDING,
        name="Bidding",
        describe=describe_auction_event,
        own_lines=own_lines,
        own_side=(AuctionOpened, CardWon, HandTaken, CardsGivenBack, SpiceGiven),
        seen_by=_atreides,
        answer=_answer,
        wait=auction_wait,
        prompt=bid_prompt,
        declines=declined,
        pass_check=passed_on_this_card,
        passes={"": "passes"},
        pass_answer="you pass on the card on offer",
        order=OrderWords(ORDER.name, "Bidding", bidding_order),
    )
)
"""The Bidding phase's words, for the generic words."""
