"""Game set-up (0.xx): seats, starting spice and forces, cards, the prediction, the
choices the later phases declare (the traitors, 0.11).

:func:`new_position_parts` lays out the printed set-up; the set-up phase (:func:`spec`),
when it starts, shuffles the decks with the game's chance and deals, the later phases'
set-up choices with them (:class:`~rules.phase_spec.SetupChoice`: the battles' traitors).
The secret choices are actions: each faction keeps a traitor, the Bene Gesserit predict a
faction and a turn, the Fremen place their ten starting forces, the advanced Bene
Gesserit their advisor.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from rules.actions import Action, FactionAction, PlaceAdvisor, PlaceFremen, Predict
from rules.board import POLAR_SINK, SEAT_COUNT, standard_board
from rules.components import (
    extras,
    forces_total,
    leaders,
    spice_deck,
    starred_total,
    starting_board,
    starting_spice,
    treachery_deck,
)
from rules.decks import draw_treachery
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import CardsDealt, DeckShuffled, Event, ForcesSetUp, PredictionMade
from rules.factions import Faction
from rules.game_model import Chance, GamePhase, PhaseStep, TurnState
from rules.model import FactionState, Phase, RuleSet, Stack, StackKey
from rules.phase_spec import Entry, PhaseSpec, Runs, SetupChoice, first_of, handlers, on
from rules.position import Position

CARDS_RULE = "0.14"
PREDICTION_RULE = "2.02.03"
FREMEN_RULE = "0.13"
BG_START_RULE = "2.02.08"
SPICE_BANK = 1000
"""Spice in the bank at the start: the rules' bank never runs out; this is plenty."""
FREMEN_PLACES = ("Sietch Tabr", "False Wall South", "False Wall West")
FREMEN_START = 10
MAX_TURNS = 10
"""The game lasts a set number of turns, normally 10 (0.02; the tournament maximum)."""
PHASE_RULE = "0.00"
FREMEN_SPLIT = (4, 3, 3)
"""Sietch Tabr, False Wall South, False Wall West: the Fremen's ten forces by default."""


class SetupStep(StrEnum):
    """The set-up's one step: the factions' secret choices (traitor, prediction, placing)."""

    CHOICES = "choices"


def new_position_parts(
    seats: Iterable[Faction | None], seed: int, rules: RuleSet | None = None, last_turn: int = 10
) -> dict[str, Any]:
    """The keyword arguments of a game at set-up (turn 1, storm at the Storm Start)."""
    seats = tuple(seats)
    playing = [f for f in seats if f is not None]
    if len(set(playing)) != len(playing) or len(playing) < 2 or len(seats) > SEAT_COUNT:
        raise InvalidActionError(
            f"a game needs 2 to 6 different factions in 6 seats, not "
            f"{quote([f.value if f else None for f in seats])}",
            rule="0.01",
        )
    if not 1 <= last_turn <= MAX_TURNS:
        raise InvalidActionError(
            f"a game lasts 1 to {MAX_TURNS} turns, not {quote(last_turn)}", rule="0.02"
        )
    rules = rules or RuleSet()
    factions = {f: _starting_holding(f, rules) for f in playing}
    stacks: dict[StackKey, Stack] = {}
    for faction in playing:
        for territory, forces in _starting_board(faction, rules):
            sector = standard_board()[territory].sectors[:1]
            stacks[(faction, territory, sector[0] if sector else None)] = Stack(forces)
    game = TurnState(
        chance=Chance(seed),
        last_turn=last_turn,
        spice_deck=spice_deck(),
        treachery_deck=treachery_deck(),
        leaders={f: tuple(leaders(f)) for f in playing},
        leaders_tanks=dict.fromkeys(playing, ()),
    )
    return {
        "storm_sector": 18,
        "seats": seats,
        "factions": factions,
        "stacks": stacks,
        "rules": rules,
        "spice_bank": SPICE_BANK - sum(s.spice for s in factions.values()),
        "phase": Phase(order=(), started=True, complete=True),
        "game": game,
    }


