"""Words for what happened: public events and the public view as readable lines.

Everything here reads only public events and :class:`~rules.view.PublicView`,
so its text may go to any channel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.publisher import AttachmentRefusedError, ChannelGoneError, player
from bot.store import Redone, Undone
from bot.words.common import ability_word, possessive, starred
from bot.words.turn import describe_turn_event
from rules.actions import Action, Decline, FactionAction, Pass
from rules.board import POLAR_SINK, standard_board
from rules.events import (
    AbilityStopped,
    AllianceConstraint,
    BribePaid,
    BribesCollected,
    CardGiven,
    CardTaken,
    Corrected,
    CrossShipped,
    Event,
    Flipped,
    ForcesPlaced,
    ForcesRemoved,
    GuildActsNow,
    GuildDelays,
    GuildTimingCancelled,
    HajrPlayed,
    KaramaCancelled,
    KaramaPower,
    KaramaPrevented,
    Landing,
    Moved,
    MovementPassed,
    PhaseComplete,
    PromptDeclined,
    PromptsClosed,
    Retake,
    Sent,
    ShipmentPassed,
    ShipmentStopped,
    Shipped,
    ShippedToReserves,
    SpiceSet,
    SpiritualAdvisor,
    StormLosses,
    StormSet,
    TurnEnded,
    TurnStarted,
)
from rules.factions import Faction
from rules.karama_turn import TURN_ABILITIES
from rules.model import Ability, Step
from rules.view import PublicPrompt, PublicView

PROMPT_NAMES = {
    "karama": "Karama window",
    "advise": "Spiritual Advisors",
    "intrusion": "Intrusion",
    "wartime": "Wartime",
    "guild_timing": "Guild timing",
    "guild_stop": "Guild's Karama stop",
}


def name(faction: Any) -> str:
    parsed = Faction.parse(str(faction)) if faction else None
    return parsed.label if parsed else str(faction)


def where(territory: str, sector: int | None) -> str:
    if territory == POLAR_SINK:
        return "the Polar Sink"
    return territory if sector is None else f"{territory} (sector {sector})"


def count(forces: int, special: int = 0, noun: str = "force", of: Any = None) -> str:
    """``3 forces and 2 Sardaukar``: the starred forces by the name the board gives them."""
    text = f"{forces} {noun}{'s' * (forces != 1)}"
    faction = Faction.parse(str(of)) if of else None
    return text + (f" and {special} {starred(faction)}" if special else "")


def _payment(e: Landing) -> str:
    if not e.cost:
        return "for free"
    payee = "the Spice Bank" if e.paid_to == "spice_bank" else f"the {name(e.paid_to)}"
    ally = f" ({name(e.ally)} paid {e.ally_paid})" if e.ally_paid else ""
    return f"for {e.cost} spice to {payee}{ally}"


def _shipment(e: Shipped) -> str:
    karama = " with a Karama card" if e.karama else ""
    return (
        f"{name(e.faction)} ships {count(e.forces, e.special, of=e.faction)} to "
        f"{where(e.to, e.sector)}{karama} {_payment(e)}."
    )


def _move(e: Moved) -> str:
    noun = "advisor" if e.advisors else "force"
    forces = count(e.forces, e.special, noun, of=e.faction)
    return f"{name(e.faction)} moves {forces} {route(e)}."


def route(e: Moved) -> str:
    """Where a move went: "from The Minor Erg to False Wall East (sector 4)", with the
    territories it crossed ("by way of Hole in the Rock"), or "within False Wall East, to
    sector 4" (a move between the sectors of one territory)."""
    if e.from_territory == e.to:
        return f"within {e.to}" + (f", to sector {e.sector}" if e.sector is not None else "")
    crossed = [where(t, None) for t in e.path[1:-1]]
    by_way = f" by way of {', '.join(crossed)}" if crossed else ""
    return f"from {where(e.from_territory, None)} to {where(e.to, e.sector)}{by_way}"


def _ability(ability: Ability) -> str:
    return ability_word(ability)


