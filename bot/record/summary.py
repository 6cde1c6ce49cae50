"""The game's summary, read at its end like a match report: who won and how, each
faction's path through the game, and each phase's own part (the Battle phase's: the
turning battles), which the phases' words give (:class:`bot.words.phase_words.SummaryPart`).

Read from public facts only: the events of the actions in effect (every event is public)
and the public view after each (:class:`Step`). Nothing here could tell a secret the end
does not reveal: no hand, no traitor, no spice behind a shield, no plan that stayed hidden.
Each part is one message of the record, within Discord's 2000 characters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.charts import holders, turn_ends
from bot.words import phase_words
from bot.words.narrate import count
from bot.words.phase_words import Step
from rules.events import (
    AllianceBroken,
    AllianceFormed,
    CardWon,
    Event,
    ForcesLost,
    GameWon,
    LeaderKilled,
)
from rules.factions import Faction
from rules.view import PublicView

__all__ = ["LIMIT", "Step", "game_summary", "holders"]

LIMIT = 1900  # a message's characters, Discord's 2000 with room to spare
FREMEN_SIETCHES = ("Sietch Tabr", "Habbanya Sietch")


def game_summary(steps: Sequence[Step]) -> list[str]:
    """The summary's messages: the result, each faction's path, each phase's own part.

    ``steps``: the whole game, its start first; empty when it has no winner yet."""
    won = [(e, s.view) for s in steps for e in s.events if isinstance(e, GameWon)]
    if not won:
        return []
    event, final = won[-1]
    paths = _paths(steps, final)
    return [
        _fit(["**The game in short**", *_result(event, final)]),
        _fit(["**Each faction's path**", *paths]),
        *(_fit(part.section(steps)) for part in _parts()),
    ]


# -- the result ------------------------------------------------------------------------------


def _names(factions: Iterable[Faction]) -> str:
    return _and([f.label for f in factions])


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _held_alone(view: PublicView, side: Iterable[Faction]) -> list[str]:
    side = set(side)
    return [place for place, there in holders(view).items() if there and there <= side]


def _result(event: GameWon, final: PublicView) -> list[str]:
    turn = final.game.turn
    verb = "wins" if len(event.factions) == 1 else "win"
    head = f"**{_names(event.factions)} {verb} the game** in turn {turn}"
    held = _held_alone(final, event.factions)
    places = f" ({_and(held)})" if held else ""
    last = f"no one held enough strongholds by the end of the last turn (turn {turn})"
    match event.how:
        case "strongholds":
            why = f"holding {len(held)} strongholds alone at the Mentat Pause{places}."
        case "alliance":
            why = f"as allies, holding {len(held)} strongholds between them{places}."
        case "fremen":
            why = (
                f"by the Fremen special victory: {last}; only Fremen (or no one) were in "
                f"{_and(list(FREMEN_SIETCHES))}, and no Atreides, Harkonnen or Emperor force "
                "in Tuek's Sietch."
            )
        case "guild":
            why = f"by the Spacing Guild special victory: {last}, so the Guild wins."
        case "prediction":
            why = (
                "as the Bene Gesserit predicted: the faction they named at the start won in "
                "the turn they named, so the Bene Gesserit win alone in its place."
            )
        case _:
            why = f"by the rules' default: {last}."
    lines = [f"{head}, {why}"]
    if final.alliances:
        lines.append(f"Alliances at the end: {'; '.join(_names(p) for p in final.alliances)}.")
    return lines


# -- each faction's path ---------------------------------------------------------------------


@dataclass
class _Path:
    """One faction's public deeds, turn by turn."""

    held: dict[str, list[int]] = field(default_factory=dict)  # stronghold -> turns at its end
    counts: Counter[str] = field(default_factory=Counter)  # what the phases' words count
    cards: int = 0
    paid: int = 0
    allies: list[list[Any]] = field(default_factory=list)  # [ally, from turn, to turn or None]
    leaders: list[str] = field(default_factory=list)
    forces_lost: int = 0


def _paths(steps: Sequence[Step], final: PublicView) -> list[str]:
    factions = [f.faction for f in final.factions]
    paths = {f: _Path() for f in factions}
    for step in steps:
        turn = step.view.game.turn
        for event in step.events:
            _tally(paths, event, turn)
    for turn, view in turn_ends([step.view for step in steps]):
        for place, there in holders(view).items():
            for faction in there:
                paths.setdefault(faction, _Path()).held.setdefault(place, []).append(turn)
    return [f"- **{f.label}**: {_path_words(paths[f])}" for f in factions]


def _tally(paths: dict[Faction, _Path], event: Event, turn: int) -> None:
    def of(faction: Faction) -> _Path:
        return paths.setdefault(faction, _Path())

    for part in _parts():
        part.tally(of, event, turn)
    match event:
        case CardWon(faction=faction, price=price, ally_paid=ally_paid):
            of(faction).cards += 1
            of(faction).paid += price - ally_paid
        case AllianceFormed(factions=pair):
            for faction in pair:
                for ally in pair:
                    if ally is not faction:
                        of(faction).allies.append([ally, turn, None])
        case AllianceBroken(faction=faction, ally=ally):
            for one, other in ((faction, ally), (ally, faction)):
                for alliance in of(one).allies:
                    if alliance[0] is other and alliance[2] is None:
                        alliance[2] = turn
        case LeaderKilled(faction=faction, leader=leader):
            of(faction).leaders.append(f"{leader} (turn {turn})")
        case ForcesLost(faction=faction, forces=forces, special=special):
            of(faction).forces_lost += forces + special


def _parts() -> list[phase_words.SummaryPart]:
    return [w.summary for w in phase_words.every() if w.summary is not None]


def _turns(turns: Sequence[int]) -> str:
    """``[1, 2, 3, 6]`` as "turns 1-3 and 6"."""
    runs: list[list[int]] = []
    for turn in turns:
        if runs and turn == runs[-1][-1] + 1:
            runs[-1].append(turn)
        else:
            runs.append([turn])
    words = [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs]
    return f"turn{'s' if len(turns) > 1 else ''} {_and(words)}"


def _alliance(ally: Faction, began: int, ended: int | None) -> str:
    if ended is None:
        return f"{ally.label} (from turn {began})"
    return f"{ally.label} (turn{f' {began}' if began == ended else f's {began}-{ended}'})"


def _path_words(path: _Path) -> str:
    held = sorted(path.held.items(), key=lambda item: (item[1][0], item[0]))
    parts = [
        "in " + "; ".join(f"{place} at the end of {_turns(turns)}" for place, turns in held)
        if held
        else "in no stronghold at any turn's end"
    ]
    for part in _parts():
        parts += part.path(path)
    if path.forces_lost:
        parts.append(f"lost {count(path.forces_lost, 0)} in battle")
    if path.cards:
        cards = f"{path.cards} treachery card{'s' if path.cards > 1 else ''}"
        parts.append(f"bought {cards} for {path.paid} spice")
    if path.allies:
        parts.append("allied with " + _and([_alliance(*a) for a in path.allies]))
    if path.leaders:
        parts.append(f"leaders killed: {_and(path.leaders)}")
    return "; ".join(parts) + "."


def _fit(lines: list[str]) -> str:
    """The lines as one message within :data:`LIMIT`, the last left out said as a count."""
    kept: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        room = LIMIT - size - (len(line) + 1)
        if (room < 40 and i < len(lines) - 1) or room < 0:
            kept.append(f"(and {len(lines) - i} more)")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)
