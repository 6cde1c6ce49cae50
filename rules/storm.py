"""The Storm Phase (1.01): the dials or the storm deck, destruction, the first player.

Turn 1 the two players seated nearest the Storm Start on either side dial 0-20
in secret (0.16). Later turns the two who used battle wheels last dial 1-3
(1.01.02), or, in the advanced game with the Fremen, the storm card the Fremen
drew last turn is revealed (2.04.13). The storm moves one sector at a time and
destroys forces on unprotected sand and all spice in each sector it enters
(1.01.03; readings D1 and D2 in docs/whole-turn-readings.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from rules import bene_gesserit, karama_turn
from rules.actions import (
    Action,
    Dial,
    FactionAction,
    FamilyAtomics,
    FremenStormLosses,
    Pass,
    WeatherControl,
)
from rules.board import SECTOR_COUNT, primary_sector, printed_sector
from rules.components import storm_deck, treachery_cards
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import (
    Event,
    ForcesDestroyed,
    Passed,
    SpiceDestroyed,
    StormCardDrawn,
    StormCardPlayed,
    StormCardRevealed,
    StormDialed,
    StormDialsRevealed,
    StormMoved,
    StormOrder,
)
from rules.factions import Faction, same_card
from rules.game_model import GamePhase, PhaseStep
from rules.model import Ability, Stack
from rules.phase_spec import PhaseSpec, PhaseWaits, Stepped, handlers, on
from rules.position import Position, storm_order
from rules.variants import FirstStorm, StormStartSector

FIRST_STORM_RULE = "0.16"
DIAL_RULE = "1.01.02"
DESTRUCTION_RULE = "1.01.03"
FIRST_PLAYER_RULE = "1.01.01"
STORM_DECK_RULE = "2.04.13"
FREMEN_LOSSES_RULE = "2.04.16"
WEATHER_CONTROL_RULE = "3.01.23"
FAMILY_ATOMICS_RULE = "3.01.07"
WEATHER_CONTROL = "Weather Control"
FAMILY_ATOMICS = "Family Atomics"
SHIELD_WALL = "Shield Wall"
WEATHER_CONTROL_RANGE = range(11)
UNPROTECTED_AFTER_ATOMICS = frozenset({"Arrakeen", "Carthag", "Imperial Basin"})
PHASE_RULE = "1.01"


class StormStep(StrEnum):
    """The Storm phase's steps: the dials, the storm cards (turn 2 on), the Fremen's
    choice of their storm losses (2.04.16)."""

    DIAL = "dial"
    STORM_CARDS = "storm_cards"
    FREMEN_LOSSES = "fremen_losses"


def first_dialers(seats: tuple[Faction | None, ...]) -> tuple[Faction, ...]:
    """The nearest seated faction on each side of the Storm Start (0.16)."""
    padded = list(seats) + [None] * (6 - len(seats))
    after = next((f for f in padded if f is not None), None)
    before = next((f for f in reversed(padded) if f is not None), None)
    return tuple(f for f in dict.fromkeys((before, after)) if f is not None)


def uses_storm_deck(state: Position) -> bool:
    return state.rules.advanced and Faction.FREMEN in state.factions and state.whole.turn > 1


def begin(state: Position) -> list[Event]:
    game = state.whole
    if uses_storm_deck(state):
        chance = game.chance
        value = game.storm_next
        if value is None:  # a position given without the Fremen's card: draw it now
            drawn, chance = chance.pick(storm_deck())
            value = drawn
        state.set_game(chance=chance)
        state.set_game(storm_next=None)
        return [StormCardRevealed(value, STORM_DECK_RULE), *move_known(state, value)]
    dialers = game.dialers if game.turn > 1 and game.dialers else first_dialers(state.seats)
    state.set_game(dialers=dialers, dials={}, waiting=dialers, step=StormStep.DIAL)
    return []


def dial_range(state: Position) -> range:
    return range(21) if state.whole.turn == 1 else range(1, 4)


def dial(state: Position, action: Dial) -> list[Event]:
    game = state.whole
    rule = FIRST_STORM_RULE if game.turn == 1 else DIAL_RULE
    if game.phase is not GamePhase.STORM or game.step != StormStep.DIAL:
        raise NotYourTurnError("nobody dials the storm now", rule=rule)
    if action.faction not in game.dialers:
        names = " and ".join(f.label for f in game.dialers)
        raise NotYourTurnError(
            f"{action.faction.label} does not dial the storm: only {names} do", rule=rule
        )
    if action.faction in game.dials:
        raise NotYourTurnError(f"{action.faction.label} has already dialed", rule=rule)
    allowed = dial_range(state)
    if action.value not in allowed:
        raise InvalidActionError(
            f"the storm dial is {allowed.start} to {allowed.stop - 1}, not {quote(action.value)}",
            rule=rule,
        )
    dials = {**game.dials, action.faction: action.value}
    waiting = tuple(f for f in game.waiting if f != action.faction)
    state.set_game(dials=dials, waiting=waiting)
    events: list[Event] = [StormDialed(action.faction)]
    if waiting:
        return events
    events.append(
        StormDialsRevealed(tuple(game.dialers), tuple(dials[f] for f in game.dialers), rule)
    )
    return events + move_known(state, sum(dials.values()))


# -- Weather Control and Family Atomics (turn 2 on, once the move is known) -----------


def move_known(state: Position, sectors: int) -> list[Event]:
    """The move is known: from turn 2 a storm card may be played first. Whom the game asks
    is a function of public facts only (docs/secrets-and-waits.md): every faction whose
    hand could hold one, in storm order; its player answers (a pass when it holds none)."""
    if state.whole.turn >= 2:
        asked = tuple(f for f in state.whole.order if may_hold_storm_card(state, f))
        if asked:
            state.set_game(storm_move=sectors, waiting=asked, step=StormStep.STORM_CARDS)
            return []
    return resolve(state, sectors)


def may_hold_storm_card(state: Position, faction: Faction) -> bool:
    """Whether, as far as anyone else can tell, ``faction`` could play a storm card now: it
    holds a card (the count is public, 1.04.01) and Weather Control is not known to be out
    of every hand, or Family Atomics is not and its forces are by the Shield Wall."""
    if not state.factions[faction].cards:
        return False
    if not _known_out(state, WEATHER_CONTROL):
        return True
    return not _known_out(state, FAMILY_ATOMICS) and near_shield_wall(state, faction)


def _known_out(state: Position, card: str) -> bool:
    """Every copy of ``card`` lies face up in the discard pile or out of the game."""
    game = state.whole
    seen = [c for c in (*game.treachery_discard, *game.cards_out) if same_card(c, card)]
    return len(seen) >= treachery_cards().get(card, 0)


def playable(state: Position, faction: Faction) -> list[str]:
    """The storm cards ``faction`` could play now."""
    out = []
    if _held(state, faction, WEATHER_CONTROL):
        out.append(WEATHER_CONTROL)
    if _held(state, faction, FAMILY_ATOMICS) and near_shield_wall(state, faction):
        out.append(FAMILY_ATOMICS)
    return out


def _held(state: Position, faction: Faction, card: str) -> str | None:
    return next((c for c in state.factions[faction].cards if same_card(c, card)), None)


def near_shield_wall(state: Position, faction: Faction) -> bool:
    """Forces on the Shield Wall, or next to it with no storm sector between (3.01.07)."""
    wall = state.board[SHIELD_WALL]
    for (f, territory, sector), stack in state.stacks.items():
        if f is not faction or not stack.fighters:
            continue
        if territory == SHIELD_WALL:
            return True
        if territory not in wall.adjacent or state.in_storm(sector):
            continue
        part = next(
            p for p in state.board.storm_free_parts(territory, state.storm_sector) if sector in p
        )
        for piece in [(territory, s) for s in part]:
            for (name, there), _ in state.board.piece_links(piece):
                if name == SHIELD_WALL and not state.in_storm(there):
                    return True
    return False


def _require_cards(state: Position, faction: Faction, rule: str) -> None:
    game = state.whole
    if not state.in_phase(GamePhase.STORM) or game.step != StormStep.STORM_CARDS:
        raise NotYourTurnError(
            "storm cards are played from turn 2, once the storm's move is known", rule=rule
        )
    if faction not in game.waiting:
        raise NotYourTurnError(f"{faction.label} is not asked about storm cards now", rule=rule)


def _after_card(state: Position, faction: Faction) -> list[Event]:
    """The player stays asked while, on public facts, it could play the other card."""
    waiting = state.whole.waiting
    if not may_hold_storm_card(state, faction):
        waiting = tuple(f for f in waiting if f != faction)
    state.set_game(waiting=waiting)
    if waiting:
        return []
    move = state.whole.storm_move
    return resolve(state, move if move is not None else 0)


def weather_control(state: Position, action: WeatherControl) -> list[Event]:
    _require_cards(state, action.faction, WEATHER_CONTROL_RULE)
    card = _held(state, action.faction, WEATHER_CONTROL)
    if card is None:
        raise IllegalActionError(
            f"{action.faction.label} holds no Weather Control", rule=WEATHER_CONTROL_RULE
        )
    if action.sectors not in WEATHER_CONTROL_RANGE:
        raise InvalidActionError(
            f"Weather Control moves the storm 0 to 10 sectors, not {quote(action.sectors)}",
            rule=WEATHER_CONTROL_RULE,
        )
    state.discard(action.faction, card)
    state.set_game(storm_move=action.sectors)
    played = StormCardPlayed(action.faction, card, action.sectors, WEATHER_CONTROL_RULE)
    return [played, *_after_card(state, action.faction)]


def family_atomics(state: Position, action: FamilyAtomics) -> list[Event]:
    _require_cards(state, action.faction, FAMILY_ATOMICS_RULE)
    card = _held(state, action.faction, FAMILY_ATOMICS)
    if card is None or not near_shield_wall(state, action.faction):
        raise IllegalActionError(
            f"{action.faction.label} needs Family Atomics and forces on or next to the Shield "
            "Wall with no storm between",
            rule=FAMILY_ATOMICS_RULE,
        )
    cards = list(state.factions[action.faction].cards)
    cards.remove(card)
    state.update(action.faction, cards=tuple(cards))
    state.set_game(cards_out=(*state.whole.cards_out, card), shield_wall_destroyed=True)
    events: list[Event] = [StormCardPlayed(action.faction, card, None, FAMILY_ATOMICS_RULE)]
    for (faction, territory, sector), stack in sorted(
        state.stacks_in(SHIELD_WALL).items(), key=_key
    ):
        state.to_tanks(faction, territory, sector, stack)
        events.append(
            ForcesDestroyed(
                faction,
                territory,
                sector,
                stack.forces,
                stack.special,
                stack.advisors,
                "family_atomics",
                FAMILY_ATOMICS_RULE,
            )
        )
    return events + _after_card(state, action.faction)


def pass_cards(state: Position, action: Pass) -> list[Event]:
    _require_cards(state, action.faction, WEATHER_CONTROL_RULE)
    waiting = tuple(f for f in state.whole.waiting if f != action.faction)
    state.set_game(waiting=waiting)
    events: list[Event] = [Passed(action.faction, "storm")]
    if waiting:
        return events
    move = state.whole.storm_move
    return events + resolve(state, move if move is not None else 0)


def resolve(state: Position, sectors: int) -> list[Event]:
    """Move the storm, destroy, fix the storm order, and let the Fremen draw (2.04.13)."""
    first_turn = state.whole.turn == 1
    start = state.storm_sector
    entered = [
        printed_sector((primary_sector(start) + i) % SECTOR_COUNT) for i in range(1, sectors + 1)
    ]
    end = entered[-1] if entered else start
    state.storm_sector = end
    rule = FIRST_STORM_RULE if first_turn else DESTRUCTION_RULE
    events: list[Event] = [StormMoved(start, end, sectors, rule)]
    start_hit = (
        not first_turn and bool(entered) and state.rules.storm_start_sector is StormStartSector.HIT
    )
    hit = _hit_sectors(state, entered, end, first_turn)
    half = True
    if _fremen_caught(state, [*([start] if start_hit else []), *hit]):
        half, stopped = karama_turn.uses(state, Ability.STORM_LOSSES)
        events += stopped
    if start_hit:
        events += destroy_in(state, start, spare_fremen=half, fremen_half=half)
    for sector in hit:
        events += destroy_in(state, sector, fremen_half=half)
    order = storm_order(state.seats, end)
    state.set_game(order=order, dials={}, waiting=(), step=PhaseStep.DONE, storm_move=None)
    events.append(StormOrder(order, FIRST_PLAYER_RULE))
    if state.whole.fremen_losses:
        state.set_game(step=StormStep.FREMEN_LOSSES, waiting=(Faction.FREMEN,))
        return events
    return events + _finish(state)


def _finish(state: Position) -> list[Event]:
    """The Fremen draw next turn's storm card; lone advisors become fighters (2.02.21)."""
    events: list[Event] = []
    state.set_game(step=PhaseStep.DONE, waiting=())
    if state.rules.advanced and Faction.FREMEN in state.factions:
        value, chance = state.whole.chance.pick(storm_deck())
        seen, stopped = karama_turn.uses(state, Ability.STORM_COMING)
        state.set_game(storm_next=value, chance=chance, storm_card_hidden=not seen)
        events.append(StormCardDrawn(Faction.FREMEN, STORM_DECK_RULE))
        events += stopped
    return events + bene_gesserit.universal_stewards(state)


