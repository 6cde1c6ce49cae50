"""The whole game's state beyond one Shipment & Movement phase: turn, phase, decks, chance.

A :class:`TurnState` is a frozen value. Its mappings are never changed in
place: every change builds a new value (``replace``), so snapshots taken for
undo and refusals stay exact. Everything secret lives here (deck order,
traitors, the prediction, dials not yet revealed); the public view reads only
counts and what the rules reveal.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from rules.factions import Faction
from rules.frozen import evolver
from rules.truthtrance_model import Question, question_from

T = TypeVar("T")


class GamePhase(enum.StrEnum):
    """The phases of a turn (0: order of play), set-up before them and the end after."""

    SETUP = "setup"
    STORM = "storm"
    SPICE_BLOW = "spice_blow"
    CHOAM_CHARITY = "choam_charity"
    BIDDING = "bidding"
    REVIVAL = "revival"
    SHIPMENT_MOVEMENT = "shipment_movement"
    BATTLE = "battle"
    SPICE_COLLECTION = "spice_collection"
    MENTAT_PAUSE = "mentat_pause"
    OVER = "over"


class PhaseStep(enum.StrEnum):
    """The steps every phase has: not begun yet, and done (the machine moves on). Each
    phase's own steps are an enum of its rules module (``StormStep``, ``BattleStep``...)."""

    BEGIN = ""
    DONE = "done"


TURN_PHASES = (
    GamePhase.STORM,
    GamePhase.SPICE_BLOW,
    GamePhase.CHOAM_CHARITY,
    GamePhase.BIDDING,
    GamePhase.REVIVAL,
    GamePhase.SHIPMENT_MOVEMENT,
    GamePhase.BATTLE,
    GamePhase.SPICE_COLLECTION,
    GamePhase.MENTAT_PAUSE,
)


@dataclass(frozen=True, slots=True)
class Chance:
    """The game's chance: a seed and how many draws were made from it.

    Like a chance node, each shuffle or draw uses its own generator, seeded by
    (seed, draw number), so replaying the same actions gives the same game.
    """

    seed: int
    draws: int = 0

    def shuffle(self, items: Sequence[T]) -> tuple[tuple[T, ...], Chance]:
        out = list(items)
        random.Random(f"{self.seed}/{self.draws}").shuffle(out)
        return tuple(out), replace(self, draws=self.draws + 1)

    def pick(self, items: Sequence[T]) -> tuple[T, Chance]:
        chosen = random.Random(f"{self.seed}/{self.draws}").choice(list(items))
        return chosen, replace(self, draws=self.draws + 1)


@dataclass(frozen=True, slots=True)
class Winner:
    factions: tuple[Faction, ...]
    how: str  # "strongholds", "alliance", "fremen", "guild", "prediction", "default"
    rule: str = ""  # the rule they won by, e.g. "1.09.02.01"

    def to_dict(self) -> dict[str, Any]:
        """As the scenario format gives it (the rule aside)."""
        return {"factions": sorted(f.value for f in self.factions), "how": self.how}


