"""What each viewer may see of a position.

Hidden information is a type: :class:`PublicView` has no field that could
hold spice behind a shield or a card, so anything built from it (a channel
message, a map picture) can be shown to everyone. :class:`PrivateView` wraps
a public view with one faction's own secrets; it is *not* a ``PublicView``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from rules.factions import Faction
from rules.game_model import GamePhase
from rules.model import stack_order
from rules.phase_spec import PhaseView
from rules.phases import REGISTRY
from rules.storm.model import dialing

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
class LeadersView:
    """A faction's leaders as everyone sees them: in its pool (the Harkonnen's holds the
    leaders they captured, face up), in the tanks, and its own held by the Harkonnen."""

    faction: Faction
    alive: tuple[str, ...]
    tanks: tuple[str, ...]
    captured: tuple[str, ...] = ()  # its leaders in the Harkonnen's pool (2.05.10)


@dataclass(frozen=True, slots=True)
class GameView:
    """The whole game as everyone sees it: decks by their size, discards face up."""

    turn: int
    last_turn: int
    phase: str
    step: str
    waiting: tuple[Faction, ...]
    winner: tuple[Faction, ...]
    won_by: str | None
    spice_deck_cards: int
    spice_discard: tuple[str, ...]
    spice_discard_b: tuple[str, ...]
    treachery_deck_cards: int
    treachery_discard: tuple[str, ...]
    leaders: tuple[LeadersView, ...]
    dialers: tuple[Faction, ...]
    dialed: tuple[Faction, ...]
    alliance_offers: tuple[tuple[Faction, Faction], ...]
    prediction_made: bool
    shield_wall_destroyed: bool
    kwisatz_haderach_active: bool
    bribes: tuple[tuple[Faction, int], ...] = ()  # spice in front of shields (1.12.02)
    kwisatz_haderach_dead: bool = False
    truthtrance: tuple[Faction, Faction] | None = None  # an open question: (asker, target)
    alone: bool = False  # one phase played alone: the game stops after it (a scenario)
    parts: Mapping[str, object] = field(default_factory=dict)
    """Each phase's own public part, by its name (its spec's ``view``; None while it has
    nothing to show): read back through the phase's own view module."""

    @property
    def in_shipment_movement(self) -> bool:
        return self.phase == GamePhase.SHIPMENT_MOVEMENT.value


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
    game: GameView

    def faction(self, faction: Faction) -> FactionPublic:
        return next(f for f in self.factions if f.faction == faction)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = _jsonable(asdict(self))
        data["game"] = _flat(data["game"])
        return data


@dataclass(frozen=True, slots=True)
class GameSecrets:
    """One faction's secrets in a whole game (never part of a public view)."""

    prediction: tuple[Faction, int] | None  # the Bene Gesserit's own
    dial: int | None  # its own dial, not yet revealed
    spares_ally: bool | None = None  # the Fremen's own choice: the worm spares their ally
    karama_worm: str | None = None  # where the Fremen's Karama worm will come up (1.14.03)
    truthtrance: dict[str, Any] | None = None  # the last question it asked or was asked
    parts: Mapping[str, object] = field(default_factory=dict)
    """Each phase's own secrets for this faction, by the phase view's name."""


@dataclass(frozen=True, slots=True)
class PrivateView:
    """One faction's view: the public view plus its own spice and cards."""

    public: PublicView
    faction: Faction
    spice: int
    cards: tuple[str, ...]
    legal_actions: tuple[str, ...]
    secrets: GameSecrets

    def to_dict(self) -> dict[str, Any]:
        out = {
            "public": self.public.to_dict(),
            "faction": self.faction.value,
            "spice": self.spice,
            "cards": list(self.cards),
            "legal_actions": list(self.legal_actions),
        }
        out["secrets"] = _flat(_jsonable(asdict(self.secrets)), inside=True)
        return out


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
        game=game_view(state),
    )


def game_view(state: Position) -> GameView:
    game = state.whole
    return GameView(
        turn=game.turn,
        last_turn=game.last_turn,
        phase=game.phase.value,
        step=game.step,
        waiting=game.waiting,
        winner=game.winner.factions if game.winner else (),
        won_by=game.winner.how if game.winner else None,
        spice_deck_cards=len(game.spice_deck),
        spice_discard=game.spice_discard,
        spice_discard_b=game.spice_discard_b,
        treachery_deck_cards=len(game.treachery_deck),
        treachery_discard=game.treachery_discard,
        leaders=tuple(
            LeadersView(
                f,
                game.held(game.leaders, f),
                game.held(game.leaders_tanks, f),
                tuple(sorted(n for n, owner in game.captives.items() if owner is f)),
            )
            for f in sorted(state.factions)
        ),
        dialers=game.dialers if dialing(game) else (),
        dialed=tuple(f for f in game.dialers if f in game.dials),
        alliance_offers=tuple(sorted(game.proposals)),
        prediction_made=game.prediction is not None,
        shield_wall_destroyed=game.shield_wall_destroyed,
        kwisatz_haderach_active=game.kwisatz_haderach_active,
        bribes=tuple(sorted(game.bribes.items())),
        kwisatz_haderach_dead=game.kwisatz_haderach_dead,
        truthtrance=(  # who asked whom, never the question (3.01.21)
            (game.truthtrance.asker, game.truthtrance.target)
            if game.truthtrance is not None and game.truthtrance.open
            else None
        ),
        alone=game.stop_after is not None,
        parts={view.name: view.public(state) for view in _phase_views()},
    )


def game_secrets(state: Position, faction: Faction) -> GameSecrets:
    game = state.whole
    return GameSecrets(
        prediction=game.prediction if faction is Faction.BENE_GESSERIT else None,
        dial=game.dials.get(faction),
        spares_ally=not game.fremen_expose_ally if faction is Faction.FREMEN else None,
        karama_worm=game.karama_worm if faction is Faction.FREMEN else None,
        truthtrance=(  # the asker's and the target's alone (FAQ 55)
            game.truthtrance.to_dict()
            if game.truthtrance is not None
            and faction in (game.truthtrance.asker, game.truthtrance.target)
            else None
        ),
        parts={v.name: v.secret(state, faction) for v in _phase_views() if v.secret is not None},
    )


def _phase_views() -> list[PhaseView]:
    return [view for spec in REGISTRY.values() for view in spec.views]


def _flat(data: dict[str, Any], inside: bool = False) -> dict[str, Any]:
    """The stored form keeps each phase's part where the view kept it before it had parts:
    a public part by its name beside the game's fields, a faction's secrets' fields beside
    its other secrets."""
    parts = data.pop("parts", {})
    if not inside:
        return {**data, **parts}
    return {**data, **{k: v for part in parts.values() for k, v in part.items()}}


def private_view(state: Position, faction: Faction, legal_actions: tuple[str, ...]) -> PrivateView:
    own = state.factions[faction]
    return PrivateView(
        public=public_view(state),
        faction=faction,
        spice=own.spice,
        cards=own.cards,
        legal_actions=legal_actions,
        secrets=game_secrets(state, faction),
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.value
    return value