def _hit_sectors(state: Position, entered: list[int], end: int, first_turn: bool) -> list[int]:
    """D1: the sectors entered (a move of 0 hits the sector it sits in; the switch
    ``storm_start_sector`` "hit" adds the start sector); D2: on turn 1 by default only the
    sector where the first storm stops."""
    if first_turn:
        mode = state.rules.first_storm
        return [] if mode is FirstStorm.NONE else entered if mode is FirstStorm.PATH else [end]
    return entered or [end]


def is_protected(state: Position, territory: str) -> bool:
    t = state.board[territory]
    if state.whole.shield_wall_destroyed and territory in UNPROTECTED_AFTER_ATOMICS:
        return False
    return t.protected_from_storm or t.kind != "sand"


def _fremen_caught(state: Position, sectors: list[int]) -> bool:
    """Whether the advanced Fremen's half losses (2.04.16) would be used in ``sectors``."""
    if not state.rules.advanced:
        return False
    return any(
        faction is Faction.FREMEN and sec in sectors and not is_protected(state, territory)
        for (faction, territory, sec) in state.stacks
    )


def destroy_in(
    state: Position, sector: int, *, spare_fremen: bool = False, fremen_half: bool = True
) -> list[Event]:
    """Forces on unprotected sand and all spice in ``sector`` are lost (1.01.03). With
    ``spare_fremen`` (the sector the storm moves off) the advanced Fremen lose nothing
    more: the storm took their half when it stopped on them (2.04.16). Without
    ``fremen_half`` (a Karama stopped it) the Fremen lose everything like the others."""
    events: list[Event] = []
    rule_all = DESTRUCTION_RULE
    for (faction, territory, sec), stack in sorted(state.stacks.items(), key=_key):
        if sec != sector or is_protected(state, territory):
            continue
        if spare_fremen and faction is Faction.FREMEN and state.rules.advanced:
            continue
        lost, rule = _storm_loss(state, faction, stack) if fremen_half else (stack, rule_all)
        if lost.total != stack.total and stack.forces and stack.special:
            choice = (territory, sector, lost.total)
            state.set_game(fremen_losses=(*state.whole.fremen_losses, choice))
            continue
        state.to_tanks(faction, territory, sec, lost)
        events.append(
            ForcesDestroyed(
                faction, territory, sec, lost.forces, lost.special, lost.advisors, "storm", rule
            )
        )
    for (territory, sec), amount in sorted(state.board_spice.items(), key=_spice_key):
        if sec == sector:
            state.take_spice(territory, sec, amount)
            state.spice_bank += amount
            events.append(SpiceDestroyed(territory, sec, amount, "storm", DESTRUCTION_RULE))
    return events


