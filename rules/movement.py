"""Force movement (1.06.03): groups, range, storm and occupancy, the path search.

Movement is searched on the board's territory-sector pieces: crossing into
another territory costs 1, walking along the sectors of one territory costs
0, and pieces in storm (never the Polar Sink) cannot be entered, left or
crossed. So a territory partly in storm can be crossed by its clear sectors.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from rules import bene_gesserit, turn_flow
from rules.actions import Move, action_to_dict
from rules.board import Piece, Territory
from rules.errors import AmbiguousActionError, IllegalActionError, InvalidActionError
from rules.events import Event, Moved, StormLosses
from rules.factions import Faction
from rules.model import Ability, Snapshot, Stack
from rules.position import Position
from rules.variants import FremenStormMovement

MOVE_RULE = "1.06.03"
ONE_MOVE_RULE = "1.06.03.01"
RANGE_RULE = "1.06.03.02"
ORNITHOPTER_RULE = "1.06.03.03"
STORM_RULE = "1.06.03.05"
OCCUPANCY_RULE = "1.06.03.06"
REPOSITION_RULE = "1.06.03.09"
FREMEN_RULE = "2.04.06"


@dataclass(frozen=True, slots=True)
class MoveDestination:
    """A territory a group can reach, its reachable sectors and one shortest path."""

    territory: str
    sectors: tuple[int | None, ...]
    distance: int
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reach:
    """Result of a path search: distance and predecessor of every reached piece."""

    distance: dict[Piece, int]
    previous: dict[Piece, Piece | None]

    def path_to(self, piece: Piece) -> tuple[str, ...]:
        pieces: list[Piece] = []
        here: Piece | None = piece
        while here is not None:
            pieces.append(here)
            here = self.previous[here]
        names: list[str] = []
        for territory, _ in reversed(pieces):
            if not names or names[-1] != territory:
                names.append(territory)
        return tuple(names)

    def touches(self, piece: Piece, storm: int) -> bool:
        here: Piece | None = piece
        while here is not None:
            if here[1] == storm:
                return True
            here = self.previous[here]
        return False


# -- the group ------------------------------------------------------------------


def select_group(
    state: Position,
    faction: Faction,
    territory: Territory,
    from_sector: int | None,
    wanted: Stack,
    *,
    rule: str,
    storm_rule: str,
    ignore_storm: bool = False,
) -> list[tuple[int | None, Stack]]:
    """Which tokens of ``faction`` in ``territory`` form the group, sector by sector.

    Without ``from_sector`` the group may come from every sector, unless the
    storm separates them (then the caller must name one side). With it, the
    group comes from that sector first, then from the sectors on its side.
    """
    storm = -1 if ignore_storm else state.storm_sector
    parts = state.board.storm_free_parts(territory.name, storm)
    held = {s for (f, t, s), st in state.stacks.items() if f == faction and t == territory.name}
    sectors = _group_sectors(territory, from_sector, parts, held, rule=rule, storm_rule=storm_rule)
    sectors = [s for s in sectors if s in held]
    taken = _take(state, faction, territory.name, sectors, wanted)
    if taken is None:
        have = _sum(state.stack(faction, territory.name, s) for s in sectors)
        raise IllegalActionError(
            f"{faction.label} has {_describe(have, faction)} in {territory.name}"
            f"{_where(from_sector, sectors, territory)} that can leave, not "
            f"{_describe(wanted, faction)}",
            rule=rule,
        )
    return taken


def _group_sectors(
    territory: Territory,
    from_sector: int | None,
    parts: list[tuple[int | None, ...]],
    held: set[int | None],
    *,
    rule: str,
    storm_rule: str,
) -> list[int | None]:
    if from_sector is not None:
        if from_sector not in territory.sectors:
            raise InvalidActionError(
                f"{territory.name} has no sector {from_sector}; it lies in "
                f"{_sector_list(territory)} ({_choices('from_sector', territory)})",
                rule=rule,
            )
        side = next((p for p in parts if from_sector in p), None)
        if side is None:
            raise IllegalActionError(
                f"the forces in {territory.name} sector {from_sector} are in the storm "
                "and cannot leave it",
                rule=storm_rule,
            )
        return [from_sector, *(s for s in side if s != from_sector)]
    sides = [p for p in parts if held.intersection(p)]
    if len(sides) > 1:
        listed = " | ".join(", ".join(str(s) for s in p if s in held) for p in sides)
        raise AmbiguousActionError(
            f"the storm separates your forces in {territory.name} (sectors {listed}); "
            "name the sector they move from with the from_sector: option",
            rule=MOVE_RULE,
        )
    if not sides:
        if held:
            raise IllegalActionError(
                f"your forces in {territory.name} are in the storm and cannot leave it",
                rule=storm_rule,
            )
        return []
    return list(sides[0])


def _take(
    state: Position, faction: Faction, territory: str, sectors: list[int | None], wanted: Stack
) -> list[tuple[int | None, Stack]] | None:
    left = [wanted.forces, wanted.special, wanted.advisors]
    taken = []
    for sector in sectors:
        have = state.stack(faction, territory, sector)
        counts = [have.forces, have.special, have.advisors]
        part = [min(left[i], counts[i]) for i in range(3)]
        left = [left[i] - part[i] for i in range(3)]
        if any(part):
            taken.append((sector, Stack(*part)))
    return None if any(left) else taken


def _sum(stacks: Iterable[Stack]) -> Stack:
    total = Stack()
    for s in stacks:
        total = total + s
    return total


def _describe(stack: Stack, faction: Faction) -> str:
    parts = []
    if stack.forces or not stack.total:
        parts.append(f"{stack.forces} force{'s' * (stack.forces != 1)}")
    if stack.special:
        parts.append(f"{stack.special} {faction.starred}")
    if stack.advisors:
        parts.append(f"{stack.advisors} advisor{'s' * (stack.advisors != 1)}")
    return " and ".join(parts)


def _where(from_sector: int | None, sectors: list[int | None], territory: Territory) -> str:
    if len(territory.sectors) <= 1:
        return ""
    if from_sector is not None:
        return f" (sector {from_sector} and its side of the storm)"
    return ""


def _choices(option: str, territory: Territory) -> str:
    """``sector: 11 or sector: 12``: how to name each sector of ``territory``."""
    named = [f"{option}: {s}" for s in territory.sectors]
    return ", ".join(named[:-1]) + f" or {named[-1]}" if len(named) > 1 else "".join(named)


def _sector_list(territory: Territory) -> str:
    if not territory.sectors:
        return "no sector"
    return (
        "sector"
        + "s" * (len(territory.sectors) > 1)
        + " "
        + ", ".join(str(s) for s in territory.sectors)
    )


# -- range and search ------------------------------------------------------------


def movement_range(state: Position, faction: Faction, *, advisors: bool) -> tuple[int, str]:
    """How many territories this move may cross, and why (rule number)."""
    turn = state.phase.turn
    if advisors:
        return 1, "2.02.12"
    ornithopters = state.has_ornithopters(faction)
    if not state.rules.ornithopters_from_shipment:
        ornithopters = ornithopters and bool(turn and turn.ornithopters_at_start)
    if ornithopters:
        return 3, ORNITHOPTER_RULE
    disabled = turn.disabled if turn and turn.faction == faction else frozenset()
    if faction is Faction.FREMEN and Ability.FREMEN_MOVEMENT not in disabled:
        return 2, FREMEN_RULE
    return 1, RANGE_RULE


def search(
    state: Position,
    faction: Faction,
    start: Iterable[Piece],
    limit: int,
    *,
    ignore_storm: bool = False,
    ignore_occupancy: bool = False,
    goal: Piece | None = None,
) -> Reach:
    """0-1 breadth-first search over pieces: 1 per territory border, 0 inside one.

    With a ``goal``, the search ends as the goal leaves the queue the first time: its
    distance and path are final then (nothing found later is nearer); the other pieces'
    may not be."""
    storm = -1 if ignore_storm else state.storm_sector
    start = list(start)
    home = {t for t, _ in start}
    blocked = set() if ignore_occupancy else _full_strongholds(state, faction) - home
    distance: dict[Piece, int] = {}
    previous: dict[Piece, Piece | None] = {}
    queue: deque[Piece] = deque()
    for piece in start:
        distance[piece] = 0
        previous[piece] = None
        queue.append(piece)
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        d = distance[here]
        for nxt, inside in state.board.piece_links(here):
            cost = d + (0 if inside else 1)
            if cost > limit or nxt[1] == storm or nxt[0] in blocked:
                continue
            if cost < distance.get(nxt, limit + 1):
                distance[nxt] = cost
                previous[nxt] = here
                if inside:
                    queue.appendleft(nxt)
                else:
                    queue.append(nxt)
    return Reach(distance, previous)


def _full_strongholds(state: Position, faction: Faction) -> set[str]:
    counts: dict[str, set[Faction]] = {}
    for (f, t, _), s in state.stacks.items():
        if f != faction and s.fighters:
            counts.setdefault(t, set()).add(f)
    return {t for t, fs in counts.items() if len(fs) >= 2 and state.board[t].is_stronghold}


def legal_destinations(
    state: Position,
    faction: Faction,
    from_territory: str,
    from_sector: int | None = None,
    *,
    advisors: bool = False,
) -> list[MoveDestination]:
    """Where a group of ``faction`` in ``from_territory`` may move now, with a path.

    Raises InvalidActionError for an unknown territory and AmbiguousActionError
    when the storm splits the faction's forces there and no sector is given.
    """
    source = state.territory(from_territory, rule=MOVE_RULE)
    kind = Stack(advisors=1) if advisors else Stack()
    group = select_group(
        state, faction, source, from_sector, kind, rule=MOVE_RULE, storm_rule=STORM_RULE
    )
    start = _start_pieces(state, faction, source, from_sector, advisors)
    if not start and not group:
        return []
    limit, _ = movement_range(state, faction, advisors=advisors)
    reach = search(state, faction, start, limit, ignore_occupancy=advisors)
    return _destinations(state, faction, reach, source, start, advisors)


def _start_pieces(
    state: Position,
    faction: Faction,
    source: Territory,
    from_sector: int | None,
    advisors: bool,
) -> list[Piece]:
    def holds(sector: int | None) -> bool:
        stack = state.stack(faction, source.name, sector)
        return bool(stack.advisors if advisors else stack.fighters)

    parts = state.board.storm_free_parts(source.name, state.storm_sector)
    for part in parts:
        if (from_sector in part) if from_sector is not None else any(holds(s) for s in part):
            return [(source.name, s) for s in part if holds(s)]
    return []


def _destinations(
    state: Position,
    faction: Faction,
    reach: Reach,
    source: Territory,
    start: list[Piece],
    advisors: bool,
) -> list[MoveDestination]:
    by_territory: dict[str, list[Piece]] = {}
    for piece in reach.distance:
        if piece in start:
            continue
        by_territory.setdefault(piece[0], []).append(piece)
    out = []
    for name in sorted(by_territory):
        pieces = sorted(by_territory[name], key=lambda p: reach.distance[p])
        if not advisors and state.is_full_for(state.board[name], faction) and name != source.name:
            continue
        out.append(
            MoveDestination(
                territory=name,
                sectors=tuple(sorted((p[1] for p in pieces), key=lambda s: s or 0)),
                distance=reach.distance[pieces[0]],
                path=reach.path_to(pieces[0]),
            )
        )
    return out


# -- the move action -------------------------------------------------------------


def move(state: Position, action: Move) -> list[Event]:
    faction = action.faction
    turn = turn_flow.require_turn(state, faction)
    if turn.moves_made >= turn.moves_allowed:
        raise IllegalActionError(f"{faction.label} has no move left this turn", rule=ONE_MOVE_RULE)
    wanted = _wanted(state, action)
    source = state.territory(action.from_, rule=MOVE_RULE)
    dest = state.territory(action.to, rule=MOVE_RULE)
    sector = destination_sector(dest, action.sector, rule=STORM_RULE)
    storm_mode = _fremen_storm_mode(state, faction, action.advisors)
    group = select_group(
        state,
        faction,
        source,
        action.from_sector,
        wanted,
        rule=MOVE_RULE,
        storm_rule=STORM_RULE,
        ignore_storm=storm_mode is not FremenStormMovement.BLOCKED,
    )
    if dest.name == source.name and all(s == sector for s, _ in group):
        raise IllegalActionError(
            f"the forces are already in {dest.name}{sector_text(sector)}", rule=REPOSITION_RULE
        )
    path, lost_to_storm = _check_route(state, action, group, source, dest, sector, storm_mode)
    before = state.snapshot()
    return _carry_out(state, action, group, dest, sector, path, lost_to_storm, before)


def _wanted(state: Position, action: Move) -> Stack:
    if action.forces < 0 or action.special < 0 or action.forces + action.special <= 0:
        raise InvalidActionError(
            f"a move needs at least one force, not {action.forces} forces and "
            f"{action.special} {action.faction.starred}",
            rule=MOVE_RULE,
        )
    if action.advisors:
        if action.faction is not Faction.BENE_GESSERIT:
            raise InvalidActionError("only the Bene Gesserit have advisors", rule="2.02.11")
        if action.special:
            raise InvalidActionError("advisors have no starred side", rule="2.02.11")
        return Stack(advisors=action.forces)
    if action.take_up_arms:
        raise InvalidActionError(
            "TAKE UP ARMS flips advisors: add advisors: true to the move", rule="2.02.17"
        )
    return Stack(action.forces, action.special)


def destination_sector(territory: Territory, sector: int | None, *, rule: str) -> int | None:
    """The sector a group ends in; it must be named in a territory of several sectors."""
    if not territory.sectors:
        if sector is not None:
            raise InvalidActionError(f"{territory.name} has no sectors", rule=rule)
        return None
    if sector is None:
        if len(territory.sectors) == 1:
            return territory.sectors[0]
        raise InvalidActionError(
            f"{territory.name} lies in {_sector_list(territory)}: name the sector the "
            f"forces end in with the sector: option ({_choices('sector', territory)})",
            rule=rule,
        )
    if sector not in territory.sectors:
        raise InvalidActionError(
            f"{territory.name} has no sector {sector}; it lies in {_sector_list(territory)} "
            f"({_choices('sector', territory)})",
            rule=rule,
        )
    return sector


def sector_text(sector: int | None) -> str:
    return "" if sector is None else f" sector {sector}"


def _fremen_storm_mode(state: Position, faction: Faction, advisors: bool) -> FremenStormMovement:
    if faction is Faction.FREMEN and not advisors:
        return state.rules.fremen_storm_movement
    return FremenStormMovement.BLOCKED


def _check_route(
    state: Position,
    action: Move,
    group: list[tuple[int | None, Stack]],
    source: Territory,
    dest: Territory,
    sector: int | None,
    storm_mode: FremenStormMovement,
) -> tuple[tuple[str, ...], bool]:
    faction = action.faction
    target = (dest.name, sector)
    if state.in_storm(sector) and storm_mode is FremenStormMovement.BLOCKED:
        raise IllegalActionError(
            f"cannot move into {dest.name} sector {sector}: the storm is there", rule=STORM_RULE
        )
    if not action.advisors and dest.name != source.name and state.is_full_for(dest, faction):
        raise IllegalActionError(
            f"cannot move into {dest.name}: it already holds forces of "
            f"{_others(state, dest, faction)} (occupancy limit)",
            rule=OCCUPANCY_RULE,
        )
    limit, why = movement_range(state, faction, advisors=action.advisors)
    start = [(source.name, s) for s, _ in group]
    reach = search(state, faction, start, limit, ignore_occupancy=action.advisors, goal=target)
    if target in reach.distance:
        return reach.path_to(target), False
    if storm_mode is not FremenStormMovement.BLOCKED:
        wide = search(state, faction, start, limit, ignore_storm=True, goal=target)
        if target in wide.distance:
            return wide.path_to(target), storm_mode is FremenStormMovement.HALF_LOSS
    raise _unreachable(state, action, start, limit, why, dest, sector)


def _unreachable(
    state: Position,
    action: Move,
    start: list[Piece],
    limit: int,
    why: str,
    dest: Territory,
    sector: int | None,
) -> IllegalActionError:
    faction = action.faction
    target = (dest.name, sector)
    place = f"{dest.name}{sector_text(sector)}"
    if target in search(state, faction, start, limit, ignore_storm=True).distance:
        return IllegalActionError(
            f"the storm in sector {state.storm_sector} blocks every path to {place} "
            f"within {limit} territor{'y' if limit == 1 else 'ies'}",
            rule=STORM_RULE,
        )
    if target in search(state, faction, start, limit, ignore_occupancy=True).distance:
        return IllegalActionError(
            f"every path to {place} within range passes through a stronghold that already "
            "holds forces of two other factions",
            rule=OCCUPANCY_RULE,
        )
    distance = state.board.territory_distance(start[0][0], dest.name)
    reason = {
        "1.06.03.02": "no ornithopters (no fighters in Arrakeen or Carthag)",
        "1.06.03.03": "ornithopters",
        "2.04.06": "the Fremen move of two",
        "2.02.12": "advisors never use ornithopters",
    }[why]
    return IllegalActionError(
        f"{place} is {distance} territor{'y' if distance == 1 else 'ies'} away; "
        f"{faction.label} may move {limit} ({reason})",
        rule=why,
    )


def _others(state: Position, dest: Territory, faction: Faction) -> str:
    others = sorted(f.label for f in state.fighter_factions_in(dest.name) - {faction})
    return " and ".join(others)


def _carry_out(
    state: Position,
    action: Move,
    group: list[tuple[int | None, Stack]],
    dest: Territory,
    sector: int | None,
    path: tuple[str, ...],
    lost_to_storm: bool,
    before: object,
) -> list[Event]:
    faction = action.faction
    moved = _sum(s for _, s in group)
    for from_sector, stack in group:
        state.remove(faction, group_territory(action, state), from_sector, stack)
    uses: list[tuple[Faction, Ability]] = []
    if _used_fremen_movement(state, faction, action, path):
        uses.append((faction, Ability.FREMEN_MOVEMENT))
    events: list[Event] = [
        Moved(
            faction=faction,
            from_territory=group_territory(action, state),
            to=dest.name,
            sector=sector,
            forces=moved.forces + moved.advisors,
            special=moved.special,
            advisors=bool(moved.advisors),
            path=path,
        )
    ]
    if lost_to_storm:
        moved, lost_events = _storm_loss(state, faction, dest, sector, moved)
        events += lost_events
    arrived, flip_events, flip_uses = bene_gesserit.arrive(state, action, dest, sector, moved)
    state.add(faction, dest.name, sector, arrived)
    events += flip_events
    uses += flip_uses
    return events + _after_move(state, action, dest, uses, before)


def group_territory(action: Move, state: Position) -> str:
    return state.territory(action.from_, rule=MOVE_RULE).name


def _used_fremen_movement(
    state: Position, faction: Faction, action: Move, path: tuple[str, ...]
) -> bool:
    _, why = movement_range(state, faction, advisors=action.advisors)
    return why == FREMEN_RULE and len(path) - 1 > 1


def _storm_loss(
    state: Position, faction: Faction, dest: Territory, sector: int | None, moved: Stack
) -> tuple[Stack, list[Event]]:
    lost_total = math.ceil(moved.fighters / 2)
    lost_regular = min(moved.forces, lost_total)
    lost = Stack(lost_regular, lost_total - lost_regular)
    own = state.factions[faction]
    state.update(
        faction,
        tanks=own.tanks + lost.forces,
        special_tanks=own.special_tanks + lost.special,
    )
    event = StormLosses(
        faction=faction,
        territory=dest.name,
        sector=sector,
        forces=lost.forces,
        special=lost.special,
        rule="2.04.17",
    )
    return moved - lost, [event]


def _after_move(
    state: Position,
    action: Move,
    dest: Territory,
    uses: list[tuple[Faction, Ability]],
    before: object,
) -> list[Event]:
    assert isinstance(before, Snapshot)
    faction = action.faction
    entered = dest.name != group_territory(action, state)
    intrusion = bene_gesserit.intrusion_stage(state, faction, dest.name) if entered else ()
    events = turn_flow.count_move(state)
    redo = action_to_dict(action) if uses else None  # a Karama window's, if one opens
    state.push_stages(state.karama_stage(uses, before, redo), intrusion)
    return events
