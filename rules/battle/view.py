"""The Battle phase's part of the views (:class:`rules.phase_spec.PhaseView`): the battle under
way as everyone sees it (where, who, whose plan is in, the Voice and the Prescience asked;
never a plan's content before the reveal) and a faction's own side of it (its own plan before
the reveal, the opponent's plan the Atreides' Karama showed, the leader the Harkonnen drew);
and the traitors (0.11): how many each faction holds, for everyone, and which, for itself
(with those dealt to it at set-up, not yet chosen)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.battle.model import BATTLE, Battle
from rules.battle.traitors import OFFERS, TRAITORS
from rules.factions import Faction
from rules.phase_spec import PhaseView
from rules.position import Position

if TYPE_CHECKING:
    from rules.view import GameSecrets, GameView

NAME = "battle"


@dataclass(frozen=True, slots=True)
class BattleView:
    """The battle under way as everyone sees it: where, who, whose plan is in, the Voice
    and the Prescience asked; never a plan's content before the reveal."""

    territory: str
    sectors: tuple[int | None, ...]
    aggressor: Faction
    defender: Faction
    plans_in: tuple[Faction, ...]
    revealed: bool
    voice: tuple[str, str] | None
    prescience: str | None


@dataclass(frozen=True, slots=True)
class BattleSecrets:
    """A faction's own side of the battle under way."""

    battle_plan: dict[str, Any] | None = None  # its own plan, before the reveal (1.07.04)
    foreseen_plan: dict[str, Any] | None = None  # the Atreides' Karama power (1.14.01)
    captive_drawn: str | None = None  # the leader the Harkonnen drew (them and the victim)


def public(state: Position) -> BattleView | None:
    battle = BATTLE.of(state.whole)
    if battle is None:
        return None
    return BattleView(
        territory=battle.territory,
        sectors=battle.sectors,
        aggressor=battle.aggressor,
        defender=battle.defender,
        plans_in=tuple(f for f in battle.sides if f in battle.plans),
        revealed=battle.revealed,
        voice=battle.voice,
        prescience=battle.prescience,
    )


def secret(state: Position, faction: Faction) -> BattleSecrets:
    battle = BATTLE.of(state.whole)
    if battle is None:
        return BattleSecrets()
    return BattleSecrets(
        _own_plan(battle, faction), _foreseen(battle, faction), _captive(battle, faction)
    )


def _own_plan(battle: Battle, faction: Faction) -> dict[str, Any] | None:
    if battle.revealed or faction not in battle.plans:
        return None
    return battle.plans[faction].to_dict()


def _foreseen(battle: Battle, faction: Faction) -> dict[str, Any] | None:
    """The opponent's whole plan, for the Atreides who played their Karama power."""
    if battle.prescience != "plan" or battle.prescience_by is not faction:
        return None
    opponent = battle.opponent(faction)
    return battle.plans[opponent].to_dict() if opponent in battle.plans else None


def _captive(battle: Battle, faction: Faction) -> str | None:
    if battle.captive is None or battle.winner is None:
        return None
    if faction in (Faction.HARKONNEN, battle.opponent(battle.winner)):
        return battle.captive
    return None


VIEW = PhaseView(NAME, public, secret)

HELD = "traitors_held"


@dataclass(frozen=True, slots=True)
class TraitorSecrets:
    """A faction's own traitors: those it holds, and those dealt to it at set-up while it
    has still to keep one (0.11)."""

    traitors: tuple[str, ...] = ()
    traitors_offered: tuple[str, ...] = ()


def traitors_held(state: Position) -> tuple[tuple[Faction, int], ...]:
    """How many traitors each faction holds, as everyone knows (never which)."""
    game = state.whole
    return tuple((f, len(game.held(TRAITORS.of(game), f))) for f in sorted(state.factions))


def own_traitors(state: Position, faction: Faction) -> TraitorSecrets:
    game = state.whole
    return TraitorSecrets(
        game.held(TRAITORS.of(game), faction), game.held(OFFERS.of(game), faction)
    )


TRAITORS_VIEW = PhaseView(HELD, traitors_held, own_traitors)


def battle_of(game: GameView) -> BattleView | None:
    """The battle under way in ``game`` (None: none is)."""
    part = game.parts.get(NAME)
    return part if isinstance(part, BattleView) else None


def traitor_secrets(secrets: GameSecrets | None) -> TraitorSecrets:
    """A faction's own traitors, from its secrets."""
    part = secrets.parts.get(HELD) if secrets is not None else None
    return part if isinstance(part, TraitorSecrets) else TraitorSecrets()


def battle_secrets(secrets: GameSecrets | None) -> BattleSecrets:
    """A faction's own side of the battle under way, from its secrets."""
    part = secrets.parts.get(NAME) if secrets is not None else None
    return part if isinstance(part, BattleSecrets) else BattleSecrets()
