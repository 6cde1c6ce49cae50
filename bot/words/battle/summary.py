"""The Battle phase's part of the game's summary (:mod:`bot.record.summary`): each
faction's battles won and lost, a leader killed for the Harkonnen, and the turning battles.

Read from public facts only: the battle events (every event is public) and the public view
after each step; nothing tells a traitor before it was called or a plan that stayed hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.charts import STRONGHOLDS, holders
from bot.words.common import possessive
from bot.words.narrate import count
from bot.words.phase_words import Path, Step, SummaryPart
from rules.battle.events import (
    BattlesOver,
    BattleStarted,
    BattleWon,
    LasgunShield,
    LeaderCaptured,
    TraitorCalled,
)
from rules.events import Event, ForcesLost, LeaderKilled, PhaseBegan
from rules.factions import Faction

TURNING = 4  # the turning battles told at most
WON, LOST = "battles won", "battles lost"


def tally(of: Callable[[Faction], Path], event: Event, turn: int) -> None:
    """A battle won or lost, a leader the Harkonnen killed, in the factions' paths."""
    match event:
        case BattleWon(winner=winner, loser=loser):
            of(winner).counts[WON] += 1
            of(loser).counts[LOST] += 1
        case LeaderCaptured(victim=victim, kill=True):
            of(victim).leaders.append(f"a captured leader (turn {turn})")


def path_words(path: Path) -> list[str]:
    """One faction's battles: "won 2 of 3 battles", or "fought no battle"."""
    won = path.counts[WON]
    fought = won + path.counts[LOST]
    if fought:
        return [f"won {won} of {fought} battle{'s' if fought > 1 else ''}"]
    return ["fought no battle"]


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


def turning(steps: Sequence[Step]) -> list[str]:
    """The summary's message of the turning battles: its heading and one line each."""
    return ["**The turning battles**", *_turning(steps)]


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


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


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


SUMMARY = SummaryPart(tally=tally, path=path_words, section=turning)
"""The Battle phase's part of the game's summary."""