def describe(event: Event) -> str | None:
    """One line for a public event, or None for bookkeeping events. An event is never
    dumped field by field: every kind has words (tests/bot/test_event_words.py), and one
    without them says nothing rather than an engine record."""
    match event:
        case Shipped():
            return _shipment(event)
        case Sent():
            sent = count(event.forces, event.special, of=event.faction)
            return f"Fremen sends {sent} to {where(event.to, event.sector)}."
        case CrossShipped():
            forces = count(event.forces, event.special, of=event.faction)
            return (
                f"{name(event.faction)} cross-ships {forces} from "
                f"{event.from_territory} to {where(event.to, event.sector)} {_payment(event)}."
            )
        case ShippedToReserves():
            forces = count(event.forces, event.special, of=event.faction)
            return (
                f"{name(event.faction)} ships {forces} from "
                f"{event.from_territory} back to reserves for {event.cost} spice to the Spice Bank."
            )
        case Moved():
            return _move(event)
        case StormLosses():
            forces = count(event.forces, event.special, of=event.faction)
            return (
                f"The storm takes {forces} of {name(event.faction)} "
                f"to the Tleilaxu Tanks ({event.rule})."
            )
        case AllianceConstraint():
            forces = count(event.forces, event.special, of=event.faction)
            return (
                f"{possessive(name(event.faction))} {forces} in "
                f"{event.territory} share it with their ally {name(event.ally)} and go to the "
                f"Tleilaxu Tanks ({event.rule})."
            )
        case ShipmentPassed():
            return f"{name(event.faction)} does not ship."
        case MovementPassed():
            return f"{name(event.faction)} does not move."
        case TurnStarted():
            return f"**{name(event.faction)}** is up: {player(event.faction)}."
        case HajrPlayed():
            return f"{name(event.faction)} plays Hajr: {event.moves_allowed} moves this turn."
        case KaramaCancelled():
            return (
                f"{name(event.faction)} plays {event.card} to cancel "
                f"{_ability(event.ability)} ({event.rule})."
            )
        case KaramaPrevented():
            when = "the next use of" if event.ability in TURN_ABILITIES else "this phase"
            what = _ability(event.ability)
            target = f"{when} {what}" if event.ability in TURN_ABILITIES else f"{what} {when}"
            return f"{name(event.faction)} plays {event.card} to prevent {target}."
        case BribePaid():
            return (
                f"{name(event.faction)} give {name(event.to)} {event.amount} spice, in front of "
                "their shield until the Mentat Pause."
            )
        case BribesCollected():
            return f"{name(event.faction)} take the {event.amount} spice in front of their shield."
        case AbilityStopped():
            return f"Karama: {_ability(event.ability)} does not work this time."
        case KaramaPower(power="worm"):
            return (
                f"{name(event.faction)} play {event.card}: a worm will come up at the next "
                "spice blow, where they choose."
            )
        case Retake():
            return f"{name(event.faction)} may retake the action without {_ability(event.without)}."
        case GuildTimingCancelled():
            return "The Guild must keep its place in storm order."
        case GuildActsNow():
            return f"The Spacing Guild takes its turn now, before {name(event.before)}."
        case GuildDelays():
            return "The Spacing Guild delays its turn (it may take it before any later faction's)."
        case ShipmentStopped():
            forces = count(event.forces, event.special, of=event.shipper)
            return (
                "The Spacing Guild plays Karama to stop "
                f"{possessive(name(event.shipper))} shipment to {event.territory}: {forces} back "
                "to reserves, the spice stays paid."
            )
        case SpiritualAdvisor():
            return (
                f"Bene Gesserit sends a spiritual {event.token} to {where(event.to, event.sector)}."
            )
        case Flipped():
            return (
                f"The Bene Gesserit in {event.territory} flip to {event.to.value} ({event.rule})."
            )
        case PhaseComplete():
            return "The Shipment & Movement phase is over."
        case TurnEnded() | PromptsClosed() | PromptDeclined():  # who declined is not announced
            return None
        case Undone() | Redone() | Corrected():  # told by correction_note / correction_made
            return None
    return describe_turn_event(event)  # the whole turn's events; None: no words, no dump


