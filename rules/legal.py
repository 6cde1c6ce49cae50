"""What a faction may do now, as actions: the concrete answers to its prompts and
turn actions, and a test of any action (ship and move, with their many targets).

An action is legal when the engine would accept it now: :func:`is_legal` tries
it on a copy of the position. The answers to a prompt are the candidates the
prompt allows that pass that test, so each rule lives once, in the module that
enforces it (the advisor's target in :mod:`rules.bene_gesserit`, for one).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules import (
    bribes,
    guild,
    karama,
    karama_turn,
    machine,
    shipment,
    truthtrance,
)
from rules.actions import (
    Action,
    Advise,
    Bribe,
    Decline,
    FactionAction,
    Flip,
    FremenAllyWorm,
    GuildDelay,
    GuildNow,
    KaramaCancel,
    KaramaPrevent,
    KaramaStopShipment,
    KaramaWorm,
    Pass,
    PlayHajr,
    PlayTruthtrance,
)
from rules.board import POLAR_SINK
from rules.errors import RulesError
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.model import Ability, Prompt, PromptKind, Side, Step
from rules.phases import REGISTRY
from rules.position import Position

MOVE = "move"


def is_legal(state: Position, action: Action) -> bool:
    """Would the engine accept ``action`` now? (It is tried on a copy: the position is
    never changed.)"""
    try:
        machine.apply_action(state.copy(), action)
    except RulesError:
        return False
    return True


@dataclass(frozen=True, eq=False)
class LegalActions:
    """What ``faction`` may do now.

    Iterating gives the concrete actions (prompt answers, pass, Hajr, Guild
    timing, Karama prevention); ``action in legal`` tests any action, so a
    shipment or move with its target too (find targets with the position's
    ``legal_*_destinations`` queries). ``kinds()`` names every kind of action
    open now, the parametrised ones (ship, move...) included.
    """

    state: Position
    faction: Faction
    actions: tuple[FactionAction, ...]
    parametrised: tuple[str, ...]

    def __iter__(self) -> Iterator[FactionAction]:
        return iter(self.actions)

    def __len__(self) -> int:
        return len(self.actions)

    def __bool__(self) -> bool:
        return bool(self.actions or self.parametrised)

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, FactionAction)
            and action.faction == self.faction
            and is_legal(self.state, action)
        )

    def kinds(self) -> tuple[str, ...]:
        """The action names, turn actions first (``ship``, ``move``, ``pass``...)."""
        return tuple(dict.fromkeys([*self.parametrised, *(a.name for a in self.actions)]))


def legal_actions(
    state: Position, faction: Faction, *, open_stage_only: bool = False
) -> LegalActions:
    """What ``faction`` may do now; with ``open_stage_only``, while prompts are open,
    only its answers to the open stage (what a session that lets windows run accepts)."""
    game = state.game
    if truthtrance.open_question(state) is not None:  # the game waits for its answer
        return LegalActions(state, faction, tuple(truthtrance.answers(state, faction)), ())
    extra = any_time_actions(state, faction) if not open_stage_only else []
    spec = REGISTRY.get(game.phase)
    if spec is None or spec.dispatch is None:  # a phase of choices
        found = [*(spec.offers(state, faction) if spec else []), *extra]
        kinds = _any_time_kinds(state, faction) if not open_stage_only else ()
        return LegalActions(
            state, faction, _unique([a for a in found if is_legal(state, a)]), kinds
        )
    if open_stage_only and state.phase.stages:
        stage = state.phase.stages[0]
        answers = [
            a for p in stage if faction in p.waiting_on() for a in answers_to(state, p, faction)
        ]
        return LegalActions(state, faction, _unique(answers), ())
    parametrised, actions = _turn_actions(state, faction)
    parametrised += _any_time_kinds(state, faction) if not open_stage_only else ()
    for stage in state.phase.stages:  # answering a later prompt declines the earlier stages
        for prompt in stage:
            if faction in prompt.waiting_on():
                actions += answers_to(state, prompt, faction)
    prevent = KaramaPrevent(faction, Ability.SHIP_AS_IT_PLEASES_YOU)
    if karama.may_prevent(state, faction) and is_legal(state, prevent):
        actions.append(prevent)
    actions += [a for a in extra if is_legal(state, a)]
    return LegalActions(state, faction, _unique(actions), parametrised)


def _any_time_kinds(state: Position, faction: Faction) -> tuple[str, ...]:
    """A bribe (1.12) is open when one spice could go to some other faction now; a
    Truthtrance (3.01.21) when its holder could ask some other faction now."""
    others = [f for f in state.factions if f is not faction]
    kinds: tuple[str, ...] = ()
    if any(is_legal(state, Bribe(faction, f.value, 1)) for f in others):
        kinds += (Bribe.name,)
    if truthtrance_targets(state, faction):
        kinds += (PlayTruthtrance.name,)
    return kinds


def truthtrance_targets(state: Position, faction: Faction) -> list[Faction]:
    """The factions ``faction`` may ask with a Truthtrance now (none without the card)."""
    if not truthtrance.holds_card(state, faction):
        return []
    probe = truthtrance.PROBE
    return [
        other
        for other in state.factions
        if other is not faction and is_legal(state, PlayTruthtrance(faction, other.value, probe))
    ]


def any_time_actions(state: Position, faction: Faction) -> list[FactionAction]:
    """A whole game's actions for any phase: a Karama against a whole-turn ✷ ability,
    the Fremen's Karama worm, the Fremen's choice about their ally and the worm."""
    game = state.game
    if game.phase is GamePhase.OVER:
        return []
    found: list[FactionAction] = [
        KaramaPrevent(faction, a) for a in karama_turn.may_prevent(state, faction)
    ]
    if karama_turn.may_karama_worm(state, faction):
        found += [KaramaWorm(faction, t.name) for t in state.board if t.kind == "sand"]
    if faction is Faction.FREMEN and state.ally_of(faction) is not None:
        found.append(FremenAllyWorm(faction, protect=game.fremen_expose_ally))
    found += bribes.gift_candidates(state, faction)  # the Emperor's gift (2.03.06)
    for spec in REGISTRY.values():  # a phase's own any-time actions (the Tleilaxu Ghola)
        found += spec.any_time_offers(state, faction)
    return found


def _turn_actions(state: Position, faction: Faction) -> tuple[tuple[str, ...], list[FactionAction]]:
    turn = state.phase.turn
    if turn is None or turn.faction != faction:
        return (), []
    parametrised = [*shipment.shipment_kinds(state, faction)] if turn.step is Step.SHIP else []
    candidates = [Pass(faction), PlayHajr(faction)]
    if guild.may_delay(state, faction):
        candidates.append(GuildDelay(faction))
    return (*parametrised, MOVE), [a for a in candidates if is_legal(state, a)]


def answers_to(state: Position, prompt: Prompt, faction: Faction) -> list[FactionAction]:
    """The concrete answers ``faction`` may give ``prompt`` now, declining it last."""
    if faction not in prompt.waiting_on():
        return []
    candidates = [*_candidates(state, prompt, faction), Decline(faction, prompt.kind)]
    return [a for a in candidates if is_legal(state, a)]


def _candidates(state: Position, prompt: Prompt, faction: Faction) -> list[FactionAction]:
    kind = prompt.kind
    if kind is PromptKind.KARAMA:
        return [KaramaCancel(faction, prompt.ability)]
    if kind is PromptKind.GUILD_STOP:
        return [KaramaStopShipment(faction)]
    if kind is PromptKind.GUILD_TIMING:
        return [GuildNow(faction)]
    if kind is PromptKind.ADVISE:
        places = [POLAR_SINK, *([prompt.territory] if prompt.territory else [])]
        return [Advise(faction, place) for place in dict.fromkeys(places)]
    if kind is PromptKind.INTRUSION:
        return [Flip(faction, prompt.territory or "", Side.ADVISORS)]
    held = sorted({t for (f, t, _), s in state.stacks.items() if f is faction and s.advisors})
    return [Flip(faction, territory, Side.FIGHTERS) for territory in held]


def _unique(actions: list[FactionAction]) -> tuple[FactionAction, ...]:
    return tuple(dict.fromkeys(actions))
