"""The ``dune-scenario/1`` file format: a position at the start of the Shipment &
Movement phase plus a list of actions, run through the phase state machine.

A malformed file raises :class:`ScenarioError` naming the offending field;
anything wrong inside ``actions`` is a refused action in the output instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.actions import Action, action_from_dict, action_keys
from rules.board import SEAT_COUNT, SECTOR_COUNT, Board, Territory, standard_board
from rules.components import forces_total, starred_total, treachery_card
from rules.errors import InvalidActionError, MentatError, RulesError, quote
from rules.factions import Faction
from rules.game import GameState
from rules.model import FactionState, RuleSet, Stack, StackKey
from rules.position import board_stacks_to_dicts
from rules.suggest import did_you_mean
from rules.variants import VariantError

FORMAT = "dune-scenario/1"
FACTION_FIELDS = ("spice", "reserves", "special_reserves", "tanks", "special_tanks")
# The keys the contract allows (docs/SCENARIO-FORMAT.md), and the documented spice_on_board.
ROOT_KEYS = (
    *("format", "advanced", "variants", "storm_sector", "seats", "alliances", "factions"),
    *("board", "spice_on_board", "actions"),
)
FACTION_KEYS = (*FACTION_FIELDS, "cards")
BOARD_KEYS = ("faction", "territory", "sector", "forces", "special", "advisors")
SPICE_KEYS = ("territory", "sector", "amount")
ADAPTIVE_FORCE_RULE = "2.02.21"
ACTION_RULE = "1.06.00"  # the rule an action that cannot be read is refused under


class ScenarioError(MentatError, ValueError):
    """The scenario file itself is malformed; the message names the field."""


@dataclass(frozen=True)
class Scenario:
    rules: RuleSet
    storm_sector: int
    seats: tuple[Faction | None, ...]
    alliances: tuple[tuple[Faction, Faction], ...]
    factions: dict[Faction, FactionState]
    stacks: dict[StackKey, Stack]
    board_spice: dict[tuple[str, int | None], int]
    actions: tuple[Any, ...]

    def initial_state(self) -> GameState:
        """The position at the start of the phase (Wartime and Guild prompts open)."""
        return GameState(
            storm_sector=self.storm_sector,
            seats=self.seats,
            factions=self.factions,
            stacks=self.stacks,
            alliances=self.alliances,
            rules=self.rules,
            board_spice=self.board_spice,
        )


def load_scenario(data: object) -> Scenario:
    """Check and read a scenario; raises ScenarioError naming the first bad field."""
    root = _mapping(data, "the file")
    if root.get("format") != FORMAT:
        raise ScenarioError(f"format: expected {FORMAT!r}, got {quote(root.get('format'))}")
    _known_keys(root, ROOT_KEYS, "")
    for key in ("storm_sector", "seats"):
        if key not in root:
            raise ScenarioError(f"{key}: required key missing")
    seats = _seats(root["seats"])
    seated = {f for f in seats if f is not None}
    factions = _factions(root.get("factions") or {}, seated)
    stacks = _board(root.get("board") or [], seated)
    _check_force_totals(factions, stacks)
    return Scenario(
        rules=_rules(root),
        storm_sector=_storm(root["storm_sector"]),
        seats=seats,
        alliances=_alliances(root.get("alliances") or [], seated),
        factions=factions,
        stacks=stacks,
        board_spice=_board_spice(root.get("spice_on_board") or []),
        actions=tuple(_sequence(root.get("actions") or [], "actions")),
    )


def run_scenario(data: object) -> tuple[GameState, dict[str, Any]]:
    """Apply every action in turn; return the final state and the output object."""
    scenario = load_scenario(data)
    state = scenario.initial_state()
    results = []
    for index, raw in enumerate(scenario.actions):
        try:
            events = state.apply(read_action(raw))
        except RulesError as error:
            results.append(
                {"index": index, "accepted": False, "rule": error.rule, "error": error.message}
            )
            continue
        results.append({"index": index, "accepted": True, "events": [e.to_dict() for e in events]})
    state.close_all_prompts()
    return state, {"results": results, "state": final_state(state)}


def read_action(raw: Any) -> Action:
    """One entry of ``actions``; a key its action does not have is refused, never ignored."""
    if isinstance(raw, Mapping):
        _check_action_keys(raw)
    return action_from_dict(raw)  # it refuses an entry that is not an object


def _check_action_keys(raw: Mapping[str, Any]) -> None:
    known = action_keys(str(raw.get("action")))
    for key in raw if known else ():
        if key not in known:
            raise InvalidActionError(
                f"{quote(key)} is not a key of the {raw['action']!r} action "
                f"({did_you_mean(str(key), known)}); the scenario format "
                "(docs/SCENARIO-FORMAT.md) names each action's keys",
                rule=ACTION_RULE,
            )


def final_state(state: GameState) -> dict[str, Any]:
    return {
        "storm_sector": state.storm_sector,
        "factions": {
            f.value: s.to_dict() for f, s in sorted(state.factions.items(), key=lambda i: i[0])
        },
        "board": [_board_entry(d) for d in _split_kinds(board_stacks_to_dicts(state.stacks))],
        "phase_complete": state.is_complete,
    }


# -- fields ---------------------------------------------------------------------------


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where}: expected an object")
    return value


def _sequence(value: object, where: str) -> Sequence[Any]:
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list")
    return value


def _known_keys(entry: Mapping[str, Any], known: Sequence[str], where: str) -> None:
    """A key the contract does not know is a misspelling, never silently ignored."""
    for key in entry:
        if key not in known:
            raise ScenarioError(f"{where}{key}: unknown key ({did_you_mean(str(key), known)})")


def _count(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{where}: expected a whole number, got {quote(value)}")
    if value < 0:
        raise ScenarioError(f"{where}: cannot be negative ({value})")
    return value


def _faction(value: object, where: str) -> Faction:
    faction = Faction.parse(value) if isinstance(value, str) else None
    if faction is None:
        known = ", ".join(f.value for f in Faction)
        raise ScenarioError(f"{where}: unknown faction {quote(value)} (known: {known})")
    return faction


def _rules(root: Mapping[str, Any]) -> RuleSet:
    advanced = root.get("advanced", True)
    if not isinstance(advanced, bool):
        raise ScenarioError(f"advanced: expected true or false, got {quote(advanced)}")
    variants = _mapping(root.get("variants") or {}, "variants")
    try:
        return RuleSet.parse(advanced, variants)
    except VariantError as error:
        raise ScenarioError(f"variants.{error}") from error


def _storm(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= SECTOR_COUNT:
        raise ScenarioError(f"storm_sector: expected a printed sector 1..18, got {quote(value)}")
    return value


def _seats(value: object) -> tuple[Faction | None, ...]:
    seats = _sequence(value, "seats")
    if len(seats) > SEAT_COUNT:
        raise ScenarioError(f"seats: at most {SEAT_COUNT} seats, got {len(seats)}")
    out = tuple(None if s is None else _faction(s, f"seats[{i}]") for i, s in enumerate(seats))
    seated = [f for f in out if f is not None]
    if len(set(seated)) != len(seated):
        raise ScenarioError("seats: a faction is seated twice")
    if not seated:
        raise ScenarioError("seats: no faction is seated")
    return out


def _factions(value: object, seated: set[Faction]) -> dict[Faction, FactionState]:
    raw = _mapping(value, "factions")
    out = {f: FactionState() for f in seated}
    for name, fields in raw.items():
        faction = _faction(name, f"factions.{name}")
        if faction not in seated:
            raise ScenarioError(f"factions.{name}: this faction has no seat")
        fields = _mapping(fields, f"factions.{name}")
        _known_keys(fields, FACTION_KEYS, f"factions.{name}.")
        counts = {k: _count(fields.get(k, 0), f"factions.{name}.{k}") for k in FACTION_FIELDS}
        cards = _sequence(fields.get("cards", []), f"factions.{name}.cards")
        _check_cards(cards, f"factions.{name}.cards")
        out[faction] = FactionState(**counts, cards=tuple(cards))
    return out


def _check_cards(cards: Sequence[Any], where: str) -> None:
    for i, text in enumerate(cards):
        if not isinstance(text, str) or treachery_card(text) is None:
            raise ScenarioError(f"{where}[{i}]: {quote(text)} is not a treachery card")


def _check_force_totals(
    factions: Mapping[Faction, FactionState], stacks: Mapping[StackKey, Stack]
) -> None:
    """Board, reserves and tanks together hold at most the tokens a faction owns."""
    for faction, holding in factions.items():
        total, starred = _tokens_held(
            holding, [s for (f, _, _), s in stacks.items() if f is faction]
        )
        for count, owned, kind in (
            (starred, starred_total(faction), "starred forces"),
            (total, forces_total(faction), "forces"),
        ):
            if count > owned:
                raise ScenarioError(
                    f"factions.{faction.value}: {count} {kind} on the board, in reserve and in "
                    f"the tanks; the {faction.label} have {owned}"
                )


def _tokens_held(holding: FactionState, on_board: list[Stack]) -> tuple[int, int]:
    """(all forces, starred forces) of a faction, wherever they are."""
    starred = holding.special_reserves + holding.special_tanks + sum(s.special for s in on_board)
    regular = holding.reserves + holding.tanks + sum(s.forces + s.advisors for s in on_board)
    return regular + starred, starred


def _alliances(value: object, seated: set[Faction]) -> tuple[tuple[Faction, Faction], ...]:
    out = []
    allied: set[Faction] = set()
    for i, pair in enumerate(_sequence(value, "alliances")):
        members = _sequence(pair, f"alliances[{i}]")
        if len(members) != 2:
            raise ScenarioError(f"alliances[{i}]: an alliance has two factions")
        a, b = (_faction(m, f"alliances[{i}]") for m in members)
        if a == b or a not in seated or b not in seated or {a, b} & allied:
            raise ScenarioError(
                f"alliances[{i}]: needs two different seated factions, each in one alliance"
            )
        allied |= {a, b}
        out.append((a, b))
    return tuple(out)


def _board(value: object, seated: set[Faction]) -> dict[StackKey, Stack]:
    board = standard_board()
    out: dict[StackKey, Stack] = {}
    for i, raw in enumerate(_sequence(value, "board")):
        where = f"board[{i}]"
        entry = _mapping(raw, where)
        _known_keys(entry, BOARD_KEYS, f"{where}.")
        faction = _faction(entry.get("faction"), f"{where}.faction")
        if faction not in seated:
            raise ScenarioError(f"{where}.faction: {faction.value} has no seat")
        territory = _territory(board, entry.get("territory"), f"{where}.territory")
        sector = _stack_sector(entry.get("sector"), territory.sectors, territory.name, where)
        forces = _count(entry.get("forces", 0), f"{where}.forces")
        special = _count(entry.get("special", 0), f"{where}.special")
        advisors = entry.get("advisors", False)
        if not isinstance(advisors, bool):
            raise ScenarioError(f"{where}.advisors: expected true or false")
        if advisors and faction is not Faction.BENE_GESSERIT:
            raise ScenarioError(f"{where}.advisors: only the Bene Gesserit have advisors")
        if advisors and special:
            raise ScenarioError(f"{where}.special: advisors have no starred side")
        stack = Stack(advisors=forces) if advisors else Stack(forces, special)
        key = (faction, territory.name, sector)
        out[key] = out.get(key, Stack()) + stack
        _check_one_kind(out, key, where)
    return {k: v for k, v in out.items() if v.total}


def _territory(board: Board, value: object, where: str) -> Territory:
    """The board's territory named ``value``; a misspelt one is answered with its likely
    meaning."""
    territory = board.resolve(str(value if value is not None else ""))
    if territory is None:
        close = board.closest(str(value)) if isinstance(value, str) else None
        hint = f" (did you mean {close!r}?)" if close else ""
        raise ScenarioError(f"{where}: unknown territory {quote(value)}{hint}")
    return territory


def _check_one_kind(stacks: Mapping[StackKey, Stack], key: StackKey, where: str) -> None:
    """The Bene Gesserit's advisors and fighters never share a territory (2.02.21)."""
    faction, territory, _ = key
    here = [s for (f, t, _), s in stacks.items() if f is faction and t == territory]
    if any(s.advisors for s in here) and any(s.fighters for s in here):
        raise ScenarioError(
            f"{where}.advisors: the Bene Gesserit would have both advisors and fighters in "
            f"{territory}; one kind flips to match the other ({ADAPTIVE_FORCE_RULE})"
        )