def describe_prompt(prompt: PublicPrompt) -> str:
    title = PROMPT_NAMES.get(prompt.kind, prompt.kind)
    if prompt.kind == "karama":
        ability = ability_word(prompt.ability) if prompt.ability else "an ability"
        return f"{title}: {ability} ({name(prompt.subject)}) may be cancelled."
    if prompt.kind == "advise":
        return f"{title}: the Bene Gesserit may send an advisor after {name(prompt.subject)}."
    if prompt.kind == "intrusion":
        return f"{title}: the Bene Gesserit may flip their fighters in {prompt.territory}."
    if prompt.kind == "guild_timing":
        return f"{title}: the Guild may act before {name(prompt.subject)}."
    if prompt.kind == "guild_stop":
        return f"{title}: {possessive(name(prompt.subject))} shipment may be stopped."
    return f"{title}: the Bene Gesserit may flip advisors to fighters."


def describe_wait(view: PublicView) -> str:
    if view.phase_complete:
        return ""
    parts = []
    if view.to_act is not None:
        step = "ship" if view.step == Step.SHIP else "move"
        parts.append(f"Waiting for {name(view.to_act)} to {step}.")
    parts += [describe_prompt(p) for p in view.prompts]
    return " ".join(parts)


def has_news(events: Iterable[Event]) -> bool:
    """Whether any event is worth a line of its own in the public log."""
    return any(describe(e) for e in events)


# -- a moderator's corrections, undo and redo ---------------------------------------------


def correction_made(moderator: int, events: Iterable[Event]) -> str:
    """The public line of a moderator's correction (``/mod set-storm``, ``place``...): no
    spice amount and no card is named."""
    what = " ".join(_corrected(e) for e in events if isinstance(e, Corrected))
    return f"Correction by <@{moderator}>: {what}"


def _corrected(event: Corrected) -> str:
    match event:
        case StormSet():
            return f"the storm is in sector {event.sector}."
        case ForcesPlaced():
            forces = count(event.forces, event.special, of=event.faction)
            place = where(event.territory, event.sector)
            return f"{name(event.faction)} place {forces} from reserves in {place}."
        case ForcesRemoved():
            forces = count(event.forces, event.special, of=event.faction)
            place = where(event.territory, event.sector)
            to = "the Tleilaxu Tanks" if event.to_tanks else "reserves"
            return f"{name(event.faction)} loses {forces} in {place} to {to}."
        case SpiceSet():
            return (
                f"{possessive(name(event.faction))} spice is corrected (the amount stays behind "
                "their shield)."
            )
        case CardGiven():
            return f"{name(event.faction)} receive a treachery card."
        case CardTaken():
            return f"{name(event.faction)} loses a treachery card."
    return "the position is corrected."


SECRET_DECISION = "the last decision"
"""How an undone answer to a prompt is named: who declined a window is nobody's business."""


def correction_note(
    moderator: int, kind: str, events: Iterable[Event], view: PublicView | None = None
) -> str:
    """The public line of a ``/mod undo`` (``kind`` "undone") or redo (``kind`` "redone").

    A public action is told in words; any answer to a prompt (a Karama window, a
    decline, a pass that closes prompts) only as "the last decision". ``view`` is the
    position after an undo, which tells a faction's own step pass from a decline.
    """
    body = next(
        (e.action for e in events if isinstance(e, Undone | Redone) and e.kind == kind), None
    )
    words = _public_action(body, view) if isinstance(body, Mapping) else None
    if kind == "undone":
        return f"Correction by <@{moderator}>: {words or SECRET_DECISION} was taken back."
    if words is None:
        return f"Correction by <@{moderator}>: {SECRET_DECISION} taken back is made again."
    return f"Correction by <@{moderator}>: {words} is made again."


