"""The moderator's records of the Battle phase, while the engine runs it: a battle, losses,
a leader killed, a discard, a payment, an income (1.07.06), and the phase ended early; and
the Atreides' battle losses counted for the Kwisatz Haderach (2.01.10)."""

from __future__ import annotations

from rules.actions import (
    PhaseDone,
    Record,
    RecordDiscard,
    RecordIncome,
    RecordLeaderKilled,
    RecordLosses,
    RecordPayment,
)
from rules.battle import flow as battle_flow
from rules.battle.actions import RecordBattle
from rules.battle.events import BattleRecorded
from rules.battle.model import BATTLE, BattleStep
from rules.battle.plans import locked_plans
from rules.bribes import check_spice_held
from rules.errors import IllegalActionError, InvalidActionError, quote
from rules.events import CardDiscarded, Event, ForcesLost, SpicePaid, SpiceReceived
from rules.factions import Faction, same_card
from rules.game_model import GamePhase, PhaseStep
from rules.model import Stack
from rules.position import Position
from rules.recorded import check_amount, other_faction, require

BATTLE_RULE = "1.07.06"
CAPTURE_RULE = "2.05.10"  # the Harkonnen capture (rules.battle.resolution)
KWISATZ_HADERACH_LOSSES = 7  # 2.01.10: battle losses over the whole game
PHASE_RULE = "1.07"


def _require(state: Position, action: Record) -> None:
    require(state, action, GamePhase.BATTLE, PHASE_RULE)


def end_battles(state: Position, action: PhaseDone | None = None) -> list[Event]:
    """The moderator ends the Battle phase early: the battle under way is dropped, the
    cards it played stay in hand, leaders go back to their pools (1.07.07)."""
    return battle_flow.end_phase(state)


def battle(state: Position, action: RecordBattle) -> list[Event]:
    _require(state, action)
    opponent = other_faction(state, action.opponent, BATTLE_RULE)
    if opponent is None or opponent is action.faction:
        raise InvalidActionError(
            f"a battle is fought against another faction, not {quote(action.opponent)}",
            rule=BATTLE_RULE,
        )
    state.set_game(dialers=(action.faction, opponent))
    return [BattleRecorded(action.faction, opponent)]


def losses(state: Position, action: RecordLosses) -> list[Event]:
    _require(state, action)
    territory = state.territory(action.territory, rule=BATTLE_RULE)
    lost = Stack(action.forces, action.special, action.advisors)
    for n in (lost.forces, lost.special, lost.advisors):
        check_amount(n, "a loss", BATTLE_RULE)
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
    _require(state, action)
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
    fight = BATTLE.of(game)
    drawn = fight.captive if fight is not None else None
    if drawn == name and game.step == BattleStep.CAPTURE:
        raise IllegalActionError(
            f"the Harkonnen drew {name} to capture or kill: they decide first (record it "
            "after their choice)",
            rule=CAPTURE_RULE,
        )
    return battle_flow.kill_leader(state, action.faction, name, BATTLE_RULE)


def discard(state: Position, action: RecordDiscard) -> list[Event]:
    _require(state, action)
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
    _require(state, action)
    check_amount(action.amount, "a payment", BATTLE_RULE)
    to = other_faction(state, action.to, BATTLE_RULE)
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
    _require(state, action)
    check_amount(action.amount, "an income", BATTLE_RULE)
    if action.amount == 0:
        raise InvalidActionError("an income of 0 spice records nothing", rule=BATTLE_RULE)
    paid = state.from_bank(action.faction, action.amount)
    return [SpiceReceived(action.faction, paid, BATTLE_RULE)]


def candidates(state: Position) -> list[Record | PhaseDone]:
    """Some records the moderator could make now (small amounts), and "phase done"."""
    game = state.whole
    if game.phase is not GamePhase.BATTLE or game.step == PhaseStep.DONE:
        return []
    out: list[Record | PhaseDone] = [PhaseDone()]
    for faction in game.order:
        out += _candidates(state, faction)
    return out


def _candidates(state: Position, faction: Faction) -> list[Record | PhaseDone]:
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