FactionMap = Mapping[Faction, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class TurnState:
    """Turn, phase, decks, leaders, traitors and the choices the game waits for."""

    chance: Chance
    turn: int = 1
    phase: GamePhase = GamePhase.SETUP
    last_turn: int = 10
    order: tuple[Faction, ...] = ()  # storm order this turn, first player first
    waiting: tuple[Faction, ...] = ()  # factions whose choice the game waits for
    step: str = PhaseStep.BEGIN  # where inside the phase: a StrEnum of its rules module
    spice_deck: tuple[str, ...] = ()  # top first
    spice_discard: tuple[str, ...] = ()  # pile A, top first
    spice_discard_b: tuple[str, ...] = ()  # pile B (advanced)
    worms_aside: int = 0  # turn-1 Shai-Hulud set aside (1.02.02)
    worm_territory: str | None = None  # where the last worm of this blow came up (2.04.08)
    worms_in_blow: int = 0  # Shai-Hulud turned so far in the blow under way
    treachery_deck: tuple[str, ...] = ()
    treachery_discard: tuple[str, ...] = ()
    fremen_losses: tuple[tuple[str, int, int], ...] = ()  # (territory, sector, losses) to choose
    cards_out: tuple[str, ...] = ()  # treachery cards out of the game (Family Atomics)
    leaders: FactionMap = field(default_factory=dict)  # alive, in the pool
    leaders_tanks: FactionMap = field(default_factory=dict)  # in the order they died
    leader_deaths: Mapping[str, int] = field(default_factory=dict)
    prediction: tuple[Faction, int] | None = None
    dialers: tuple[Faction, ...] = ()
    dials: Mapping[Faction, int] = field(default_factory=dict)  # secret until all are in
    proposals: frozenset[tuple[Faction, Faction]] = frozenset()  # (from, to) in a Nexus
    joined: frozenset[Faction] = frozenset()  # joined an alliance in this Nexus (1.10.01.01)
    fremen_gift_stopped: bool = False  # a Karama stopped the Fremen ally's 3 free (2.04.11)
    atreides_battle_losses: int = 0  # forces lost in battles, for the Kwisatz Haderach
    kwisatz_haderach_active: bool = False  # 2.01.10: from 7 battle losses on, for good
    shield_wall_destroyed: bool = False
    winner: Winner | None = None
    halt: tuple[int, GamePhase] | None = None  # stop as this phase of this turn is to begin
    stop_after: GamePhase | None = None  # stop once this phase is done (a phase played alone)
    prevented: frozenset[str] = frozenset()  # ✷ abilities (values) a Karama stops next use
    karama_powers_used: frozenset[Faction] = frozenset()  # once-a-game powers spent (1.14)
    karama_worm: str | None = None  # the Fremen's Karama worm, for the next blow (1.14.03)
    fremen_expose_ally: bool = False  # secret: the Fremen no longer spare their ally (2.04.10)
    bribes: Mapping[Faction, int] = field(default_factory=dict)  # in front of shields (1.12.02)
    kwisatz_haderach_territory: str | None = None  # where it fought this turn (2.01.11)
    kwisatz_haderach_dead: bool = False  # killed in a lasgun/shield explosion (2.01.13)
    captives: Mapping[str, Faction] = field(default_factory=dict)  # leader -> owner (2.05.10)
    # -- each phase's own state, by its part's name (:class:`StatePart`) --
    parts: Mapping[str, Any] = field(default_factory=lambda: _empty_parts())
    # -- Truthtrance (rules.truthtrance): the last question, open while unanswered (3.01.21) --
    truthtrance: Question | None = None

    # -- queries ---------------------------------------------------------------------

    def held(self, mapping: FactionMap, faction: Faction) -> tuple[str, ...]:
        return tuple(mapping.get(faction, ()))

    @property
    def halted(self) -> bool:
        """Stopped as the halt phase is about to begin (nothing of it done)."""
        return self.halt == (self.turn, self.phase) and self.step == PhaseStep.BEGIN

    @property
    def stopped(self) -> bool:
        """Done with the one phase it was to play (:attr:`stop_after`): nothing follows."""
        return self.stop_after is self.phase and self.step == PhaseStep.DONE

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.chance.seed,
            "draws": self.chance.draws,
            "turn": self.turn,
            "phase": self.phase.value,
            "last_turn": self.last_turn,
            "order": [f.value for f in self.order],
            "waiting": [f.value for f in self.waiting],
            "step": self.step,
            "spice_deck": list(self.spice_deck),
            "spice_discard": list(self.spice_discard),
            "spice_discard_b": list(self.spice_discard_b),
            "worms_aside": self.worms_aside,
            "worm_territory": self.worm_territory,
            "worms_in_blow": self.worms_in_blow,
            "treachery_deck": list(self.treachery_deck),
            "treachery_discard": list(self.treachery_discard),
            "fremen_losses": [list(loss) for loss in self.fremen_losses],
            "cards_out": list(self.cards_out),
            "leaders": map_out(self.leaders),
            "leaders_tanks": map_out(self.leaders_tanks),
            "leader_deaths": dict(sorted(self.leader_deaths.items())),
            "prediction": (
                {"faction": self.prediction[0].value, "turn": self.prediction[1]}
                if self.prediction
                else None
            ),
            "dialers": [f.value for f in self.dialers],
            "dials": {f.value: v for f, v in sorted(self.dials.items())},
            "proposals": sorted([a.value, b.value] for a, b in self.proposals),
            "joined": sorted(f.value for f in self.joined),
            "kwisatz_haderach": {
                "active": self.kwisatz_haderach_active,
                "losses": self.atreides_battle_losses,
            },
            "shield_wall_destroyed": self.shield_wall_destroyed,
            "winner": {**self.winner.to_dict(), "rule": self.winner.rule} if self.winner else None,
            "halt": {"turn": self.halt[0], "phase": self.halt[1].value} if self.halt else None,
            **({"stop_after": self.stop_after.value} if self.stop_after else {}),
            "prevented": sorted(self.prevented),
            "karama_powers_used": sorted(f.value for f in self.karama_powers_used),
            "karama_worm": self.karama_worm,
            "fremen_expose_ally": self.fremen_expose_ally,
            "bribes": {f.value: n for f, n in sorted(self.bribes.items())},
            "kwisatz_haderach_territory": self.kwisatz_haderach_territory,
            "kwisatz_haderach_dead": self.kwisatz_haderach_dead,
            "captives": {n: f.value for n, f in sorted(self.captives.items())},
            # -- each phase's own state, its keys beside the game's --
            **{k: v for part in STATE_PARTS.values() for k, v in part.stored(self).items()},
            # -- Truthtrance: stored only once one was played --
            **({"truthtrance": self.truthtrance.to_dict()} if self.truthtrance else {}),
            **({"fremen_gift_stopped": True} if self.fremen_gift_stopped else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnState:
        prediction = data.get("prediction")
        winner = data.get("winner")
        return cls(
            chance=Chance(int(data["seed"]), int(data["draws"])),
            turn=int(data["turn"]),
            phase=GamePhase(data["phase"]),
            last_turn=int(data.get("last_turn", 10)),
            order=_factions(data["order"]),
            waiting=_factions(data["waiting"]),
            step=str(data.get("step", "")),
            spice_deck=tuple(data["spice_deck"]),
            spice_discard=tuple(data["spice_discard"]),
            spice_discard_b=tuple(data.get("spice_discard_b", ())),
            worms_aside=int(data.get("worms_aside", 0)),
            worm_territory=data.get("worm_territory"),
            worms_in_blow=int(data.get("worms_in_blow", 0)),
            treachery_deck=tuple(data["treachery_deck"]),
            treachery_discard=tuple(data["treachery_discard"]),
            fremen_losses=tuple(
                (str(t), int(s), int(n)) for t, s, n in data.get("fremen_losses", ())
            ),
            cards_out=tuple(data.get("cards_out", ())),
            leaders=map_in(data["leaders"]),
            leaders_tanks=map_in(data["leaders_tanks"]),
            leader_deaths={str(k): int(v) for k, v in data.get("leader_deaths", {}).items()},
            prediction=(
                (Faction(prediction["faction"]), int(prediction["turn"])) if prediction else None
            ),
            dialers=_factions(data.get("dialers", ())),
            dials={Faction(f): int(v) for f, v in data.get("dials", {}).items()},
            proposals=frozenset((Faction(a), Faction(b)) for a, b in data.get("proposals", ())),
            joined=frozenset(_factions(data.get("joined", ()))),
            fremen_gift_stopped=bool(data.get("fremen_gift_stopped", False)),
            atreides_battle_losses=int(data.get("kwisatz_haderach", {}).get("losses", 0)),
            kwisatz_haderach_active=bool(data.get("kwisatz_haderach", {}).get("active", False)),
            shield_wall_destroyed=bool(data.get("shield_wall_destroyed", False)),
            winner=(
                Winner(
                    _factions(winner["factions"]), str(winner["how"]), str(winner.get("rule", ""))
                )
                if winner
                else None
            ),
            halt=_halt(data.get("halt")),
            stop_after=GamePhase(data["stop_after"]) if data.get("stop_after") else None,
            prevented=frozenset(str(a) for a in data.get("prevented", ())),
            karama_powers_used=frozenset(_factions(data.get("karama_powers_used", ()))),
            karama_worm=data.get("karama_worm"),
            fremen_expose_ally=bool(data.get("fremen_expose_ally", False)),
            bribes={Faction(f): int(n) for f, n in data.get("bribes", {}).items()},
            kwisatz_haderach_territory=data.get("kwisatz_haderach_territory"),
            kwisatz_haderach_dead=bool(data.get("kwisatz_haderach_dead", False)),
            captives={str(n): Faction(f) for n, f in data.get("captives", {}).items()},
            parts=_parts_from(data),
            truthtrance=question_from(data.get("truthtrance")),  # Truthtrance
        )


P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class StatePart(Generic[P]):
    """A phase's own state, kept in ``TurnState.parts`` under ``name`` (every game holds
    every part, ``empty`` until the phase sets it) and stored beside the game's own fields:
    ``write`` gives its keys, ``read`` reads them back from the game's stored form. A phase
    declares its part once (:func:`state_part`) and reads and changes it through it, so the
    game's own state names no phase."""

    name: str
    empty: P
    write: Callable[[P], Mapping[str, Any]]
    read: Callable[[Mapping[str, Any]], P]

    def of(self, game: TurnState) -> P:
        value: P = game.parts[self.name]
        return value

    def stored(self, game: TurnState) -> Mapping[str, Any]:
        return self.write(self.of(game))

    def put(self, parts: Mapping[str, object], value: P) -> dict[str, object]:
        """``parts`` (a game's) with this part's ``value``, the others the same (for
        ``set_game(parts=...)``; chained to change several)."""
        return {**parts, self.name: value}


STATE_PARTS: dict[str, StatePart[Any]] = {}
"""Every phase's part of the game's state, by name, as each phase's package declares it
(``rules`` imports every phase, so the table is whole before a game is read)."""


def state_part(
    name: str,
    empty: P,
    write: Callable[[P], Mapping[str, Any]],
    read: Callable[[Mapping[str, Any]], P],
) -> StatePart[P]:
    """Declare a phase's part of the game's state (a name declared twice is a mistake)."""
    if name in STATE_PARTS:
        raise ValueError(f"the game's state has a part {name!r} already")
    part = StatePart(name, empty, write, read)
    STATE_PARTS[name] = part
    return part


def _empty_parts() -> dict[str, object]:
    return {name: part.empty for name, part in STATE_PARTS.items()}


def _parts_from(data: Mapping[str, Any]) -> dict[str, object]:
    return {name: part.read(data) for name, part in STATE_PARTS.items()}


evolve = evolver(TurnState)
"""``evolve(game, changes)`` is ``replace(game, **changes)``, faster: the phases change the
whole game's state many times per action (:mod:`rules.frozen`)."""


def _halt(data: Mapping[str, Any] | None) -> tuple[int, GamePhase] | None:
    return (int(data["turn"]), GamePhase(data["phase"])) if data else None


def with_entry(mapping: FactionMap, faction: Faction, value: tuple[str, ...]) -> FactionMap:
    """A copy of ``mapping`` with ``faction``'s entry replaced (never in place)."""
    return {**mapping, faction: value}


def map_out(mapping: FactionMap) -> dict[str, list[str]]:
    """Leader names by faction, as stored (factions in order)."""
    return {f.value: list(v) for f, v in sorted(mapping.items())}


def map_in(data: Mapping[str, Any]) -> dict[Faction, tuple[str, ...]]:
    """Leader names by faction, read back from their stored form."""
    return {Faction(f): tuple(str(x) for x in v) for f, v in data.items()}


def _factions(values: Any) -> tuple[Faction, ...]:
    return tuple(Faction(v) for v in values)