def _stack_sector(value: object, sectors: tuple[int, ...], name: str, where: str) -> int | None:
    if not sectors:
        if value is not None:
            raise ScenarioError(f"{where}.sector: {name} has no sector (omit it or give null)")
        return None
    if value is None and len(sectors) == 1:
        return sectors[0]
    if isinstance(value, bool) or value not in sectors:
        listed = ", ".join(str(s) for s in sectors)
        raise ScenarioError(f"{where}.sector: {name} lies in sectors {listed}, not {quote(value)}")
    assert isinstance(value, int)
    return value


def _board_spice(value: object) -> dict[tuple[str, int | None], int]:
    board = standard_board()
    out: dict[tuple[str, int | None], int] = {}
    for i, raw in enumerate(_sequence(value, "spice_on_board")):
        where = f"spice_on_board[{i}]"
        entry = _mapping(raw, where)
        _known_keys(entry, SPICE_KEYS, f"{where}.")
        territory = _territory(board, entry.get("territory"), f"{where}.territory")
        sector = _stack_sector(entry.get("sector"), territory.sectors, territory.name, where)
        out[(territory.name, sector)] = _count(entry.get("amount", 0), f"{where}.amount")
    return out


def _split_kinds(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for entry in entries:
        if entry["forces"] or entry["special"]:
            out.append({**entry, "advisors": 0})
        if entry["advisors"]:
            out.append({**entry, "forces": entry["advisors"], "special": 0, "advisors": 1})
    return out


def _board_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "faction": entry["faction"],
        "territory": entry["territory"],
        "sector": entry["sector"],
        "forces": entry["forces"],
        "special": entry["special"],
        "advisors": bool(entry["advisors"]),
    }
