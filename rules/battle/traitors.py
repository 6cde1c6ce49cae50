"""The traitors (0.11): dealt at set-up, four to each faction, who keeps one (the Harkonnen
keep all four); the battles call them (1.07.05, :mod:`.resolution`). The battle's set-up
choice (:class:`~rules.phase_spec.SetupChoice`), which the set-up phase runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules.actions import FactionAction
from rules.battle.actions import KeepTraitor
from rules.battle.events import TraitorKept
from rules.components import extras, leaders
from rules.errors import IllegalActionError, quote
from rules.events import CardsDealt, DeckShuffled, Event
from rules.factions import Faction, same_card
from rules.game_model import TurnState, with_entry
from rules.phase_spec import Dealt, HeldLeaders, SetupChoice, handlers, on
from rules.position import Position

RULE = "0.11"
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
    state.set_game(
        traitor_offers={f: o for f, o in offers.items() if f not in kept},
        traitors={f: kept.get(f, ()) for f in offers},
    )
    dealt += [TraitorKept(f, len(o), RULE) for f, o in kept.items()]
    return Dealt([DeckShuffled("traitors", len(traitors))], dealt)


def owes(state: Position, faction: Faction) -> bool:
    """Whether ``faction`` has still to keep one of the traitors dealt to it."""
    return faction in state.whole.traitor_offers


def keep(state: Position, action: KeepTraitor) -> list[Event]:
    offers = state.whole.traitor_offers[action.faction]
    chosen = next((name for name in offers if same_card(name, action.leader)), None)
    if chosen is None:
        raise IllegalActionError(
            f"{quote(action.leader)} is not one of the four traitors dealt to "
            f"{action.faction.label}: {', '.join(offers)}",
            rule=RULE,
        )
    rest = {f: o for f, o in state.whole.traitor_offers.items() if f != action.faction}
    state.set_game(
        traitor_offers=rest, traitors=with_entry(state.whole.traitors, action.faction, (chosen,))
    )
    return [TraitorKept(action.faction, 1, RULE)]


def offered(state: Position, faction: Faction) -> list[FactionAction]:
    return [KeepTraitor(faction, name) for name in state.whole.traitor_offers.get(faction, ())]


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
    return replace(game, traitors=dict(held))


def _held(game: TurnState, faction: Faction) -> tuple[str, ...]:
    return game.held(game.traitors, faction)


SCENARIO_KEY = HeldLeaders("traitors", _into, _held)
"""A scenario's ``traitors`` of a faction: the leaders it holds as traitors."""
