"""The ``dune-scenario/2`` file format: a position at the start of any phase of any turn,
the decks in a known order, and actions run through as many phases as they reach.

Everything version 1 checks is checked the same way (:mod:`rules.scenario`); this
module adds the whole-game keys (docs/SCENARIO-FORMAT-2.md). A malformed file raises
:class:`~rules.scenario.ScenarioError`; anything wrong inside ``actions`` is a refused
action in the output.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules import scenario as v1
from rules.actions import Action, Pass
from rules.components import (
    SHAI_HULUD,
    leader_owner,
    leaders,
    spice_cards,
    spice_deck,
    storm_deck,
    treachery_card,
    treachery_deck,
)
from rules.errors import RulesError, quote
from rules.events import Event
from rules.factions import Faction, same_card
from rules.game import GameState
from rules.game_model import Chance, GamePhase, TurnState
from rules.model import FactionState, Phase
from rules.phase_spec import HeldLeaders
from rules.phases import REGISTRY
from rules.position import board_stacks_to_dicts, storm_order
from rules.scenario import ScenarioError
from rules.storm.model import STORM_TURN, StormTurn

FORMAT = "dune-scenario/2"
ROOT_KEYS = (
    *v1.ROOT_KEYS,
    *("turn", "phase", "decks", "storm_next", "storm_dialers", "stop_before", "seed"),
    "shield_wall_destroyed",
)
HELD_LEADERS: tuple[HeldLeaders, ...] = tuple(k for s in REGISTRY.values() for k in s.scenario_keys)
"""The phases' keys of a faction: the leader cards it holds for them (the traitors)."""
WHOLE_FACTION_KEYS = (
    "leaders",
    "leaders_tanks",
    *(k.key for k in HELD_LEADERS),
    "kwisatz_haderach",
    "prediction",
)
DECK_KEYS = ("spice", "spice_discard", "spice_discard_b", "treachery", "treachery_discard", "storm")
PHASES = tuple(p.value for p in GamePhase if p not in (GamePhase.SETUP, GamePhase.OVER))


def load(data: object) -> GameState:
    """Check a version-2 scenario and build its starting position (nothing of the phase
    done before the engine's own steps); raises ScenarioError naming the first bad field."""
    root = v1._mapping(data, "the file")
    if root.get("format") != FORMAT:
        raise ScenarioError(f"format: expected {FORMAT!r}, got {quote(root.get('format'))}")
    v1._known_keys(root, ROOT_KEYS, "")
    plain, extras = _split_factions(v1._mapping(root.get("factions") or {}, "factions"))
    first = {k: v for k, v in root.items() if k in v1.ROOT_KEYS}
    first |= {"format": v1.FORMAT, "factions": plain, "actions": []}
    first.setdefault("storm_sector", 18)
    base = v1.load_scenario(first)
    seated = [f for f in base.seats if f is not None]
    turn = _turn(root.get("turn", 1))
    phase = _phase(root.get("phase", GamePhase.SHIPMENT_MOVEMENT.value))
    seed = v1._count(root.get("seed", 0), "seed")
    card = _storm_card(root.get("storm_next"), "storm_next")  # checked before the dialers
    game = TurnState(
        chance=Chance(seed),
        turn=turn,
        phase=phase,
        order=storm_order(base.seats, base.storm_sector),
        dialers=_dialers(root.get("storm_dialers"), seated),
        shield_wall_destroyed=_bool(
            root.get("shield_wall_destroyed", False), "shield_wall_destroyed"
        ),
        halt=_stop_before(root.get("stop_before")),
        **_leaders_and_secrets(extras, seated),
    )
    game = replace(game, parts=STORM_TURN.put(game.parts, StormTurn(next=card)))
    game = _with_held_leaders(game, extras, seated)
    game = _with_decks(game, v1._mapping(root.get("decks") or {}, "decks"), base.factions)
    return GameState(
        storm_sector=base.storm_sector,
        seats=base.seats,
        factions=base.factions,
        stacks=base.stacks,
        alliances=base.alliances,
        rules=base.rules,
        spice_bank=SPICE_BANK,
        phase=Phase(order=(), started=True, complete=True),
        board_spice=base.board_spice,
        game=game,
    )


