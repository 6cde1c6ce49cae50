"""The Revival phase's choices in words: what one faction may revive now, by
``/revive``, ``/karama revive``, ``/ghola`` and ``/revive-ally``.

Every list is the engine's: a revival is offered only when ``state.is_legal`` takes it,
with the price its dry run charges. Each entry is a ``(label, value)`` pair, as
:mod:`cogs.turn.choices` gives them; the faction is always the caller's own (or a current
moderator's named one), so nobody is offered another faction's tanks or spice.
"""

from __future__ import annotations

from bot.words.revival import (
    Revival,
    ally_forces,
    ally_revival_options,
    priced,
    revival_candidates,
    revive_words,
)
from cogs.turn.choices import Choice, leader_words
from rules.actions import PlayGhola
from rules.factions import Faction
from rules.game import GameState
from rules.revival.actions import KaramaRevive, Revive

KINDS: dict[str, type[Revive] | type[KaramaRevive] | type[PlayGhola]] = {
    "revive": Revive,
    "karama": KaramaRevive,
    "ghola": PlayGhola,
}
"""The revivals a command makes: ``/revive``, ``/karama revive``, ``/ghola``."""
MOST = {"revive": 3, "karama": 3, "ghola": 5}


def _options(
    state: GameState,
    faction: Faction,
    kind: str,
    forces: int | None = None,
    special: int | None = None,
) -> list[tuple[Revival, int]]:
    candidates = [
        a
        for a in revival_candidates(state, faction, KINDS[kind], MOST[kind])
        if (forces is None or a.forces == forces) and (special is None or a.special == special)
    ]
    return priced(state, candidates)


def revive_forces(state: GameState, faction: Faction, kind: str = "revive") -> list[Choice[int]]:
    """How many forces ``faction`` may revive now, each with its cheapest price."""
    best: dict[int, int] = {}
    for action, cost in _options(state, faction, kind):
        if action.special == 0 and action.leader is None:
            best[action.forces] = min(cost, best.get(action.forces, cost))
    return [(revive_words(_forces(faction, n), best[n]), n) for n in sorted(best, reverse=True)]


def revive_special(
    state: GameState, faction: Faction, forces: int | None, kind: str = "revive"
) -> list[Choice[int]]:
    """How many starred forces ``faction`` may add to ``forces`` now, with the price."""
    best: dict[int, tuple[int, int]] = {}
    for action, cost in _options(state, faction, kind, forces=forces):
        if action.leader is None:
            best.setdefault(action.special, (action.forces, cost))
    return [
        (revive_words(_forces(faction, n, s), cost), s) for s, (n, cost) in sorted(best.items())
    ]


def revive_leaders(
    state: GameState,
    faction: Faction,
    forces: int | None,
    special: int | None,
    kind: str = "revive",
) -> list[Choice[str]]:
    """The leaders ``faction`` may revive with the forces chosen, with the whole price."""
    out: list[Choice[str]] = []
    for action, cost in _options(state, faction, kind, forces=forces, special=special):
        if action.leader is not None:
            price = f"{cost} spice in all" if cost else "free"
            out.append((f"{leader_words(action.leader)}: {price}", action.leader))
    return out


def _forces(faction: Faction, forces: int, special: int = 0) -> Revive:
    return Revive(faction, forces=forces, special=special)


def ally_revival_forces(state: GameState, faction: Faction) -> list[Choice[int]]:
    """How many of its ally's forces the Emperor may pay for now (2.03.07), with the price:
    the regular ones alone (starred ones are added with ``special``)."""
    return [
        (f"{ally_forces(a.forces, 0)} of your ally: {cost} spice", a.forces)
        for a, cost in sorted(ally_revival_options(state, faction), key=lambda o: -o[0].forces)
        if a.special == 0
    ]


def ally_revival_special(
    state: GameState, faction: Faction, forces: int | None
) -> list[Choice[int]]:
    """How many starred forces of its ally the Emperor may add to ``forces``, with the
    price of the whole payment."""
    return [
        (f"{ally_forces(a.forces, a.special)} of your ally: {cost} spice", a.special)
        for a, cost in ally_revival_options(state, faction)
        if forces is None or a.forces == forces
    ]
