"""The traitors (0.11): dealt at set-up, four to each faction, who keeps one (the Harkonnen
keep all four); the battles call them (1.07.05, :mod:`.resolution`). The battle's set-up
choice (:class:`~rules.phase_spec.SetupChoice`), which the set-up phase runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from rules.actions import FactionAction
from rules.battle.actions import KeepTraitor
from rules.battle.events import TraitorKept
from rules.components import extras, leaders
from rules.errors import IllegalActionError, quote
from rules.events import CardsDealt, DeckShuffled, Event
from rules.factions import Faction, same_card
from rules.game_model import (
    FactionMap,
    StatePart,
    TurnState,
    evolve,
    map_in,
    map_out,
    state_part,
    with_entry,
)
from rules.phase_spec import Dealt, HeldLeaders, SetupChoice, handlers, on
from rules.position import Position

RULE = "0.11"

TRAITORS: StatePart[FactionMap] = state_part(
    "traitors",
    MappingProxyType({}),
    lambda held: {"traitors": map_out(held)},
    lambda data: map_in(data["traitors"]),
)
"""The traitors each faction holds (secret: only each faction's own view shows its own)."""
OFFERS: StatePart[FactionMap] = state_part(
    "traitor_offers",
    MappingProxyType({}),
    lambda offers: {"traitor_offers": map_out(offers)},
    lambda data: map_in(data.get("traitor_offers", {})),
)
"""The four traitors dealt to each faction that has still to keep one (set-up)."""
DEALT = 4
"""Each faction is dealt four traitors and keeps one (the Harkonnen all four)."""


def deal(state: Position, seats: Sequence[Faction]) -> Dealt:
    """Shuffle every faction's leaders in play and deal four to each, in seat order; the
    Harkonnen keep theirs at once."""
    pool = [name for f in state.factions for name in leaders(f)]
    traitors, chance = state.whole.chance.shuffle(pool)
    state.set_game(chance=chance)
    dealt: list[Event] = []
    offers = {}
    for i, faction in enumerate(seats):
        offers[faction] = traitors[i * DEALT : (i + 1) * DEALT]
        dealt.append(CardsDealt(faction, "traitors", DEALT, RULE))
    kept = {f: o for f, o in offers.items() if extras(f)["traitors_kept"] >= DEALT}
    dealt_now = OFFERS.put(state.whole.parts, {f: o for f, o in offers.items() if f not in kept})
    state.set_game(parts=TRAITORS.put(dealt_now, {f: kept.get(f, ()) for f in offers}))
    dealt += [TraitorKept(f, len(o), RULE) for f, o in kept.items()]
    return Dealt([DeckShuffled("traitors", len(traitors))], dealt)


def owes(state: Position, faction: Faction) -> bool:
    """Whether ``faction`` has still to keep one of the traitors dealt to it."""
    return faction in OFFERS.of(state.whole)


def keep(state: Position, action: KeepTraitor) -> list[Event]:
    offers = OFFERS.of(state.whole)[action.faction]
    chosen = next((name for name in offers if same_card(name, action.leader)), None)
    if chosen is None:
        raise IllegalActionError(
            f"{quote(action.leader)} is not one of the four traitors dealt to "
            f"{action.faction.label}: {', '.join(offers)}",
            rule=RULE,
        )
    game = state.whole
    rest = {f: o for f, o in OFFERS.of(game).items() if f != action.faction}
    held = with_entry(TRAITORS.of(game), action.faction, (chosen,))
    state.set_game(parts=TRAITORS.put(OFFERS.put(game.parts, rest), held))
    return [TraitorKept(action.faction, 1, RULE)]


def offered(state: Position, faction: Faction) -> list[FactionAction]:
    return [KeepTraitor(faction, name) for name in OFFERS.of(state.whole).get(faction, ())]


def default(legal: Sequence[FactionAction], faction: Faction) -> FactionAction | None:
    """The first leader offered that is not the faction's own (else the first offered)."""
    offers = [a for a in legal if isinstance(a, KeepTraitor)]
    own = set(leaders(faction))
    return next((a for a in offers if a.leader not in own), next(iter(offers), None))


CHOICE = SetupChoice(
    name="traitor",
    rule=RULE,
    deal=deal,
    owes=owes,
    offered=offered,
    handlers=handlers(on(KeepTraitor, keep)),
    default=default,
)
"""The traitor each faction keeps at set-up, as the set-up phase runs it."""


def _into(game: TurnState, held: Mapping[Faction, tuple[str, ...]]) -> TurnState:
    return evolve(game, {"parts": TRAITORS.put(game.parts, dict(held))})


def _held(game: TurnState, faction: Faction) -> tuple[str, ...]:
    return game.held(TRAITORS.of(game), faction)


SCENARIO_KEY = HeldLeaders("traitors", _into, _held)
"""A scenario's ``traitors`` of a faction: the leaders it holds as traitors."""