SPICE_BANK = 1000


def run(data: object) -> tuple[GameState, dict[str, Any]]:
    """Apply every action in turn; the final state and the output object."""
    state = load(data)
    root = v1._mapping(data, "the file")
    actions = v1._sequence(root.get("actions") or [], "actions")
    pending: list[Event] = list(state.start_events)
    results = []
    for index, raw in enumerate(actions):
        result: dict[str, Any] = {"index": index}
        try:
            own, steps = _apply(state, raw)
        except RulesError as error:
            result |= {"accepted": False, "rule": error.rule, "error": error.message}
            result["events"] = [e.to_dict() for e in pending]
            pending = []
        else:
            result |= {"accepted": True, "events": [e.to_dict() for e in pending + own]}
            pending = steps
        results.append(result)
    output_state = final_state(state)
    output_state["events"] = [e.to_dict() for e in pending]
    return state, {"results": results, "state": output_state}


def _apply(state: GameState, raw: Any) -> tuple[list[Event], list[Event]]:
    """Decline the choices the action does not answer, then apply it; all or nothing."""
    action = v1.read_action(raw)
    before = state.snapshot()
    declined: list[Event] = []
    try:
        while not state.is_legal(action) and _declinable(state, action):
            for faction in state.waiting_on():
                own, steps = state.apply_split(Pass(faction))
                declined += own + steps
        own, steps = state.apply_split(action)
    except RulesError:
        state.restore(before)
        raise
    return declined + own, steps


def _declinable(state: GameState, action: Action) -> bool:
    """Where the game waits on a choice that an action answering something else declines
    (each phase's spec says where: ``declinable``). A faction's turn is no such choice
    (docs/SCENARIO-FORMAT-2.md): the auction's turn to bid (1.04.05), like the turn to ship
    and move (1.06.00), is declined by nobody's action; an action out of turn is refused
    and passes nobody."""
    game = state.whole
    spec = REGISTRY.get(game.phase)
    if spec is None or not game.waiting or game.step not in spec.declinable:
        return False
    return not isinstance(action, spec.own_answers)  # refused, it says why (a revival)


def final_state(state: GameState) -> dict[str, Any]:
    game = state.whole
    return {
        "turn": game.turn,
        "phase": game.phase.value if game.phase is not GamePhase.OVER else _last_phase(state),
        "to_act": sorted(f.value for f in state.waiting_on()),
        "winner": game.winner.to_dict() if game.winner else None,
        "storm_sector": state.storm_sector,
        "spice_on_board": [
            {"territory": t, "sector": s, "amount": n}
            for (t, s), n in sorted(
                state.board_spice.items(), key=lambda i: (i[0][0], i[0][1] or 0)
            )
        ],
        "shield_wall_destroyed": game.shield_wall_destroyed,
        "alliances": sorted(sorted(f.value for f in a) for a in state.alliances),
        "factions": {
            f.value: {
                **s.to_dict(),
                "leaders": list(game.held(game.leaders, f)),
                "leaders_tanks": list(game.held(game.leaders_tanks, f)),
                **{k.key: list(k.held(game, f)) for k in HELD_LEADERS},
            }
            for f, s in sorted(state.factions.items())
        },
        "board": [v1._board_entry(d) for d in v1._split_kinds(board_stacks_to_dicts(state.stacks))],
    }


def _last_phase(state: GameState) -> str:
    """After a win the phase stays where the game ended: the Mentat Pause."""
    return GamePhase.MENTAT_PAUSE.value


# -- fields -------------------------------------------------------------------------


