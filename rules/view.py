"""What each viewer may see of a position.

Hidden information is a type: :class:`PublicView` has no field that could
hold spice behind a shield or a card, so anything built from it (a channel
message, a map picture) can be shown to everyone. :class:`PrivateView` wraps
a public view with one faction's own secrets; it is *not* a ``PublicView``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from rules.factions import Faction
from rules.model import stack_order

if TYPE_CHECKING:
    from rules.position import Position


@dataclass(frozen=True, slots=True)
class FactionPublic:
    """A faction's public standing: forces off the board and the size of its hand."""

    faction: Faction
    reserves: int
    special_reserves: int
    tanks: int
    special_tanks: int
    cards_held: int


@dataclass(frozen=True, slots=True)
class StackView:
    """One faction's tokens in one territory sector (sector None: Polar Sink)."""

    faction: Faction
    territory: str
    sector: int | None
    forces: int
    special: int
    advisors: int


@dataclass(frozen=True, slots=True)
class SpiceView:
    territory: str
    sector: int | None
    amount: int


@dataclass(frozen=True, slots=True)
class PublicPrompt:
    """An open prompt as everyone sees it: who may answer, never who can."""

    kind: str
    responders: tuple[Faction, ...]
    subject: Faction | None
    ability: str | None
    territory: str | None
    sector: int | None


@dataclass(frozen=True, slots=True)
class PublicView:
    storm_sector: int
    seats: tuple[Faction | None, ...]
    storm_order: tuple[Faction, ...]
    alliances: tuple[tuple[Faction, ...], ...]
    advanced: bool
    factions: tuple[FactionPublic, ...]
    stacks: tuple[StackView, ...]
    spice: tuple[SpiceView, ...]
    spice_bank: int
    to_act: Faction | None
    step: str | None
    done: tuple[Faction, ...]
    prompts: tuple[PublicPrompt, ...]
    phase_complete: bool

    def faction(self, faction: Faction) -> FactionPublic:
        return next(f for f in self.factions if f.faction == faction)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = _jsonable(asdict(self))
        return data


@dataclass(frozen=True, slots=True)
class PrivateView:
    """One faction's view: the public view plus its own spice and cards."""

    public: PublicView
    faction: Faction
    spice: int
    cards: tuple[str, ...]
    legal_actions: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "public": self.public.to_dict(),
            "faction": self.faction.value,
            "spice": self.spice,
            "cards": list(self.cards),
            "legal_actions": list(self.legal_actions),
        }


def public_view(state: Position) -> PublicView:
    phase = state.phase
    return PublicView(
        storm_sector=state.storm_sector,
        seats=state.seats,
        storm_order=phase.order,
        alliances=tuple(sorted(tuple(sorted(a)) for a in state.alliances)),
        advanced=state.rules.advanced,
        factions=tuple(
            FactionPublic(f, s.reserves, s.special_reserves, s.tanks, s.special_tanks, len(s.cards))
            for f, s in sorted(state.factions.items())
        ),
        stacks=tuple(
            StackView(f, t, sec, s.forces, s.special, s.advisors)
            for (f, t, sec), s in sorted(state.stacks.items(), key=stack_order)
        ),
        spice=tuple(SpiceView(t, sec, n) for (t, sec), n in sorted(state.board_spice.items())),
        spice_bank=state.spice_bank,
        to_act=state.to_act(),
        step=phase.turn.step.value if phase.turn else None,
        done=tuple(f for f in phase.order if f in phase.done),
        prompts=tuple(
            PublicPrompt(
                p.kind.value,
                p.responders,
                p.subject,
                p.ability.value if p.ability else None,
                p.territory,
                p.sector,
            )
            for p in phase.open_prompts
        ),
        phase_complete=phase.complete,
    )


def private_view(state: Position, faction: Faction, legal_actions: tuple[str, ...]) -> PrivateView:
    own = state.factions[faction]
    return PrivateView(
        public=public_view(state),
        faction=faction,
        spice=own.spice,
        cards=own.cards,
        legal_actions=legal_actions,
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Faction):
        return value.value
    return value
