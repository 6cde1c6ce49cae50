"""The whole turn's choices in words: what one faction may choose now (no Discord here).

Every list comes from the engine's ``state.legal_actions(faction)`` (or its ``is_legal``
for a bribe of one spice), so a faction is offered only its own legal choices: never
another faction's secrets, never the Bene Gesserit's prediction to anyone else, and
nothing at all when the choice is not its to make now. Each entry is a
``(label, value)`` pair: the label in words for the player ("Duncan Idaho
(Atreides, strength 2)", "sector 9"), the value what the command takes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from bot.session.passes import pass_words as pass_words  # what a bare /pass means, in words
from rules.actions import (
    Ally,
    Bribe,
    FactionAction,
    KaramaWorm,
    PlaceAdvisor,
    PlaceFremen,
    PlaceWorm,
    Predict,
    RideWorm,
)
from rules.components import leader_owner, leaders
from rules.errors import QUOTE_LIMIT
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase

MAX_CHOICES = 25
"""Discord's limit on the choices of one autocomplete answer."""
LABEL_LIMIT = 100
"""Discord's limit on a choice's name."""

A = TypeVar("A", bound=FactionAction)
V = TypeVar("V", str, int)
Choice = tuple[str, V]


def legal(state: GameState, faction: Faction, kind: type[A]) -> list[A]:
    """The legal actions of ``kind`` that ``faction`` may take now."""
    if not state.in_game(faction):
        return []
    return [a for a in state.legal_actions(faction) if isinstance(a, kind)]


def matching(typed: str, choices: Iterable[Choice[V]]) -> list[Choice[V]]:
    """The choices whose label contains what was typed, at most :data:`MAX_CHOICES`,
    each label cut to Discord's limit; duplicates (same value) once."""
    typed = typed.strip().lower()
    seen: set[V] = set()
    out: list[Choice[V]] = []
    for label, value in choices:
        if value in seen or typed not in label.lower():
            continue
        seen.add(value)
        out.append((label[:LABEL_LIMIT], value))
        if len(out) == MAX_CHOICES:
            break
    return out


def same(a: str | None, b: str | None) -> bool:
    return (a or "").strip().lower() == (b or "").strip().lower()


# -- set-up --------------------------------------------------------------------------


def leader_words(name: str) -> str:
    """A leader in words: "Duncan Idaho (Atreides, strength 2)"."""
    owner = leader_owner(name)
    if owner is None:
        return name[:QUOTE_LIMIT]
    printed, strength = next((n, s) for n, s in leaders(owner).items() if same(n, name))
    return f"{printed} ({owner.label}, strength {strength})"


def predicted_factions(state: GameState, faction: Faction) -> list[Choice[str]]:
    """The factions the Bene Gesserit may predict to win (nothing for anyone else)."""
    found = dict.fromkeys(a.who for a in legal(state, faction, Predict))
    return [(Faction(who).label, who) for who in found]


def predicted_turns(state: GameState, faction: Faction) -> list[Choice[int]]:
    found = dict.fromkeys(a.turn for a in legal(state, faction, Predict))
    return [(f"turn {turn}", turn) for turn in found]


FREMEN_FIELDS = ("sietch_tabr", "false_wall_south", "false_wall_west")


def fremen_counts(
    state: GameState, faction: Faction, field: str, given: dict[str, int | None]
) -> list[Choice[int]]:
    """The counts the Fremen may place in ``field`` (one of :data:`FREMEN_FIELDS`),
    given the other fields already filled in (``None``: not yet)."""
    counts: dict[int, None] = {}
    for action in legal(state, faction, PlaceFremen):
        fields = {name: getattr(action, name) for name in FREMEN_FIELDS}
        if all(given.get(name) in (None, fields[name]) for name in FREMEN_FIELDS if name != field):
            counts[fields[field]] = None
    return [(forces_words(n), n) for n in sorted(counts)]


def forces_words(n: int) -> str:
    return f"{n} force" if n == 1 else f"{n} forces"


def advisor_territories(state: GameState, faction: Faction) -> list[Choice[str]]:
    return territory_choices(a.to for a in legal(state, faction, PlaceAdvisor))


def advisor_sectors(state: GameState, faction: Faction, to: str | None) -> list[Choice[int]]:
    return sector_choices(a.sector for a in legal(state, faction, PlaceAdvisor) if same(a.to, to))


# -- spice blow and Nexus -------------------------------------------------------------


def worm_territories(state: GameState, faction: Faction) -> list[Choice[str]]:
    return territory_choices(a.territory for a in legal(state, faction, PlaceWorm))


def ride_territories(state: GameState, faction: Faction) -> list[Choice[str]]:
    return territory_choices(a.to for a in legal(state, faction, RideWorm))


def ride_sectors(state: GameState, faction: Faction, to: str | None) -> list[Choice[int]]:
    return sector_choices(a.sector for a in legal(state, faction, RideWorm) if same(a.to, to))


def allies(state: GameState, faction: Faction) -> list[Choice[str]]:
    """The factions ``faction`` may ask to ally with in this Nexus; "(asks you)" marks
    one that has already asked it (those offers are public)."""
    offers = {asker for asker, asked in state.whole.proposals if asked is faction}
    out: list[Choice[str]] = []
    for action in legal(state, faction, Ally):
        other = Faction(action.with_)
        note = " (asks you)" if other in offers else ""
        out.append((other.label + note, other.value))
    return out


# -- any phase: bribes and the Fremen's Karama worm ----------------------------------------


def bribe_targets(state: GameState, faction: Faction) -> list[Choice[str]]:
    """The factions ``faction`` may give spice to now (none before the first storm)."""
    if not state.in_game(faction):
        return []
    return [
        (other.label, other.value)
        for other in state.factions
        if other is not faction and state.is_legal(Bribe(faction, other.value, 1))
    ]


def karama_worm_territories(state: GameState, faction: Faction) -> list[Choice[str]]:
    return territory_choices(a.territory for a in legal(state, faction, KaramaWorm))


# -- what a bare pass means -----------------------------------------------------------


def stray_step(state: GameState, step: str | None) -> str | None:
    """Why ``/pass step:`` makes no sense now (a whole turn's phase other than Shipment &
    Movement has no shipment or movement step), or None."""
    if step is None or state.game_phase is GamePhase.SHIPMENT_MOVEMENT:
        return None
    phase = state.game_phase.value.replace("_", " ").replace("choam", "CHOAM")
    return f"there is no {step} step in the {phase} phase: use /pass without a step"


# -- shared ---------------------------------------------------------------------------


def territory_choices(names: Iterable[str]) -> list[Choice[str]]:
    """Each territory named once, as its own label."""
    return [(name, name) for name in dict.fromkeys(names)]


def sector_choices(sectors: Iterable[int | None]) -> list[Choice[int]]:
    """Each sector once, in order ("sector 9")."""
    found = sorted({s for s in sectors if s is not None})
    return [(f"sector {s}", s) for s in found]
