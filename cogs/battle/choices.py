"""The Battle phase's choices in words, for autocomplete: the caller's own legal actions
only (the traitors it keeps at set-up, its battles to name, its Voice, the cards it may
keep, the leader it captured)."""

from __future__ import annotations

from bot.words.battle.plan_builder import sectors_words
from cogs.turn.choices import Choice, leader_words, legal, same
from rules.battle.actions import Capture, KeepCards, KeepTraitor, StartBattle, Voice
from rules.battle.flow import sites
from rules.battle.model import BATTLE
from rules.factions import Faction
from rules.game import GameState


def traitors(state: GameState, faction: Faction) -> list[Choice[str]]:
    """The traitors dealt to ``faction`` that it may keep at set-up (its own, nobody
    else's): the leaders it may call in a battle."""
    return [(leader_words(a.leader), a.leader) for a in legal(state, faction, KeepTraitor)]


def territories(state: GameState, faction: Faction) -> list[Choice[str]]:
    """Where ``faction`` may name its next battle (it is the aggressor now)."""
    names = dict.fromkeys(a.territory for a in legal(state, faction, StartBattle))
    return [(name, name) for name in names]


def sectors(state: GameState, faction: Faction, territory: str | None) -> list[Choice[int]]:
    """The storm-split parts of ``territory`` a battle may be named in (by a sector)."""
    out: dict[int, str] = {}
    for a in legal(state, faction, StartBattle):
        if a.sector is not None and (territory is None or same(a.territory, territory)):
            out.setdefault(a.sector, f"{a.territory}, {part(state, a.territory, a.sector)}")
    return [(label, sector) for sector, label in out.items()]


def part(state: GameState, territory: str, sector: int) -> str:
    """The part of a storm-split territory holding ``sector``, in words."""
    found = next(
        (s.sectors for s in sites(state) if s.territory == territory and sector in s.sectors),
        (sector,),
    )
    numbers = [n for n in found if n is not None] or [sector]
    return f"{sectors_words(numbers)} (the storm is in sector {state.storm_sector})"


def opponents(state: GameState, faction: Faction, territory: str | None) -> list[Choice[str]]:
    """Whom ``faction`` may attack (in ``territory``, when named; in a storm-split
    territory, each part's opponents with the part)."""
    out: list[Choice[str]] = []
    for a in legal(state, faction, StartBattle):
        if territory is None or same(a.territory, territory):
            other = Faction.parse(a.opponent)
            where = a.territory
            if a.sector is not None:
                where += f", {part(state, a.territory, a.sector)}"
            out.append((f"{other.label if other else a.opponent} in {where}", a.opponent))
    return out


def voice_kinds(state: GameState, faction: Faction) -> list[Choice[str]]:
    """What the Bene Gesserit may name with the Voice now."""
    return [(a.kind, a.kind) for a in legal(state, faction, Voice) if a.command == "play"]


def keepable(state: GameState, faction: Faction, typed: str) -> list[Choice[str]]:
    """The cards the winner may keep, as a list being typed ("none": discard them all)."""
    if not legal(state, faction, KeepCards):
        return []
    fight = BATTLE.of(state.whole)
    cards = list(fight.to_keep) if fight is not None else []
    given = [c.strip() for c in typed.split(",")[:-1] if c.strip()]
    chosen = [c for c in cards if any(same(c, g) for g in given)]
    out: list[Choice[str]] = [("Keep none (discard them all)", KEEP_NONE)] if not given else []
    out.append((", ".join(cards), ", ".join(cards)))
    for card in cards:
        if card not in chosen:
            value = ", ".join([*chosen, card])
            out.append((value, value))
    return out


KEEP_NONE = "none"
"""What ``/keep-cards`` takes for "discard them all" (any case)."""


def kept_cards(typed: str) -> tuple[str, ...]:
    """The cards named in ``/keep-cards`` ("Shield, Crysknife"); "none" (any case, as the
    engine reads card names) keeps none."""
    named = tuple(c.strip() for c in typed.split(",") if c.strip())
    return () if [n.lower() for n in named] in ([], [KEEP_NONE]) else named


def captives(state: GameState, faction: Faction) -> list[Choice[str]]:
    """The leader ``faction`` drew and may capture or kill (only it sees the name)."""
    return [(a.leader, a.leader) for a in legal(state, faction, Capture) if not a.kill]
