"""The game's summary, read at its end like a match report: who won and how, each
faction's path through the game, and the turning battles.

Read from public facts only: the events of the actions in effect (every event is public)
and the public view after each (:class:`Step`). Nothing here could tell a secret the end
does not reveal: no hand, no traitor, no spice behind a shield, no plan that stayed hidden.
Each part is one message of the record, within Discord's 2000 characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.charts import STRONGHOLDS, turn_ends
from bot.words.common import possessive
from bot.words.narrate import count
from rules.battle.events import (
    BattlesOver,
    BattleStarted,
    BattleWon,
    LasgunShield,
    LeaderCaptured,
    TraitorCalled,
)
from rules.events import (
    AllianceBroken,
    AllianceFormed,
    CardWon,
    Event,
    ForcesLost,
    GameWon,
    LeaderKilled,
    PhaseBegan,
)
from rules.factions import Faction
from rules.view import PublicView

LIMIT = 1900  # a message's characters, Discord's 2000 with room to spare
TURNING = 4  # the turning battles told at most
FREMEN_SIETCHES = ("Sietch Tabr", "Habbanya Sietch")


@dataclass(frozen=True, slots=True)
class Step:
    """One action in effect (or the start): its public events and the public view after."""

    events: tuple[Event, ...]
    view: PublicView


def game_summary(steps: Sequence[Step]) -> list[str]:
    """The summary's messages: the result, each faction's path, the turning battles.

    ``steps``: the whole game, its start first; empty when it has no winner yet."""
    won = [(e, s.view) for s in steps for e in s.events if isinstance(e, GameWon)]
    if not won:
        return []
    event, final = won[-1]
    paths = _paths(steps, final)
    return [
        _fit(["**The game in short**", *_result(event, final)]),
        _fit(["**Each faction's path**", *paths]),
        _fit(["**The turning battles**", *_turning(steps)]),
    ]


# -- the result ------------------------------------------------------------------------------


def _names(factions: Iterable[Faction]) -> str:
    return _and([f.label for f in factions])


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def holders(view: PublicView) -> dict[str, set[Faction]]:
    """Each stronghold's occupants with fighters (advisors neither hold nor block)."""
    found: dict[str, set[Faction]] = {place: set() for place in STRONGHOLDS}
    for stack in view.stacks:
        if stack.territory in found and stack.forces + stack.special:
            found[stack.territory].add(stack.faction)
    return found


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
    won: int = 0
    lost: int = 0
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

    match event:
        case BattleWon(winner=winner, loser=loser):
            of(winner).won += 1
            of(loser).lost += 1
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
        case LeaderCaptured(victim=victim, kill=True):
            of(victim).leaders.append(f"a captured leader (turn {turn})")
        case ForcesLost(faction=faction, forces=forces, special=special):
            of(faction).forces_lost += forces + special


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
    battles = path.won + path.lost
    if battles:
        parts.append(f"won {path.won} of {battles} battle{'s' if battles > 1 else ''}")
    else:
        parts.append("fought no battle")
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


# -- the turning battles ---------------------------------------------------------------------


@dataclass
class _Battle:
    """One battle's public story: where, who, how it ended, what it cost."""

    turn: int
    started: BattleStarted
    before: set[Faction]  # the territory's occupants with fighters as it began
    after: set[Faction] = field(default_factory=set)
    won: BattleWon | None = None
    traitors: list[TraitorCalled] = field(default_factory=list)
    exploded: bool = False
    forces: dict[Faction, int] = field(default_factory=dict)
    leaders: list[str] = field(default_factory=list)

    @property
    def stronghold(self) -> bool:
        return self.started.territory in STRONGHOLDS

    @property
    def weight(self) -> tuple[bool, int]:
        """A stronghold changing hands first, then what the battle killed."""
        return (self.stronghold and self.before != self.after), sum(self.forces.values()) + 3 * len(
            self.leaders
        )


def battles(steps: Sequence[Step]) -> list[_Battle]:
    """Every battle of the game, in order, with its cost and the stronghold's occupants
    before and after it."""
    found: list[_Battle] = []
    current: _Battle | None = None
    before = steps[0].view if steps else None
    for step in steps:
        turn = step.view.game.turn
        seen = [current] if current is not None else []  # the battles this step touched
        for event in step.events:
            if isinstance(event, BattleStarted):
                place = holders(before).get(event.territory, set()) if before else set()
                current = _Battle(turn, event, set(place))
                found.append(current)
                seen.append(current)
            elif isinstance(event, BattlesOver | PhaseBegan):
                current = None
            elif current is not None:
                _see(current, event)
        for battle in seen:
            battle.after = set(holders(step.view).get(battle.started.territory, set()))
        before = step.view
    return found


def _see(battle: _Battle, event: Event) -> None:
    match event:
        case BattleWon() as won:
            battle.won = won
        case TraitorCalled() as traitor:
            battle.traitors.append(traitor)
        case LasgunShield():
            battle.exploded = True
        case ForcesLost(faction=faction, forces=forces, special=special):
            battle.forces[faction] = battle.forces.get(faction, 0) + forces + special
        case LeaderKilled(faction=faction, leader=leader):
            battle.leaders.append(f"{possessive(faction)} {leader}")


def _turning(steps: Sequence[Step]) -> list[str]:
    fought = battles(steps)
    if not fought:
        return ["No battle was fought."]
    ranked = sorted(fought, key=lambda b: b.weight, reverse=True)[:TURNING]
    chosen = [b for b in fought if any(b is r for r in ranked)]  # in the game's order
    more = len(fought) - len(chosen)
    lines = [f"- {_battle_words(b)}" for b in chosen]
    if more:
        lines.append(f"({more} other battle{'s' if more > 1 else ''} changed less.)")
    return lines


def _battle_words(battle: _Battle) -> str:
    start = battle.started
    place = start.territory
    head = f"Turn {battle.turn}, {place}: "
    sides = f"{start.aggressor.label} attacked {start.opponent.label}"
    if battle.exploded:
        outcome = f"{sides}; lasgun and shield exploded and everything there died"
    elif battle.won is None and len(battle.traitors) == 2:
        outcome = f"{sides}; both leaders were traitors and both sides lost"
    elif battle.won is not None:
        won = battle.won
        if battle.traitors:
            leader = battle.traitors[0].leader
            how = f"by treachery ({leader} was a traitor)"
        else:
            how = f"{_number(won.winner_total)} to {_number(won.loser_total)}"
        outcome = f"{won.winner.label} beat {won.loser.label} {how}"
        if battle.stronghold and won.loser in battle.before and won.loser not in battle.after:
            kept = "kept" if won.winner is start.opponent else "took"
            outcome += f" and {kept} {place}"
    else:
        outcome = sides
    costs = [f"{f.label} {count(n, 0)}" for f, n in battle.forces.items() if n]
    if battle.leaders:
        costs.append(f"{_and(battle.leaders)} killed")
    return head + outcome + "." + (f" Losses: {'; '.join(costs)}." if costs else "")


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


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
