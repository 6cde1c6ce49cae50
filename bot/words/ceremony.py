"""The whole game's ceremony for the table and spectators: each phase begins and ends, and
each turn ends with a summary, in words read from public events and the public view only.

The events of the phases themselves (the storm, a blow, a charity claim) are told by
:func:`bot.words.narrate.describe` (and the words it delegates to); this module adds only the
phase and turn lines around them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.charts import STRONGHOLDS
from bot.publisher import PublicNotice
from bot.store import Redone, Undone
from bot.words import narrate
from bot.words import truthtrance as truthtrance_words
from bot.words.choices import describe_game_wait
from bot.words.turn import phase_name
from rules.events import Corrected, Event, GameWon, PhaseBegan, TurnStarted
from rules.factions import Faction
from rules.game_model import TURN_PHASES, GamePhase
from rules.view import PublicView


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
            out += turn_summary(view.game.turn, view, final=True)
        elif line := narrate.describe(event):
            out.append(line)
    return out


def turn_summary(turn: int, view: PublicView, *, final: bool = False) -> list[str]:
    """Who holds which stronghold and with what, who leads, the alliances, the spice on the
    board and the cards each faction holds: public facts only (spice behind shields is
    never told).

    ``view`` is the position after the engine's own steps; the next turn's storm may have
    moved already, which none of these facts depend on (strongholds are shielded from the
    storm and worms, cards and alliances change only at a choice the game waits for).
    """
    head = "**The game is over.**" if final else f"**Turn {turn} is over.**"
    held = _strongholds(view)
    strongholds = "; ".join(
        f"{place}: {' and '.join(f'{f.label} ({n})' for f, n in held[place].items())}"
        for place in STRONGHOLDS
        if place in held
    )
    alliances = "; ".join(" + ".join(f.label for f in pair) for pair in view.alliances)
    cards = "; ".join(f"{f.faction.label} {f.cards_held}" for f in view.factions)
    spice = sum(s.amount for s in view.spice)
    places = len({s.territory for s in view.spice if s.amount})
    on_board = f"{spice} spice in {places} territor{'y' if places == 1 else 'ies'}"
    return [
        head,
        f"Strongholds: {strongholds or 'none held'}. Alliances: {alliances or 'none'}.",
        *_leading(held, view),
        f"Spice on the board: {on_board if spice else 'none'}.",
        f"Treachery cards held: {cards}.",
    ]


def _strongholds(view: PublicView) -> dict[str, dict[Faction, str]]:
    """Each stronghold's occupants (forces, not advisors) and what they have there."""
    tokens: dict[str, dict[Faction, tuple[int, int]]] = {}
    for stack in view.stacks:
        if stack.territory in STRONGHOLDS and stack.forces + stack.special:
            there = tokens.setdefault(stack.territory, {})
            forces, special = there.get(stack.faction, (0, 0))
            there[stack.faction] = (forces + stack.forces, special + stack.special)
    return {
        place: {f: narrate.count(n, s, of=f) for f, (n, s) in there.items()}
        for place, there in tokens.items()
    }


def _leading(held: dict[str, dict[Faction, str]], view: PublicView) -> list[str]:
    """Who holds the most strongholds, an alliance counted together (1.12: three alone or
    four with an ally win at the Mentat Pause)."""
    sides = [tuple(pair) for pair in view.alliances]
    allied = {f for pair in sides for f in pair}
    sides += [(f.faction,) for f in view.factions if f.faction not in allied]
    count = {side: sum(any(f in there for f in side) for there in held.values()) for side in sides}
    most = max(count.values(), default=0)
    if not most:
        return []
    leaders = [" + ".join(f.label for f in side) for side in sides if count[side] == most]
    each = " each" if len(leaders) > 1 else ""
    return [f"Most strongholds ({most}{each}): {'; '.join(leaders)}."]


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
    """The announcement of an accepted action, from public material only; ``opening``:
    the phase's opening lines, before the wait. It pings the player whose turn began
    (:func:`turn_mention`); a player a choice waits on (a turn to bid too) is pinged by its
    own prompt (:func:`bot.session.prompts.pings`)."""
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


def turn_mention(events: Iterable[Event]) -> Faction | None:
    """The faction whose player a table message of ``events`` pings: the one whose turn
    began; None after a moderator's correction, undo or redo."""
    events = list(events)
    if corrected(events):
        return None
    started = [e.faction for e in events if isinstance(e, TurnStarted)]
    return started[-1] if started else None


def corrected(events: Iterable[Event]) -> bool:
    """A moderator's correction, undo or redo is among ``events`` (it pings nobody)."""
    return any(isinstance(e, Corrected | Undone | Redone) for e in events)