def _storm_loss(state: Position, faction: Faction, stack: Stack) -> tuple[Stack, str]:
    """Everything, except the advanced Fremen: half, rounded up, regular forces first."""
    if faction is not Faction.FREMEN or not state.rules.advanced:
        return stack, DESTRUCTION_RULE
    half = -(-stack.total // 2)
    forces = min(stack.forces, half)
    return Stack(forces, half - forces), FREMEN_LOSSES_RULE


def fremen_losses(state: Position, action: FremenStormLosses) -> list[Event]:
    """The Fremen say how many Fedaykin are among a stack's storm losses (2.04.16)."""
    game = state.whole
    if game.step != StormStep.FREMEN_LOSSES or action.faction is not Faction.FREMEN:
        raise NotYourTurnError(
            "no Fremen storm losses are to be chosen now", rule=FREMEN_LOSSES_RULE
        )
    territory = state.territory(action.territory, rule=FREMEN_LOSSES_RULE).name
    pending = next((p for p in game.fremen_losses if p[:2] == (territory, action.sector)), None)
    if pending is None:
        raise IllegalActionError(
            f"the Fremen have no storm losses to choose in {territory} sector "
            f"{quote(action.sector)}",
            rule=FREMEN_LOSSES_RULE,
        )
    stack = state.stack(Faction.FREMEN, territory, action.sector)
    lost = Stack(pending[2] - action.special, action.special)
    if action.special < 0 or not stack.covers(lost) or lost.forces < 0:
        raise InvalidActionError(
            f"{pending[2]} forces are lost there: 0 to {min(stack.special, pending[2])} of them "
            f"Fedaykin, not {quote(action.special)}",
            rule=FREMEN_LOSSES_RULE,
        )
    state.to_tanks(Faction.FREMEN, territory, action.sector, lost)
    left = tuple(p for p in game.fremen_losses if p is not pending)
    state.set_game(fremen_losses=left)
    events: list[Event] = [
        ForcesDestroyed(
            Faction.FREMEN,
            territory,
            action.sector,
            lost.forces,
            lost.special,
            0,
            "storm",
            FREMEN_LOSSES_RULE,
        )
    ]
    return events if left else events + _finish(state)


def _key(item: tuple[tuple[Faction, str, int | None], Stack]) -> tuple[str, str]:
    (faction, territory, _), _ = item
    return territory, faction.value


def _spice_key(item: tuple[tuple[str, int | None], int]) -> tuple[str, int]:
    (territory, sector), _ = item
    return territory, sector or 0


def candidates(state: Position, faction: Faction) -> list[FactionAction]:
    game = state.whole
    if faction not in game.waiting:
        return []
    if game.step == StormStep.FREMEN_LOSSES:
        return [
            FremenStormLosses(faction, territory, sector, n)
            for territory, sector, lost in game.fremen_losses
            for n in range(min(lost, state.stack(faction, territory, sector).special) + 1)
        ]
    if game.step == StormStep.STORM_CARDS:
        cards = playable(state, faction)
        out: list[FactionAction] = [Pass(faction)]
        if WEATHER_CONTROL in cards:
            out += [WeatherControl(faction, n) for n in WEATHER_CONTROL_RANGE]
        if FAMILY_ATOMICS in cards:
            out.append(FamilyAtomics(faction))
        return out
    if game.step != StormStep.DIAL:
        return []
    return [Dial(faction, v) for v in dial_range(state)]


def dialing(game: Stepped) -> bool:
    """The storm's dials are awaited (1.01.02)."""
    return game.phase == GamePhase.STORM and game.step == StormStep.DIAL


def asking_storm_cards(game: Stepped) -> bool:
    """Everyone who could hold a storm card is asked alike (docs/secrets-and-waits.md)."""
    return game.phase == GamePhase.STORM and game.step == StormStep.STORM_CARDS


def default(
    state: Position,
    faction: Faction,
    legal: Sequence[FactionAction],
    is_legal: Callable[[Action], bool],
) -> FactionAction | None:
    """The lowest dial allowed (0 on turn 1, 1 after); as few Fedaykin lost as the rules
    allow, stack by stack; storm cards: none played (the fallback, a pass)."""
    dials = [a for a in legal if isinstance(a, Dial)]
    losses = [a for a in legal if isinstance(a, FremenStormLosses)]
    return min(dials, key=lambda a: a.value, default=None) or min(
        losses, key=lambda a: a.special, default=None
    )


SPEC = PhaseSpec(
    phase=GamePhase.STORM,
    rule=PHASE_RULE,
    steps=StormStep,
    begin=begin,
    handlers=handlers(
        on(Dial, dial),
        on(WeatherControl, weather_control),
        on(FamilyAtomics, family_atomics),
        on(FremenStormLosses, fremen_losses),
    ),
    pass_=pass_cards,
    offered=candidates,
    default=default,
    waits=PhaseWaits(asked_alike=asking_storm_cards),
    declinable=frozenset({StormStep.STORM_CARDS}),
)
