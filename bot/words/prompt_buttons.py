"""The Shipment & Movement phase's buttons: its passes and its prompts' answers (Karama,
the Guild's timing, the Bene Gesserit's advisors, Hajr), in words (:mod:`bot.words.answers`).

A decline names its prompt where one message asks several (the pass and the decline
themselves are every phase's: :mod:`bot.words.answers`).
"""

from __future__ import annotations

from dataclasses import replace

from bot.publisher import Answer
from bot.words import narrate
from bot.words.answers import buttons, presents
from rules.actions import (
    Advise,
    Decline,
    FactionAction,
    Flip,
    GuildDelay,
    GuildNow,
    KaramaCancel,
    KaramaStopShipment,
    PlayHajr,
)
from rules.board import POLAR_SINK
from rules.factions import KARAMA, same_card
from rules.game import GameState
from rules.model import PromptKind

KIND_WORDS = {
    PromptKind.KARAMA.value: "Karama",
    PromptKind.GUILD_STOP.value: "stop",
    PromptKind.ADVISE.value: "advisor",
    PromptKind.INTRUSION.value: "intrusion",
    PromptKind.WARTIME.value: "wartime",
    PromptKind.GUILD_TIMING.value: "timing",
}
"""The prompt a decline answers, where one message asks several ("Decline: advisor")."""
__all__ = ["buttons", "decline_naming"]  # buttons: with this phase's words registered


def decline_naming(answer: Answer) -> Answer:
    """A decline's button naming its prompt (one message asking several)."""
    if not isinstance(answer.action, Decline):
        return answer
    kind = answer.action.prompt
    return replace(answer, label=f"Decline: {KIND_WORDS.get(kind, kind)}")


@presents(Advise)
def advise_button(state: GameState, action: FactionAction) -> Answer | None:
    """The advisor's places: the Polar Sink, or the shipment's territory (its sector)."""
    if not isinstance(action, Advise):
        return None
    if action.to == POLAR_SINK:
        return Answer(action, "Advise to the Polar Sink", "Advisor sent to the Polar Sink")
    pending = [p for stage in state.phase.stages for p in stage]
    sector = next((p.sector for p in pending if p.kind is PromptKind.ADVISE), None)
    there = narrate.where(action.to, sector)
    return Answer(action, f"Advise to {there}", f"Advisor sent to {there}")


@presents(KaramaCancel, KaramaStopShipment, Flip, GuildNow, GuildDelay, PlayHajr)
def prompt_button(state: GameState, action: FactionAction) -> Answer | None:
    match action:
        case KaramaCancel(card=card):
            named = card is not None and not same_card(card, KARAMA)  # a card used as one
            label = f"Cancel it with Karama ({card})" if named else "Cancel it with Karama"
            return Answer(action, label, "Cancelled with Karama")
        case KaramaStopShipment():
            return Answer(action, "Stop the shipment (Karama)", "Shipment stopped with Karama")
        case Flip(territory=territory):
            return Answer(action, f"Flip in {territory}", "Flipped")
        case GuildNow():
            return Answer(action, "Act now", "You act now")
        case GuildDelay():
            return Answer(action, "Delay", "Delayed")
        case PlayHajr():
            return Answer(action, "Play Hajr", "Hajr played")
    return None
