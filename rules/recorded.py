"""The moderators' records: corrections of the Bidding, Revival and Battle phases, which
the engine runs (:mod:`rules.bidding`, :mod:`rules.revival`, :mod:`rules.battle`).

A record (a card won, a battle's losses, a leader killed, a payment...) is checked against
the rules it can be checked against and leaves the phase where it stands; "phase done"
ends a phase early where the engine allows it (its spec's ``phase_done``, :mod:`rules.phase_spec`).
"""

from __future__ import annotations

from rules.actions import (
    FactionAction,
    PhaseDone,
    Record,
    RecordBattle,
    RecordCardWon,
    RecordDiscard,
    RecordGhola,
    RecordIncome,
    RecordLeaderKilled,
    RecordLosses,
    RecordPayment,
    RecordRevival,
)
from rules.battle import flow as battle_flow
from rules.battle.model import BattleStep
from rules.battle.plans import locked_plans
from rules.bidding.auction import draw_top_card, pay_for_card
from rules.bribes import check_spice_held
from rules.components import extras
from rules.decks import draw_treachery
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import (
    BattleRecorded,
    CardDiscarded,
    CardWon,
    Event,
    ForcesLost,
    SpicePaid,
    SpiceReceived,
)
from rules.factions import Faction, same_card
from rules.game_model import GamePhase, PhaseStep
from rules.model import Stack
from rules.position import Position
from rules.revival import GHOLA_FORCES, reviving

BUY_RULE = "1.04.06.02"
HAND_RULE = "1.04.02"
BID_LIMIT_RULE = "1.04.06.03"
ALLY_BID_RULE = "1.10.02.04"
EMPEROR_RULE = "2.03.04"
BATTLE_RULE = "1.07.06"
CAPTURE_RULE = "2.05.10"  # the Harkonnen capture (rules.battle_resolution)
KWISATZ_HADERACH_LOSSES = 7  # 2.01.10: battle losses over the whole game
PHASE_RULES = {GamePhase.BIDDING: "1.04", GamePhase.BATTLE: "1.07"}


def _require(state: Position, action: FactionAction, phase: GamePhase) -> None:
    """A record belongs to its phase, while the engine runs it: the records are the
    moderator's corrections (they leave the battle where it stands)."""
    game = state.whole
    if game.phase is not phase or game.step == PhaseStep.DONE:
        raise NotYourTurnError(
            f"{action.name} is recorded in the {phase.value.replace('_', ' ')} phase, "
            f"not now ({game.phase.value.replace('_', ' ')})",
            rule=PHASE_RULES[phase],
        )


def _check_amount(amount: int, what: str, rule: str) -> None:
    if amount < 0 or amount > 10_000:
        raise InvalidActionError(f"{what} cannot be {quote(amount)}", rule=rule)


def end_battles(state: Position, action: PhaseDone | None = None) -> list[Event]:
    """The moderator ends the Battle phase early: the battle under way is dropped, the
    cards it played stay in hand, leaders go back to their pools (1.07.07)."""
    return battle_flow.end_phase(state)


# -- bidding ------------------------------------------------------------------------


def win_card(state: Position, action: RecordCardWon) -> list[Event]:
    """The card recorded: the next of the deck, paid as recorded (the caller checks when)."""
    faction = action.faction
    _check_amount(action.price, "a price", BUY_RULE)
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
    _check_amount(action.ally_pays, "an ally's share", ALLY_BID_RULE)
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


# -- battle -------------------------------------------------------------------------


def _other(state: Position, text: str | None, rule: str) -> Faction | None:
    if text is None or text.strip().lower() == "bank":
        return None
    found = Faction.parse(text)
    if found is None or found not in state.factions:
        raise InvalidActionError(f"{quote(text)} is not a faction in this game", rule=rule)
    return found


def battle(state: Position, action: RecordBattle) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    opponent = _other(state, action.opponent, BATTLE_RULE)
    if opponent is None or opponent is action.faction:
        raise InvalidActionError(
            f"a battle is fought against another faction, not {quote(action.opponent)}",
            rule=BATTLE_RULE,
        )
    state.set_game(dialers=(action.faction, opponent))
    return [BattleRecorded(action.faction, opponent)]


def losses(state: Position, action: RecordLosses) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    territory = state.territory(action.territory, rule=BATTLE_RULE)
    lost = Stack(action.forces, action.special, action.advisors)
    for n in (lost.forces, lost.special, lost.advisors):
        _check_amount(n, "a loss", BATTLE_RULE)
    there = state.stack(action.faction, territory.name, action.sector)
    if not lost.total or not there.covers(lost):
        raise IllegalActionError(
            f"{action.faction.label} does not have those forces in {territory.name} "
            f"(sector {action.sector})",
            rule=BATTLE_RULE,
        )
    state.to_tanks(action.faction, territory.name, action.sector, lost)
    count_battle_losses(state, action.faction, lost.total)
    return [
        ForcesLost(
            action.faction,
            territory.name,
            action.sector,
            lost.forces,
            lost.special,
            lost.advisors,
            BATTLE_RULE,
        )
    ]