def _starting_board(faction: Faction, rules: RuleSet) -> list[tuple[str, int]]:
    """The printed starting forces; the advanced Bene Gesserit place theirs (2.02.08)."""
    if faction is Faction.BENE_GESSERIT and rules.advanced:
        return []
    return starting_board(faction)


def _starting_holding(faction: Faction, rules: RuleSet) -> FactionState:
    on_board = sum(n for _, n in _starting_board(faction, rules))  # chosen ones wait in reserve
    special = starred_total(faction)
    return FactionState(
        spice=starting_spice(faction),
        reserves=forces_total(faction) - special - on_board,
        special_reserves=special,
    )


# -- the set-up phase ---------------------------------------------------------------


class SetUp:
    """The set-up phase with the set-up choices the later phases declare (``choices``,
    asked before the set-up's own: a traitor, then the prediction and the placings)."""

    def __init__(self, choices: Sequence[SetupChoice]) -> None:
        self.choices = tuple(choices)
        names = [c.name for c in self.choices]
        if len(set(names)) != len(names) or set(names) & set(OWN_CHOICES):
            raise ValueError(f"a set-up choice is declared twice among {names}")

    def begin(self, state: Position) -> list[Event]:
        """Shuffle the decks, deal the later phases' choices (four traitors each) and one
        treachery card each (Harkonnen two)."""
        game = state.whole
        events: list[Event] = []
        spice, chance = game.chance.shuffle(game.spice_deck)
        treachery, chance = chance.shuffle(game.treachery_deck)
        state.set_game(
            spice_deck=spice, treachery_deck=treachery, chance=chance, step=SetupStep.CHOICES
        )
        events += [DeckShuffled(d, len(c)) for d, c in (("spice", spice), ("treachery", treachery))]
        seats = _seat_order(state)
        dealt = [choice.deal(state, seats) for choice in self.choices]
        events += [e for d in dealt for e in d.shuffled]
        for faction in seats:
            events += _deal_cards(state, faction)
        events += [e for d in dealt for e in d.dealt]
        self._update_waiting(state)
        return events

    def outstanding(self, state: Position, faction: Faction) -> list[str]:
        """The set-up choices ``faction`` still owes: "traitor", "prediction", "placement",
        "advisor"."""
        owed = [c.name for c in self.choices if c.owes(state, faction)]
        game = state.whole
        if faction is Faction.BENE_GESSERIT and game.prediction is None:
            owed.append("prediction")
        if faction is Faction.FREMEN and not _fremen_placed(state):
            owed.append("placement")
        if (
            faction is Faction.BENE_GESSERIT
            and state.rules.advanced
            and not _placed(state, faction)
        ):
            owed.append("advisor")
        return owed

    def _update_waiting(self, state: Position) -> None:
        """Wait on each faction with a choice it can make now; set-up ends when none is owed."""
        owing = [f for f in _seat_order(state) if self.outstanding(state, f)]
        waiting = tuple(f for f in owing if self._open_now(state, f))
        state.set_game(waiting=waiting, step=SetupStep.CHOICES if owing else PhaseStep.DONE)

    def _open_now(self, state: Position, faction: Faction) -> bool:
        """The Bene Gesserit's advisor waits for the Fremen placement (2.02.08)."""
        owed = self.outstanding(state, faction)
        blocked = owed == ["advisor"] and Faction.FREMEN in state.factions
        return not (blocked and not _fremen_placed(state))

    def _require(self, state: Position, action: FactionAction, owed: str, rule: str) -> None:
        if not state.in_phase(GamePhase.SETUP) or state.whole.step != SetupStep.CHOICES:
            raise NotYourTurnError(f"the game's set-up is over: no {action.name} now", rule=rule)
        if owed not in self.outstanding(state, action.faction):
            raise NotYourTurnError(
                f"{action.faction.label} has no {owed} to choose at set-up", rule=rule
            )

    def handlers(self) -> Mapping[type[Action], Runs]:
        """Every set-up choice's actions, each checked that its faction owes that choice
        first and followed by the set-up's waits."""
        entries = [
            Entry(entry.kind, self._guarded(name, rule, entry))
            for name, rule, table in (
                *((c.name, c.rule, c.handlers) for c in self.choices),
                ("prediction", PREDICTION_RULE, handlers(on(Predict, predict))),
                ("placement", FREMEN_RULE, handlers(on(PlaceFremen, place_fremen))),
                ("advisor", BG_START_RULE, handlers(on(PlaceAdvisor, place_advisor))),
            )
            for entry in table.values()
        ]
        return handlers(*entries)

    def _guarded(
        self, owed: str, rule: str, entry: Runs
    ) -> Callable[[Position, Action], list[Event]]:
        """``entry``'s handler, once the set-up has checked that the faction owes ``owed``,
        followed by the set-up's waits (the handler's own signature kept for the eye)."""

        def run(state: Position, action: Action) -> list[Event]:
            if not isinstance(action, FactionAction):
                raise TypeError(f"{action.name} is not a faction's set-up choice")
            self._require(state, action, owed, rule)
            events = entry.run(state, action)
            self._update_waiting(state)
            return events

        if isinstance(entry, Entry):
            functools.update_wrapper(run, entry.handler)
        return run

    def candidates(self, state: Position, faction: Faction) -> list[FactionAction]:
        """Every set-up choice ``faction`` may make now."""
        owed = self.outstanding(state, faction) if state.whole.step == SetupStep.CHOICES else []
        out: list[FactionAction] = []
        for choice in self.choices:
            if choice.name in owed:
                out += choice.offered(state, faction)
        if "prediction" in owed:
            others = [f for f in state.factions if f is not faction]
            turns = range(1, state.whole.last_turn + 1)
            out += [Predict(faction, f.value, t) for f in others for t in turns]
        if "placement" in owed:
            out += [
                PlaceFremen(faction, a, b, FREMEN_START - a - b)
                for a in range(FREMEN_START + 1)
                for b in range(FREMEN_START + 1 - a)
            ]
        if "advisor" in owed:
            out += [PlaceAdvisor(faction, t.name, s) for t in state.board for _, s in t.pieces()]
        return out

    def default(
        self,
        state: Position,
        faction: Faction,
        legal: Sequence[FactionAction],
        is_legal: Callable[[Action], bool],
    ) -> FactionAction | None:
        """The later phases' choices' defaults (a traitor not of the faction's own), a
        prediction, the Fremen's usual split, the advisor to the Polar Sink: the first of
        these owed."""
        for choice in self.choices:
            if (picked := choice.default(legal, faction)) is not None:
                return picked
        return _prediction(state, legal) or _fremen(legal, faction) or _advisor(legal)