def _public_action(body: Mapping[str, Any], view: PublicView | None) -> str | None:
    """``body`` (a logged action) in words when everyone saw it happen, else None."""
    kind, who = body.get("action"), name(body.get("faction"))
    forces = _forces(body)
    origin = _place(body.get("from"), body.get("from_sector"))
    target = _place(body.get("to"), body.get("sector"))
    if kind == "ship":
        return f"the {who} shipment of {forces} to {target}"
    if kind == "send":
        return f"the Fremen sending of {forces} to {target}"
    if kind == "cross_ship":
        return f"the {who} cross-shipment of {forces} from {origin} to {target}"
    if kind == "ship_to_reserves":
        return f"the {who} shipment of {forces} from {origin} back to reserves"
    if kind == "move":
        if body.get("advisors"):
            forces = count(int(body.get("forces") or 0), noun="advisor")
        return f"the {who} move of {forces} from {origin} to {target}"
    if kind == "hajr":
        return f"the {who} Hajr"
    if kind == "pass" and _step_pass(body, view) and view is not None:
        return f"the {who} pass ({'shipment' if view.step == Step.SHIP else 'movement'})"
    return _public_correction(body)


def _forces(body: Mapping[str, Any]) -> str:
    forces, special = int(body.get("forces") or 0), int(body.get("special") or 0)
    return count(forces, special, of=body.get("faction"))


def _public_correction(body: Mapping[str, Any]) -> str | None:
    """A logged correction in words: never a spice amount or a card."""
    kind, who = body.get("action"), name(body.get("faction"))
    forces = _forces(body)
    there = _place(body.get("territory"), body.get("sector"))
    if kind == "set_storm":
        return f"the correction of the storm to sector {body.get('sector')}"
    if kind == "place_forces":
        return f"the correction placing {forces} of the {who} in {there}"
    if kind == "remove_forces":
        return f"the correction removing {forces} of the {who} from {there}"
    if kind == "set_spice":
        return f"the correction of the {who} spice"
    if kind == "give_card":
        return f"the correction giving the {who} a treachery card"
    if kind == "take_card":
        return f"the correction taking a treachery card from the {who}"
    return None


def _step_pass(body: Mapping[str, Any], view: PublicView | None) -> bool:
    """Whether a logged pass ended its faction's own step (no prompt was open then)."""
    if view is None or body.get("prompt") is not None or view.prompts:
        return False
    return view.to_act is not None and view.to_act.value == body.get("faction")


def _place(territory: object, sector: object) -> str:
    found = standard_board().resolve(str(territory)) if territory else None
    if found is None:
        return "an unknown place"
    return where(found.name, sector if isinstance(sector, int) else None)


# -- how a prompt closed, in the words of the faction it was for --------------------------


def closed_by(action: Action | None) -> Callable[[Faction], str]:
    """How an action closed each faction's prompt, in that faction's words."""

    def how(faction: Faction) -> str:
        if not isinstance(action, FactionAction):
            return "the game moved on"
        if action.name == "truthtrance":  # the game waits for the answer, then asks again
            return "a Truthtrance question holds the game; you will be asked again after it"
        if action.faction is not faction:
            return f"{action.faction.label} acted first, and the game moved on"
        if isinstance(action, Decline):
            return "you declined"
        return "you passed" if isinstance(action, Pass) else "you acted"

    return how


def position_changed(faction: Faction) -> str:
    return "the position changed (a correction or a new phase)"


def corrected(faction: Faction) -> str:
    return "a moderator corrected the game"


GAME_BEGINS = "**A new game of Dune begins.**\n**Turn 1: the Set-up phase begins.**"

WINDOW_CLOSED = "The window for the others' answers closes."
"""A secret window's end: the table learns it may go on; the spectators' record, which
tells what happened, leaves it out (a window where nothing was played changed nothing)."""

GAME_FINISHED = "The game is finished."
UNDO_AFTER_THE_END = (
    "A moderator may still take the last action back with `/mod undo`, which reopens it."
)
"""The moderators' advice at the end: their channel's and the table's, never the record's."""


def channel_trouble(gone: ChannelGoneError) -> str:
    """For the moderators: a channel of the game the bot cannot post (or attach maps) in."""
    if isinstance(gone, AttachmentRefusedError):
        return f"Mentat may not attach maps in {gone.where} ({gone.why}): it sends text."
    return (
        f"Mentat cannot post in {gone.where}: {gone.why}. What it misses is kept; "
        "`/mod channels` repairs the game's channels and delivers it."
    )


PAUSED_UNSEEN = (
    "The game is paused: nobody can see its table channel. Repair it with `/mod channels`, "
    "then `/mod resume`."
)