def count_battle_losses(state: Position, faction: Faction, count: int) -> None:
    """The Atreides' forces lost in battle, counted over the game: from 7 the Kwisatz
    Haderach is active for good (2.01.10, advanced)."""
    if faction is not Faction.ATREIDES or count <= 0:
        return
    losses = state.whole.atreides_battle_losses + count
    active = state.whole.kwisatz_haderach_active or (
        state.rules.advanced and losses >= KWISATZ_HADERACH_LOSSES
    )
    state.set_game(atreides_battle_losses=losses, kwisatz_haderach_active=active)


def leader_killed(state: Position, action: RecordLeaderKilled) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    game = state.whole
    alive = game.held(game.leaders, action.faction)
    name = next((n for n in alive if same_card(n, action.leader)), None)
    if name is None:
        raise IllegalActionError(
            f"{quote(action.leader)} is not a living leader of {action.faction.label}",
            rule=BATTLE_RULE,
        )
    if any(plan.leader == name for plan in locked_plans(state).values()):
        raise IllegalActionError(
            f"{name} leads a battle plan of the battle under way: the battle decides whether "
            "it dies (record it after the battle is resolved)",
            rule=BATTLE_RULE,
        )
    drawn = game.battle.captive if game.battle is not None else None
    if drawn == name and game.step == BattleStep.CAPTURE:
        raise IllegalActionError(
            f"the Harkonnen drew {name} to capture or kill: they decide first (record it "
            "after their choice)",
            rule=CAPTURE_RULE,
        )
    return battle_flow.kill_leader(state, action.faction, name, BATTLE_RULE)


def discard(state: Position, action: RecordDiscard) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    card = next(
        (c for c in state.factions[action.faction].cards if same_card(c, action.card)), None
    )
    if card is None:
        raise IllegalActionError(
            f"{action.faction.label} holds no {quote(action.card)}", rule=BATTLE_RULE
        )
    state.discard(action.faction, card)
    return [CardDiscarded(action.faction, card)]


def payment(state: Position, action: RecordPayment) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    _check_amount(action.amount, "a payment", BATTLE_RULE)
    to = _other(state, action.to, BATTLE_RULE)
    if to is action.faction or action.amount == 0:
        raise InvalidActionError(
            "a payment goes from one faction to another or the bank", rule=BATTLE_RULE
        )
    if action.amount > state.factions[action.faction].spice:
        raise IllegalActionError(
            f"{action.faction.label} holds only {state.factions[action.faction].spice} spice",
            rule=BATTLE_RULE,
        )
    state.pay(action.faction, action.amount, to)
    check_spice_held(state)  # not the spice of a locked plan's dial (1.13.04)
    return [SpicePaid(action.faction, action.amount, to)]


def income(state: Position, action: RecordIncome) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    _check_amount(action.amount, "an income", BATTLE_RULE)
    if action.amount == 0:
        raise InvalidActionError("an income of 0 spice records nothing", rule=BATTLE_RULE)
    paid = state.from_bank(action.faction, action.amount)
    return [SpiceReceived(action.faction, paid, BATTLE_RULE)]


def candidates(state: Position) -> list[Record | PhaseDone]:
    """Some records the moderator could make now (small amounts), and "phase done"."""
    game = state.whole
    # -- revival (rules.revival): corrections while the engine runs the phase ------------
    if reviving(game):
        return [PhaseDone(), *_revival_records(state)]
    # -- end revival ---------------------------------------------------------------------
    # -- battle (rules.battle): corrections while the engine runs the phase --------------
    battle_runs = game.phase is GamePhase.BATTLE and game.step != PhaseStep.DONE
    # -- end battle ----------------------------------------------------------------------
    if not battle_runs:
        return []
    out: list[Record | PhaseDone] = [PhaseDone()]
    for faction in game.order:
        out += _battle_candidates(state, faction)
    return out


def _revival_records(state: Position) -> list[Record | PhaseDone]:
    game = state.whole
    out: list[Record | PhaseDone] = []
    for faction in game.order:
        own = state.factions[faction]
        if faction not in game.revived:
            out += [RecordRevival(faction, n) for n in range(min(own.tanks, 3) + 1)]
            out += [
                RecordRevival(faction, 0, leader=n) for n in game.held(game.leaders_tanks, faction)
            ]
        out += [RecordGhola(faction, min(own.tanks, GHOLA_FORCES))] if own.tanks else []
    return out


def _battle_candidates(state: Position, faction: Faction) -> list[Record | PhaseDone]:
    game = state.whole
    out: list[Record | PhaseDone] = [
        RecordBattle(faction, f.value) for f in game.order if f is not faction
    ]
    for (f, territory, sector), stack in sorted(state.stacks.items(), key=lambda i: i[0][1]):
        if f is faction:
            out.append(
                RecordLosses(
                    faction, territory, sector, stack.forces, stack.special, stack.advisors
                )
            )
    out += [RecordLeaderKilled(faction, n) for n in game.held(game.leaders, faction)]
    out += [RecordDiscard(faction, c) for c in state.factions[faction].cards]
    if state.factions[faction].spice:
        out.append(RecordPayment(faction, 1))
    out.append(RecordIncome(faction, 1))
    return out