OWN_CHOICES = ("prediction", "placement", "advisor")
"""The set-up's own choices, the Bene Gesserit's and the Fremen's (after the later phases')."""


def _seat_order(state: Position) -> list[Faction]:
    return [f for f in state.seats if f is not None]


def _deal_cards(state: Position, faction: Faction) -> list[Event]:
    count = extras(faction)["starting_treachery_cards"]
    events: list[Event] = []
    for _ in range(count):
        card, shuffled = draw_treachery(state)
        events += shuffled
        if card is not None:
            state.update(faction, cards=(*state.factions[faction].cards, card))
    events.append(CardsDealt(faction, "treachery", count, CARDS_RULE))
    return events


def _fremen_placed(state: Position) -> bool:
    return _placed(state, Faction.FREMEN)


def _placed(state: Position, faction: Faction) -> bool:
    """Before their placement the Fremen (and advanced Bene Gesserit) have nothing on the board."""
    return any(f is faction for (f, _, _) in state.stacks)


def predict(state: Position, action: Predict) -> list[Event]:
    who = Faction.parse(action.who)
    if who is None or who not in state.factions or who is Faction.BENE_GESSERIT:
        raise IllegalActionError(
            f"the Bene Gesserit predict one other faction in the game, not {quote(action.who)}",
            rule=PREDICTION_RULE,
        )
    last = state.whole.last_turn
    if not 1 <= action.turn <= last:
        raise InvalidActionError(
            f"the predicted turn is 1 to {last}, not {quote(action.turn)}", rule=PREDICTION_RULE
        )
    state.set_game(prediction=(who, action.turn))
    return [PredictionMade(action.faction, PREDICTION_RULE)]


