"""Karama (3.01.11): cancel a ✷ ability just used, or prevent a ✷…✷ ability.

A cancel restores the position from just before the ability was used (saved in the
window's prompt: part of this rule, not a way back; a moderator's correction made while
the window is open is made in that saved position too, see :mod:`rules.corrections`). The
faction whose ability was cancelled may then retake that action without it
(the ability stays disabled for the rest of its turn); a cancelled Guild
payment is the exception: the shipment stands and the spice goes to the bank.
"""

from __future__ import annotations

from dataclasses import replace

from rules import bene_gesserit, shipment
from rules.actions import CrossShip, KaramaCancel, KaramaPrevent, Ship, action_from_dict
from rules.errors import IllegalActionError
from rules.events import Event, GuildTimingCancelled, KaramaCancelled, KaramaPrevented, Retake
from rules.factions import Faction
from rules.karama_turn import karama_to_play
from rules.model import Ability, BlockedAbility, Prompt, PromptKind, Snapshot
from rules.position import Position

KARAMA_RULE = "3.01.11"
PREVENTABLE = frozenset({Ability.SHIP_AS_IT_PLEASES_YOU})
RETAKE = frozenset(
    {
        Ability.FREMEN_MOVEMENT,
        Ability.STORM_MIGRATION,
        Ability.HALF_PRICE,
        Ability.ALLY_HALF_PRICE,
        Ability.CROSS_SHIP,
        Ability.ALLY_CROSS_SHIP,
        Ability.OFF_PLANET,
        Ability.TAKE_UP_ARMS,
    }
)


def cancel(state: Position, action: KaramaCancel) -> list[Event]:
    faction = action.faction
    prompt = _window(state, faction, action.ability)
    card = karama_to_play(state, faction, action.card)
    assert prompt.before is not None and prompt.ability is not None
    ability, user = prompt.ability, prompt.subject
    assert user is not None
    played_at = state.snapshot()
    state.restore(prompt.before)
    state.discard(faction, card)
    events: list[Event] = [
        KaramaCancelled(
            faction=faction,
            card=card,
            ability=ability,
            against=user,
            rule=ability.rule,
        )
    ]
    events += _after_cancel(state, ability, user, prompt)
    open_bg_karama_window(state, faction, card, played_at)
    return events


def open_bg_karama_window(state: Position, faction: Faction, card: str, before: Snapshot) -> None:
    use = bene_gesserit.bg_karama_use(faction, card)
    if use is not None:
        state.push_stages(state.karama_stage([use], before, {"card": card}))


def _window(state: Position, faction: Faction, ability: Ability | None) -> Prompt:
    for prompt in state.phase.open_prompts:
        if prompt.kind is not PromptKind.KARAMA or faction not in prompt.waiting_on():
            continue
        if ability is None or prompt.ability == ability:
            return prompt
    what = f"the {ability.label} ability" if ability else "a ✷ ability"
    raise IllegalActionError(
        f"there is no use of {what} by another faction to cancel now", rule=KARAMA_RULE
    )


def _after_cancel(state: Position, ability: Ability, user: Faction, prompt: Prompt) -> list[Event]:
    if ability in RETAKE or ability is Ability.GUILD_PAYMENT:
        turn = state.phase.turn
        assert turn is not None
        state.set_phase(turn=replace(turn, disabled=turn.disabled | {ability}))
    if ability is Ability.GUILD_PAYMENT:
        assert prompt.redo is not None
        return _redo_shipment(state, action_from_dict(prompt.redo))
    if ability is Ability.BG_KARAMA:
        spent = (prompt.redo or {}).get("card") or state.karama_card(Faction.BENE_GESSERIT)
        if spent is not None:  # the worthless card is spent all the same
            state.discard(Faction.BENE_GESSERIT, str(spent))
        return []
    if ability is Ability.SHIP_AS_IT_PLEASES_YOU:
        state.set_phase(guild_timing_blocked=True)
        return [GuildTimingCancelled(user, rule=ability.rule)]
    if ability is Ability.WARTIME:
        assert prompt.redo is not None
        territory = str(prompt.redo["territory"])
        resolved = state.board.resolve(territory)
        name = resolved.name if resolved else territory
        blocked = BlockedAbility(Ability.WARTIME, name)
        state.set_phase(karama_blocked=state.phase.karama_blocked | {blocked})
    if ability in RETAKE:
        return [Retake(user, without=ability, rule=ability.rule)]
    return []


def _redo_shipment(state: Position, redo: object) -> list[Event]:
    """The shipment whose Guild payment was cancelled stands (the spice goes to the bank)."""
    if isinstance(redo, Ship):
        return shipment.ship(state, redo)
    assert isinstance(redo, CrossShip)
    return shipment.cross_ship(state, redo)


def may_prevent(state: Position, faction: Faction) -> bool:
    """Another faction may prevent the Guild's timing until the Guild has used it."""
    guild = Faction.SPACING_GUILD
    phase = state.phase
    return (
        faction is not guild
        and state.rules.advanced
        and state.guild_in_game
        and guild not in phase.done
        and not phase.guild_timing_blocked
        and not phase.guild_delayed
        and not guild_acting_early(state)
        and state.karama_card(faction) is not None
    )


def guild_acting_early(state: Position) -> bool:
    """The Guild's turn runs while a faction before it in storm order has not acted."""
    phase = state.phase
    guild = Faction.SPACING_GUILD
    if phase.turn is None or phase.turn.faction is not guild:
        return False
    earlier = phase.order[: phase.order.index(guild)]
    return any(f not in phase.done for f in earlier)


def prevent(state: Position, action: KaramaPrevent) -> list[Event]:
    faction = action.faction
    if action.ability is not Ability.SHIP_AS_IT_PLEASES_YOU:
        raise IllegalActionError(
            f"{action.ability.label} cannot be prevented: in this phase only the Guild's "
            "Ship As It Pleases You (✷…✷) can",
            rule=KARAMA_RULE,
        )
    card = karama_to_play(state, faction, action.card)
    if not may_prevent(state, faction):
        raise IllegalActionError(
            "the Guild's timing can be prevented only by another faction, in the advanced "
            "game, before the Guild uses it",
            rule=KARAMA_RULE,
        )
    played_at = state.snapshot()
    state.discard(faction, card)
    state.set_phase(guild_timing_blocked=True)
    _drop_timing_prompts(state)
    open_bg_karama_window(state, faction, card, played_at)
    return [
        KaramaPrevented(
            faction=faction,
            card=card,
            ability=Ability.SHIP_AS_IT_PLEASES_YOU,
            rule=Ability.SHIP_AS_IT_PLEASES_YOU.rule,
        )
    ]


def _drop_timing_prompts(state: Position) -> None:
    stages = []
    for stage in state.phase.stages:
        kept = tuple(p for p in stage if p.kind is not PromptKind.GUILD_TIMING)
        if kept:
            stages.append(kept)
    state.set_phase(stages=tuple(stages))
