"""Spacing Guild timing (SHIP AS IT PLEASES YOU, 2.06.12) and its once-a-game
Karama power to stop an off-planet shipment (1.14.06), advanced game only.
"""

from __future__ import annotations

from rules import turn_flow
from rules.actions import GuildDelay, GuildNow, KaramaStopShipment
from rules.errors import IllegalActionError
from rules.events import Event, GuildActsNow, GuildDelays, ShipmentStopped
from rules.factions import KARAMA, Faction, same_card
from rules.model import JSON, Ability, Prompt, PromptKind, Stack, Turn
from rules.position import Position

GUILD = Faction.SPACING_GUILD
TIMING_RULE = "2.06.12"
AHEAD_RULE = "2.06.12.01"
HOLDING_RULE = "2.06.12.02"
STOP_RULE = "1.14.06"


def now(state: Position, action: GuildNow) -> list[Event]:
    """SHIP AND MOVE AHEAD OF SCHEDULE (or act after a delay): the Guild's turn starts."""
    prompt = turn_flow.find_open_prompt(
        state, action.faction, frozenset({PromptKind.GUILD_TIMING}), rule=AHEAD_RULE
    )
    displaced = state.phase.turn
    if displaced is None or not displaced.untouched:
        raise IllegalActionError(
            "the Guild may act only before another faction starts its turn", rule=AHEAD_RULE
        )
    turn_flow.remove_prompt(state, prompt)
    before = state.snapshot()
    state.set_phase(turn=Turn(GUILD, ornithopters_at_start=state.has_ornithopters(GUILD)))
    state.push_stages(state.karama_stage([(GUILD, Ability.SHIP_AS_IT_PLEASES_YOU)], before, None))
    return [GuildActsNow(GUILD, before=displaced.faction, rule=AHEAD_RULE)]


def may_delay(state: Position, faction: Faction) -> bool:
    turn = state.phase.turn
    others_left = [f for f in state.phase.order if f not in state.phase.done and f != GUILD]
    return (
        faction is GUILD
        and state.rules.advanced
        and turn is not None
        and turn.faction is GUILD
        and turn.untouched
        and not state.phase.guild_delayed
        and not state.phase.guild_timing_blocked
        and bool(others_left)
    )


def delay(state: Position, action: GuildDelay) -> list[Event]:
    """HOLDING PATTERN: when up, the Guild announces 'Delay' and acts later."""
    turn_flow.require_turn(state, action.faction)
    if not may_delay(state, action.faction):
        raise IllegalActionError(_why_no_delay(state), rule=HOLDING_RULE)
    before = state.snapshot()
    state.set_phase(turn=None, guild_delayed=True)
    state.push_stages(state.karama_stage([(GUILD, Ability.SHIP_AS_IT_PLEASES_YOU)], before, None))
    return [GuildDelays(GUILD, rule=HOLDING_RULE)]


def _why_no_delay(state: Position) -> str:
    if not state.rules.advanced:
        return "the Guild chooses its timing only in the advanced game"
    if state.phase.guild_timing_blocked:
        return "a Karama stopped the Guild's timing this phase"
    turn = state.phase.turn
    if turn is not None and not turn.untouched:
        return "the Guild has already begun its turn"
    if state.phase.guild_delayed:
        return "the Guild has already delayed"
    return "nobody is left to act after the Guild"


def stop_prompt(
    state: Position, shipper: Faction, territory: str, sector: int | None, shipment: JSON
) -> tuple[Prompt, ...]:
    """After another faction's off-planet shipment, the Guild may stop it (once a game)."""
    if not state.rules.advanced or not state.guild_in_game or shipper is GUILD:
        return ()
    if state.phase.guild_karama_used:
        return ()
    return (
        Prompt(
            PromptKind.GUILD_STOP,
            (GUILD,),
            subject=shipper,
            territory=territory,
            sector=sector,
            redo=shipment,
        ),
    )


def stop_shipment(state: Position, action: KaramaStopShipment) -> list[Event]:
    """The shipment goes back to reserves; the spice paid stays paid; the shipment is spent."""
    prompt = turn_flow.find_open_prompt(
        state, action.faction, frozenset({PromptKind.GUILD_STOP}), rule=STOP_RULE
    )
    card = next((c for c in state.factions[GUILD].cards if same_card(c, KARAMA)), None)
    if card is None:
        raise IllegalActionError("the Guild holds no Karama card", rule=STOP_RULE)
    shipped = _shipped_forces(prompt)
    shipper = prompt.subject
    assert shipper is not None and prompt.territory is not None
    state.remove(shipper, prompt.territory, prompt.sector, shipped)
    state.to_reserves(shipper, shipped)
    state.discard(GUILD, card)
    state.set_phase(guild_karama_used=True)
    state.set_game(karama_powers_used=state.game.karama_powers_used | {GUILD})
    _drop_prompts_about(state, shipper)
    return [
        ShipmentStopped(
            faction=GUILD,
            shipper=shipper,
            territory=prompt.territory,
            sector=prompt.sector,
            forces=shipped.forces,
            special=shipped.special,
            rule=STOP_RULE,
        )
    ]


def _shipped_forces(prompt: Prompt) -> Stack:
    assert prompt.redo is not None
    return Stack(int(prompt.redo["forces"]), int(prompt.redo.get("special") or 0))


def _drop_prompts_about(state: Position, shipper: Faction) -> None:
    """The stopped shipment no longer stands: its Karama windows and BG prompts close."""
    gone = {PromptKind.KARAMA, PromptKind.ADVISE, PromptKind.INTRUSION, PromptKind.GUILD_STOP}
    stages = []
    for stage in state.phase.stages:
        kept = tuple(p for p in stage if not (p.kind in gone and p.subject in (shipper, GUILD)))
        if kept:
            stages.append(kept)
    state.set_phase(stages=tuple(stages))