def place_fremen(state: Position, action: PlaceFremen) -> list[Event]:
    counts = (action.sietch_tabr, action.false_wall_south, action.false_wall_west)
    if min(counts) < 0 or sum(counts) != FREMEN_START:
        raise InvalidActionError(
            f"the Fremen place exactly {FREMEN_START} forces over {', '.join(FREMEN_PLACES)}, "
            f"not {quote(list(counts))}",
            rule=FREMEN_RULE,
        )
    events: list[Event] = []
    state.from_reserves(action.faction, Stack(FREMEN_START))
    for territory, forces in zip(FREMEN_PLACES, counts, strict=True):
        if forces:
            sector = standard_board()[territory].sectors[0]
            state.add(action.faction, territory, sector, Stack(forces))
            events.append(
                ForcesSetUp(action.faction, territory, sector, forces, FREMEN_RULE, "fighter")
            )
    return events


def place_advisor(state: Position, action: PlaceAdvisor) -> list[Event]:
    """One advisor anywhere, a fighter if alone there; after the Fremen place (2.02.08)."""
    if Faction.FREMEN in state.factions and not _fremen_placed(state):
        raise IllegalActionError(
            "the Bene Gesserit place their advisor after the Fremen place their forces",
            rule=BG_START_RULE,
        )
    where = state.territory(action.to, rule=BG_START_RULE)
    sector = action.sector
    if sector is None and len(where.sectors) == 1:
        sector = where.sectors[0]
    if (sector is None) != (not where.sectors) or (
        sector is not None and sector not in where.sectors
    ):
        raise InvalidActionError(
            f"{where.name} lies in sectors {', '.join(map(str, where.sectors)) or 'none'}, "
            f"not {quote(action.sector)}",
            rule=BG_START_RULE,
        )
    alone = not state.factions_present(where.name) - {action.faction}
    state.from_reserves(action.faction, Stack(1))
    state.add(action.faction, where.name, sector, Stack(1) if alone else Stack(advisors=1))
    token = "fighter" if alone else "advisor"
    return [ForcesSetUp(action.faction, where.name, sector, 1, BG_START_RULE, token)]


# -- the default on a deadline ----------------------------------------------------------


def _prediction(state: Position, legal: Sequence[FactionAction]) -> FactionAction | None:
    """The first other faction in seat order, on the last turn."""
    predictions = [a for a in legal if isinstance(a, Predict)]
    last = max((a.turn for a in predictions), default=0)
    for seat in state.seats:
        wanted = next((a for a in predictions if a.turn == last and a.who == str(seat)), None)
        if seat is not None and wanted is not None:
            return wanted
    return next(iter(predictions), None)


def _fremen(legal: Sequence[FactionAction], faction: Faction) -> FactionAction | None:
    wanted = PlaceFremen(faction, *FREMEN_SPLIT)
    return wanted if wanted in legal else first_of(legal, PlaceFremen)


def _advisor(legal: Sequence[FactionAction]) -> FactionAction | None:
    placed = [a for a in legal if isinstance(a, PlaceAdvisor)]
    return next((a for a in placed if a.to == POLAR_SINK), next(iter(placed), None))


def spec(choices: Sequence[SetupChoice] = ()) -> PhaseSpec:
    """The set-up phase, with the set-up choices the later phases declare (their specs'
    ``setup``): :data:`rules.phases.REGISTRY` makes it so."""
    phase = SetUp(choices)
    return PhaseSpec(
        phase=GamePhase.SETUP,
        rule=PHASE_RULE,
        steps=SetupStep,
        begin=phase.begin,
        handlers=phase.handlers(),
        offered=phase.candidates,
        default=phase.default,
    )
