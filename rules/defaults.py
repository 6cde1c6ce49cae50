"""What a faction's choice is when its deadline passes without an answer.

The session applies :func:`default_action` to each faction a choice phase still waits on
when time runs out (docs/whole-turn-readings.md, "Defaults on a deadline", lists the
readings). Every default is one of the engine's legal actions, chosen without chance, so the
same position always gets the same default. The Shipment & Movement phase keeps its own
defaults (a faction passes its step; open prompts are declined), and the phases the
moderator records have none.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.actions import (
    AnswerTruthtrance,
    BattlePlan,
    ClaimCharity,
    Dial,
    FactionAction,
    FremenStormLosses,
    GiveBackCards,
    KeepTraitor,
    Pass,
    PlaceAdvisor,
    PlaceFremen,
    PlaceWorm,
    Predict,
)
from rules.battle_plans import plan_options, voice_cards
from rules.board import POLAR_SINK
from rules.components import leader_strength, leaders
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.legal import CHOICES, is_legal
from rules.position import Position
from rules.truthtrance_model import NO_ANSWER

FREMEN_SPLIT = (4, 3, 3)
"""Sietch Tabr, False Wall South, False Wall West: the Fremen's ten forces by default."""


def default_action(state: Position, faction: Faction) -> FactionAction | None:
    """The legal action that answers for ``faction`` by default now (None: nothing awaited
    of it here, or a phase without defaults)."""
    game = state.game
    question = game.truthtrance if game is not None else None
    if question is not None and question.open:  # Truthtrance: no answer given (T4)
        return AnswerTruthtrance(faction, NO_ANSWER) if faction is question.target else None
    if game is None or faction not in game.waiting:
        return None
    choices = CHOICES.get(game.phase)
    if choices is None:
        return None
    legal = [a for a in choices(state, faction) if is_legal(state, a)]
    if not legal:
        return None
    for pick in _PICKS.get(game.phase, ()):
        chosen = pick(state, faction, legal)
        if chosen is not None:
            return chosen
    return _first(legal, Pass) or legal[0]


Pick = Callable[[Position, Faction, list[FactionAction]], FactionAction | None]


def _first(legal: list[FactionAction], kind: type[FactionAction]) -> FactionAction | None:
    return next((a for a in legal if isinstance(a, kind)), None)


def _traitor(state: Position, faction: Faction, legal: list[FactionAction]) -> FactionAction | None:
    """The first leader offered that is not the faction's own (else the first offered)."""
    offered = [a for a in legal if isinstance(a, KeepTraitor)]
    own = set(leaders(faction))
    return next((a for a in offered if a.leader not in own), next(iter(offered), None))


def _prediction(
    state: Position, faction: Faction, legal: list[FactionAction]
) -> FactionAction | None:
    """The first other faction in seat order, on the last turn."""
    predictions = [a for a in legal if isinstance(a, Predict)]
    last = max((a.turn for a in predictions), default=0)
    for seat in state.seats:
        wanted = next((a for a in predictions if a.turn == last and a.who == str(seat)), None)
        if seat is not None and wanted is not None:
            return wanted
    return next(iter(predictions), None)


def _fremen(state: Position, faction: Faction, legal: list[FactionAction]) -> FactionAction | None:
    wanted = PlaceFremen(faction, *FREMEN_SPLIT)
    return wanted if wanted in legal else _first(legal, PlaceFremen)


def _advisor(state: Position, faction: Faction, legal: list[FactionAction]) -> FactionAction | None:
    placed = [a for a in legal if isinstance(a, PlaceAdvisor)]
    return next((a for a in placed if a.to == POLAR_SINK), next(iter(placed), None))


def _dial(state: Position, faction: Faction, legal: list[FactionAction]) -> FactionAction | None:
    """The lowest dial allowed (0 on turn 1, 1 after)."""
    dials = [a for a in legal if isinstance(a, Dial)]
    return min(dials, key=lambda a: a.value, default=None)


def _storm_losses(
    state: Position, faction: Faction, legal: list[FactionAction]
) -> FactionAction | None:
    """As few Fedaykin as the rules allow, stack by stack."""
    losses = [a for a in legal if isinstance(a, FremenStormLosses)]
    return min(losses, key=lambda a: a.special, default=None)


def _worm(state: Position, faction: Faction, legal: list[FactionAction]) -> FactionAction | None:
    """The first sand territory (board order) where the worm finds no forces and no spice."""
    places = [a for a in legal if isinstance(a, PlaceWorm)]
    empty = [
        a
        for a in places
        if not state.stacks_in(a.territory)
        and not any(n for (t, _), n in state.board_spice.items() if t == a.territory)
    ]
    return next(iter(empty + places), None)


def _charity(state: Position, faction: Faction, legal: list[FactionAction]) -> FactionAction | None:
    """Claimed: it costs the faction nothing."""
    return _first(legal, ClaimCharity)


def _give_back(
    state: Position, faction: Faction, legal: list[FactionAction]
) -> FactionAction | None:
    """The Harkonnen give back the cards they took (the last of their hand, 1.14.04)."""
    return _first(legal, GiveBackCards)


def _set_up(state: Position, faction: Faction, legal: list[FactionAction]) -> FactionAction | None:
    for pick in (_traitor, _prediction, _fremen, _advisor):
        chosen = pick(state, faction, legal)
        if chosen is not None:
            return chosen
    return None


def _battle_plan(
    state: Position, faction: Faction, legal: list[FactionAction]
) -> FactionAction | None:
    """The weakest free leader (else a Cheap Hero, else none), number 0, no spice, no
    card; a card (or the Cheap Hero) only where the Voice commands it and it can obey."""
    plans = [a for a in legal if isinstance(a, BattlePlan)]
    options = plan_options(state, faction)
    if not plans or options is None:
        return None
    leader = next(iter(options.leaders), next(iter(options.cheap_heroes), None))
    weapon = defense = None
    if options.voice is not None and options.voice[0] == "play" and leader is not None:
        if options.voice[1] == "Cheap Hero" and options.cheap_heroes:
            leader = options.cheap_heroes[0]
        weapon, defense = voice_cards(options)
    wanted = BattlePlan(faction, options.territory, leader, 0, weapon, defense)
    if is_legal(state, wanted):
        return wanted
    return min(plans, key=lambda a: (_strength(a.leader), a.number, len(_cards(a))))


def _cards(plan: BattlePlan) -> list[str]:
    return [c for c in (plan.weapon, plan.defense) if c]


def _strength(leader: str | None) -> int:
    return leader_strength(leader) if leader else 0


def _free_revival(
    state: Position, faction: Faction, legal: list[FactionAction]
) -> FactionAction | None:
    """Revival: pass, the free revival alone (it costs the faction nothing)."""
    return _first(legal, Pass)


_PICKS: dict[GamePhase, tuple[Pick, ...]] = {
    GamePhase.SETUP: (_set_up,),
    GamePhase.STORM: (_dial, _storm_losses),  # storm cards: pass (the fallback)
    GamePhase.SPICE_BLOW: (_worm,),  # the Nexus and the worm ride: pass
    GamePhase.CHOAM_CHARITY: (_charity,),
    # the aggressor's battle: the first offered (board order); other choices: pass
    # (no Voice, no Prescience, no traitor called, every card kept, no capture)
    GamePhase.BATTLE: (_battle_plan,),
    GamePhase.BIDDING: (_give_back,),  # the auction: pass (the fallback)
    GamePhase.REVIVAL: (_free_revival,),  # revival
}
