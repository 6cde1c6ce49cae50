"""The whole game's ceremony for the table and spectators: each phase begins and ends, and
each turn ends with a summary, in words read from public events and the public view only.

The events of the phases themselves (the storm, a blow, a charity claim) are told by
:func:`bot.narrate.describe` (and the words it delegates to); this module adds only the
phase and turn lines around them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot import narrate, truthtrance_words
from bot.choice_words import describe_game_wait
from bot.opening import turn_mention
from bot.publisher import PublicNotice
from bot.turn_words import phase_name
from rules.events import Event, GameWon, PhaseBegan
from rules.game_model import TURN_PHASES, GamePhase
from rules.view import PublicView

STRONGHOLDS = ("Arrakeen", "Carthag", "Sietch Tabr", "Habbanya Sietch", "Tuek's Sietch")


def previous_phase(began: PhaseBegan) -> str | None:
    """The phase that ended as ``began`` began (None at the first phase of the game)."""
    phase = GamePhase(began.phase)
    if phase is GamePhase.STORM:
        return GamePhase.SETUP.value if began.turn == 1 else GamePhase.MENTAT_PAUSE.value
    if phase in TURN_PHASES:
        return TURN_PHASES[TURN_PHASES.index(phase) - 1].value
    return None


def lines(events: Iterable[Event], view: PublicView) -> list[str]:
    """The public lines of ``events``: each event's own words, with a line where a phase
    ends and one where it begins, and a summary where a turn (or the game) ends."""
    out: list[str] = []
    for event in events:
        if isinstance(event, PhaseBegan):
            ended = previous_phase(event)
            if ended is not None and ended != GamePhase.SHIPMENT_MOVEMENT.value:
                out.append(f"The {phase_name(ended)} phase is over.")
            if event.phase == GamePhase.STORM.value and event.turn > 1:
                out += turn_summary(event.turn - 1, view)
            out.append(narrate.describe(event) or f"Turn {event.turn}: {event.phase}.")
        elif isinstance(event, GameWon):
            out.append(narrate.describe(event) or "The game is won.")
            out += turn_summary(view.game.turn if view.game else 0, view, final=True)
        elif line := narrate.describe(event):
            out.append(line)
    return out


def turn_summary(turn: int, view: PublicView, *, final: bool = False) -> list[str]:
    """Who holds which stronghold, the alliances and the cards each faction holds: public
    facts only (spice behind shields is never told).

    ``view`` is the position after the engine's own steps; the next turn's storm may have
    moved already, which none of these facts depend on (strongholds are shielded from the
    storm and worms, cards and alliances change only at a choice the game waits for).
    """
    head = "**The game is over.**" if final else f"**Turn {turn} is over.**"
    held: dict[str, list[str]] = {}
    for stack in view.stacks:
        if stack.territory in STRONGHOLDS and stack.forces + stack.special:
            held.setdefault(stack.territory, []).append(stack.faction.label)
    strongholds = "; ".join(
        f"{place}: {' and '.join(dict.fromkeys(held[place]))}"
        for place in STRONGHOLDS
        if place in held
    )
    alliances = "; ".join(" + ".join(f.label for f in pair) for pair in view.alliances)
    cards = "; ".join(f"{f.faction.label} {f.cards_held}" for f in view.factions)
    return [
        head,
        f"Strongholds: {strongholds or 'none held'}. Alliances: {alliances or 'none'}.",
        f"Treachery cards held: {cards}.",
    ]


def has_news(events: Iterable[Event]) -> bool:
    return any(isinstance(e, PhaseBegan | GameWon) or narrate.describe(e) for e in events)


def describe_wait(view: PublicView) -> str:
    return (
        truthtrance_words.describe_wait(view)
        or describe_game_wait(view)
        or narrate.describe_wait(view)
    )


def public_notice(
    events: Iterable[Event],
    view: PublicView,
    *,
    game_id: int = 0,
    picture: bytes | None = None,
    note: str | None = None,
    closeup: bytes | None = None,
    opening: Sequence[str] = (),
) -> PublicNotice:
    """The announcement of an accepted action (in a whole game or a lone phase), from
    public material only; ``opening``: the phase's opening lines, before the wait. It pings
    the player whose turn began (:func:`bot.opening.turn_mention`); a player a choice waits
    on (a turn to bid too) is pinged by its own prompt (:func:`bot.prompts.pings`)."""
    if view.game is None:
        notice = narrate.public_notice(
            events, view, game_id=game_id, picture=picture, note=note, closeup=closeup
        )
        return replace(notice, mention=turn_mention(events))
    found = lines(events, view) + list(opening)
    if note:
        found.insert(0, note)
    if wait := describe_wait(view):
        found.append(wait)
    return PublicNotice(
        "\n".join(found),
        picture=picture,
        game_id=game_id,
        closeup=closeup,
        mention=turn_mention(events),
    )