def _split_factions(
    factions: Mapping[str, Any],
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Each faction's version-1 keys, and apart from them its version-2 keys."""
    plain: dict[str, Any] = {}
    extras: dict[str, dict[str, Any]] = {}
    for name, fields in factions.items():
        fields = v1._mapping(fields, f"factions.{name}")
        extras[name] = {k: v for k, v in fields.items() if k in WHOLE_FACTION_KEYS}
        plain[name] = {k: v for k, v in fields.items() if k not in WHOLE_FACTION_KEYS}
    return plain, extras


def _turn(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
        raise ScenarioError(f"turn: expected 1..10, got {quote(value)}")
    return value


def _phase(value: object) -> GamePhase:
    if value not in PHASES:
        raise ScenarioError(f"phase: expected one of {', '.join(PHASES)}, got {quote(value)}")
    return GamePhase(str(value))


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{where}: expected true or false, got {quote(value)}")
    return value


def _storm_card(value: object, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or value not in storm_deck():
        raise ScenarioError(f"{where}: a storm card is 1..6, not {quote(value)}")
    assert isinstance(value, int)
    return value


def _dialers(value: object, seated: list[Faction]) -> tuple[Faction, ...]:
    if value is None:
        return ()
    names = v1._sequence(value, "storm_dialers")
    out = tuple(v1._faction(n, f"storm_dialers[{i}]") for i, n in enumerate(names))
    if len(out) != 2 or len(set(out)) != 2 or not set(out) <= set(seated):
        raise ScenarioError("storm_dialers: two different seated factions")
    return out


def _stop_before(value: object) -> tuple[int, GamePhase] | None:
    if value is None:
        return None
    entry = v1._mapping(value, "stop_before")
    v1._known_keys(entry, ("turn", "phase"), "stop_before.")
    return _turn(entry.get("turn")), _phase(entry.get("phase"))


def _leaders_and_secrets(
    extras: Mapping[str, Mapping[str, Any]], seated: list[Faction]
) -> dict[str, Any]:
    alive: dict[Faction, tuple[str, ...]] = {}
    tanks: dict[Faction, tuple[str, ...]] = {}
    prediction = None
    kwisatz = (False, 0)
    by_faction = {v1._faction(name, f"factions.{name}"): fields for name, fields in extras.items()}
    for faction in seated:
        fields = by_faction.get(faction, {})
        where = f"factions.{faction.value}"
        tanks[faction] = _own_leaders(
            fields.get("leaders_tanks", []), faction, f"{where}.leaders_tanks"
        )
        default = [n for n in leaders(faction) if n not in tanks[faction]]
        alive[faction] = _own_leaders(fields.get("leaders", default), faction, f"{where}.leaders")
        if "prediction" in fields:
            prediction = _prediction(fields["prediction"], faction, seated, f"{where}.prediction")
        if "kwisatz_haderach" in fields:
            kwisatz = _kwisatz(fields["kwisatz_haderach"], faction, f"{where}.kwisatz_haderach")
    return {
        "leaders": alive,
        "leaders_tanks": tanks,
        "prediction": prediction,
        "kwisatz_haderach_active": kwisatz[0],
        "atreides_battle_losses": kwisatz[1],
    }


def _kwisatz(value: object, faction: Faction, where: str) -> tuple[bool, int]:
    if faction is not Faction.ATREIDES:
        raise ScenarioError(f"{where}: only the Atreides have the Kwisatz Haderach")
    entry = v1._mapping(value, where)
    v1._known_keys(entry, ("active", "losses"), f"{where}.")
    return _bool(entry.get("active", False), f"{where}.active"), v1._count(
        entry.get("losses", 0), f"{where}.losses"
    )


def _own_leaders(value: object, faction: Faction, where: str) -> tuple[str, ...]:
    out = []
    for i, name in enumerate(v1._sequence(value, where)):
        found = next(
            (n for n in leaders(faction) if isinstance(name, str) and same_card(n, name)), None
        )
        if found is None:
            raise ScenarioError(
                f"{where}[{i}]: {quote(name)} is not a leader of the {faction.label}"
            )
        out.append(found)
    return tuple(out)


def _with_held_leaders(
    game: TurnState, extras: Mapping[str, Mapping[str, Any]], seated: list[Faction]
) -> TurnState:
    """The leader cards each faction holds for a phase (its ``traitors``), none if not given."""
    by_faction = {v1._faction(name, f"factions.{name}"): fields for name, fields in extras.items()}
    for key in HELD_LEADERS:
        held = {
            faction: _leader_cards(
                by_faction.get(faction, {}).get(key.key, []),
                seated,
                f"factions.{faction.value}.{key.key}",
            )
            for faction in seated
        }
        game = key.into(game, held)
    return game


def _leader_cards(value: object, seated: list[Faction], where: str) -> tuple[str, ...]:
    out = []
    for i, name in enumerate(v1._sequence(value, where)):
        owner = leader_owner(name) if isinstance(name, str) else None
        if owner is None or owner not in seated:
            raise ScenarioError(f"{where}[{i}]: {quote(name)} is not a leader of a faction in play")
        out.append(next(n for n in leaders(owner) if same_card(n, str(name))))
    return tuple(out)


def _prediction(
    value: object, faction: Faction, seated: list[Faction], where: str
) -> tuple[Faction, int]:
    if faction is not Faction.BENE_GESSERIT:
        raise ScenarioError(f"{where}: only the Bene Gesserit predict")
    entry = v1._mapping(value, where)
    who = v1._faction(entry.get("faction"), f"{where}.faction")
    if who not in seated or who is faction:
        raise ScenarioError(f"{where}.faction: another faction in the game")
    return who, _turn(entry.get("turn"))


def _with_decks(
    game: TurnState, decks: Mapping[str, Any], factions: Mapping[Faction, FactionState]
) -> TurnState:
    v1._known_keys(decks, DECK_KEYS, "decks.")
    spice = {k: _spice_pile(decks.get(k), f"decks.{k}") for k in DECK_KEYS[:3]}
    treachery = {k: _treachery_pile(decks.get(k), f"decks.{k}") for k in DECK_KEYS[3:5]}
    chance = game.chance
    if spice["spice"] is None:
        rest = _less(
            spice_deck(), [*(spice["spice_discard"] or ()), *(spice["spice_discard_b"] or ())]
        )
        spice["spice"], chance = chance.shuffle(rest)
    if treachery["treachery"] is None:
        held = [c for s in factions.values() for c in s.cards]
        rest = _less(treachery_deck(), [*held, *(treachery["treachery_discard"] or ())])
        treachery["treachery"], chance = chance.shuffle(rest)
    storm = decks.get("storm")
    if storm is not None:
        cards = [
            _storm_card(v, f"decks.storm[{i}]")
            for i, v in enumerate(v1._sequence(storm, "decks.storm"))
        ]
        if cards and STORM_TURN.of(game).next is None:
            game = replace(game, parts=STORM_TURN.put(game.parts, StormTurn(next=cards[0])))
    return replace(
        game,
        chance=chance,
        spice_deck=tuple(spice["spice"] or ()),
        spice_discard=tuple(spice["spice_discard"] or ()),
        spice_discard_b=tuple(spice["spice_discard_b"] or ()),
        treachery_deck=tuple(treachery["treachery"] or ()),
        treachery_discard=tuple(treachery["treachery_discard"] or ()),
    )


def _less(full: Sequence[str], taken: Sequence[str]) -> list[str]:
    """``full`` without one copy of each card in ``taken``."""
    left = Counter(taken)
    out = []
    for card in full:
        if left[card] > 0:
            left[card] -= 1
        else:
            out.append(card)
    return out


def _spice_pile(value: object, where: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    names = {**{n: n for n in spice_cards()}, SHAI_HULUD: SHAI_HULUD}
    out = []
    for i, card in enumerate(v1._sequence(value, where)):
        found = next((n for n in names if isinstance(card, str) and same_card(n, card)), None)
        if found is None:
            raise ScenarioError(f"{where}[{i}]: {quote(card)} is not a spice card")
        out.append(found)
    return tuple(out)


def _treachery_pile(value: object, where: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    out = []
    for i, card in enumerate(v1._sequence(value, where)):
        found = treachery_card(card) if isinstance(card, str) else None
        if found is None:
            raise ScenarioError(f"{where}[{i}]: {quote(card)} is not a treachery card")
        out.append(found)
    return tuple(out)
