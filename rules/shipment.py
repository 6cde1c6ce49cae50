"""Force shipment (1.06.02) and the faction shipments: Fremen send, Guild cross-ship
and shipment back to reserves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from rules import bene_gesserit, guild, turn_flow
from rules.actions import CrossShip, Send, Ship, ShipToReserves, action_to_dict
from rules.board import THE_GREAT_FLAT, Territory
from rules.errors import IllegalActionError, InvalidActionError
from rules.events import CrossShipped, Event, Sent, Shipped, ShippedToReserves, StormLosses
from rules.factions import Faction
from rules.model import Ability, Snapshot, Stack, Step
from rules.movement import destination_sector, select_group
from rules.position import Position
from rules.variants import GuildAllyPays

SHIP_RULE = "1.06.02"
ONE_SHIPMENT_RULE = "1.06.01"
COST_RULE = "1.06.02.01"
SECTOR_RULE = "1.06.02.03"
STORM_RULE = "1.06.02.04"
OCCUPANCY_RULE = "1.06.02.05"
ALLY_PAYS_RULE = "1.10.02.05"
KARAMA_RULE = "3.01.11"
KARAMA_SHIP_RULE = "3.01.11.03"
NATIVES_RULE = "2.04.03"
SEND_RULE = "2.04.05"
MIGRATION_RULE = "2.04.17"
CROSS_SHIP_RULE = "2.06.05.01"
OFF_PLANET_RULE = "2.06.05.02"
RETREAT_RULE = "2.06.07"
BG_FIGHTERS_RULE = "2.02.14"
SEND_RANGE = 2


@dataclass(frozen=True, slots=True)
class ShipDestination:
    """A territory a faction may ship (or send) to now, its legal sectors and the cost."""

    territory: str
    sectors: tuple[int | None, ...]
    cost: int
    affordable: bool


@dataclass(frozen=True, slots=True)
class Price:
    cost: int
    payee: Faction | None  # None: the Spice Bank
    uses: tuple[tuple[Faction, Ability], ...]


# -- shared checks -----------------------------------------------------------------


def require_shipment_step(state: Position, faction: Faction) -> None:
    turn = turn_flow.require_turn(state, faction)
    if turn.step is not Step.SHIP:
        raise IllegalActionError(
            f"{faction.label} has already shipped, passed its shipment or moved this turn; "
            "each faction makes one shipment, before it moves",
            rule=ONE_SHIPMENT_RULE,
        )


def counted(action: Ship | Send | CrossShip | ShipToReserves, *, rule: str) -> Stack:
    forces, special = action.forces, action.special
    if forces < 0 or special < 0 or forces + special <= 0:
        raise InvalidActionError(
            f"a shipment needs at least one force, not {forces} forces and {special} "
            f"{action.faction.starred}",
            rule=rule,
        )
    return Stack(forces, special)


def require_reserves(state: Position, faction: Faction, wanted: Stack, *, rule: str) -> None:
    own = state.factions[faction]
    if wanted.forces > own.reserves or wanted.special > own.special_reserves:
        raise IllegalActionError(
            f"{faction.label} has {own.reserves} forces and {own.special_reserves} "
            f"{faction.starred} in reserve, not {wanted.forces} and {wanted.special}",
            rule=rule,
        )


def check_landing(
    state: Position,
    faction: Faction,
    name: str,
    sector: int | None,
    *,
    rule: str,
    storm_allowed: bool = False,
) -> tuple[Territory, int | None]:
    """Where a shipment lands: a real sector, out of storm, within the occupancy limit."""
    territory = state.territory(name, rule=rule)
    sector = destination_sector(territory, sector, rule=SECTOR_RULE)
    if state.in_storm(sector) and not storm_allowed:
        raise IllegalActionError(
            f"cannot ship into {territory.name} sector {sector}: the storm is there",
            rule=STORM_RULE,
        )
    if state.is_full_for(territory, faction):
        others = sorted(f.label for f in state.fighter_factions_in(territory.name) - {faction})
        raise IllegalActionError(
            f"cannot ship into {territory.name}: it already holds forces of "
            f"{' and '.join(others)} (occupancy limit)",
            rule=OCCUPANCY_RULE,
        )
    if (
        faction is Faction.BENE_GESSERIT
        and state.rules.advanced
        and state.forces_in(faction, territory.name).advisors
    ):
        raise IllegalActionError(
            f"Bene Gesserit fighters may not be shipped to {territory.name}, where they have "
            "advisors",
            rule=BG_FIGHTERS_RULE,
        )
    return territory, sector


def base_cost(territory: Territory, count: int) -> int:
    """1 spice per force into a stronghold, 2 elsewhere (1.06.02.01)."""
    return count * (1 if territory.is_stronghold else 2)


def price(
    state: Position, faction: Faction, territory: Territory, count: int, *, karama: bool
) -> Price:
    """The cost of a shipment from reserves or a cross-ship, who is paid, which ✷ it uses."""
    disabled = _disabled(state, faction)
    uses: list[tuple[Faction, Ability]] = []
    half = karama
    guild = Faction.SPACING_GUILD
    if not karama and faction is guild and Ability.HALF_PRICE not in disabled:
        half = True
        uses.append((faction, Ability.HALF_PRICE))
    elif (
        not karama
        and state.ally_of(faction) is guild
        and state.in_game(guild)
        and Ability.ALLY_HALF_PRICE not in disabled
    ):
        half = True
        uses.append((faction, Ability.ALLY_HALF_PRICE))
    cost = base_cost(territory, count)
    cost = math.ceil(cost / 2) if half else cost
    payee = _payee(state, faction, karama=karama, disabled=disabled)
    if payee is guild:
        uses.append((guild, Ability.GUILD_PAYMENT))
    return Price(cost, payee, tuple(uses))


def _payee(
    state: Position, faction: Faction, *, karama: bool, disabled: frozenset[Ability]
) -> Faction | None:
    guild = Faction.SPACING_GUILD
    if karama or faction is guild or not state.in_game(guild):
        return None
    if Ability.GUILD_PAYMENT in disabled:
        return None
    if state.ally_of(faction) is guild and state.rules.guild_ally_pays is GuildAllyPays.BANK:
        return None
    return guild


def _disabled(state: Position, faction: Faction) -> frozenset[Ability]:
    turn = state.phase.turn
    return turn.disabled if turn and turn.faction == faction else frozenset()


def collect(
    state: Position, faction: Faction, cost: int, payee: Faction | None, ally_pays: int
) -> tuple[Faction | None, int]:
    """Check and take the payment; return the paying ally and its share."""
    ally = state.ally_of(faction)
    if ally_pays < 0:
        raise InvalidActionError(f"ally_pays cannot be {ally_pays}", rule=ALLY_PAYS_RULE)
    if ally_pays and (ally is None or not state.in_game(ally)):
        raise IllegalActionError(
            f"{faction.label} has no ally to pay {ally_pays} spice of the shipment",
            rule=ALLY_PAYS_RULE,
        )
    if ally_pays > cost:
        raise IllegalActionError(
            f"the ally cannot pay {ally_pays} spice of a shipment costing {cost}",
            rule=ALLY_PAYS_RULE,
        )
    if ally is not None and ally_pays > state.factions[ally].spice:
        raise IllegalActionError(
            f"{ally.label} does not have {ally_pays} spice to pay for the shipment",
            rule=ALLY_PAYS_RULE,
        )
    own_share = cost - ally_pays
    if own_share > state.factions[faction].spice:
        raise IllegalActionError(
            f"{faction.label} has {state.factions[faction].spice} spice; its share of the "
            f"shipment is {own_share}",
            rule=COST_RULE,
        )
    if ally is not None and ally_pays:
        state.pay(ally, ally_pays, payee)
    state.pay(faction, own_share, payee)
    return (ally if ally_pays else None), ally_pays


Landed = tuple[Faction, str, int | None, int, int, int, str, Faction | None, int]


def _landed(
    faction: Faction,
    territory: Territory,
    sector: int | None,
    stack: Stack,
    cost: int,
    payee: Faction | None,
    ally: Faction | None = None,
    ally_paid: int = 0,
) -> Landed:
    """The fields every shipment event shares (:class:`rules.events.Landing`)."""
    paid_to = payee.value if payee else "spice_bank"
    return (
        faction,
        territory.name,
        sector,
        stack.forces,
        stack.special,
        cost,
        paid_to,
        ally,
        ally_paid,
    )


# -- ship from reserves ---------------------------------------------------------------


def ship(state: Position, action: Ship) -> list[Event]:
    faction = action.faction
    require_shipment_step(state, faction)
    if faction is Faction.FREMEN:
        raise IllegalActionError(
            "the Fremen have no off-planet reserves and cannot ship normally; use send",
            rule=NATIVES_RULE,
        )
    wanted = counted(action, rule=SHIP_RULE)
    territory, sector = check_landing(state, faction, action.to, action.sector, rule=SHIP_RULE)
    require_reserves(state, faction, wanted, rule=SHIP_RULE)
    card = _karama_for_shipment(state, faction) if action.karama else None
    quote = price(state, faction, territory, wanted.total, karama=action.karama)
    before = state.snapshot()
    ally, ally_paid = collect(state, faction, quote.cost, quote.payee, action.ally_pays)
    if card is not None:
        state.discard(faction, card)
    state.from_reserves(faction, wanted)
    state.add(faction, territory.name, sector, wanted)
    turn_flow.end_step(state)
    if card is not None and (use := bene_gesserit.bg_karama_use(faction, card)):
        quote = replace(quote, uses=(*quote.uses, use))
    landed = _landed(faction, territory, sector, wanted, quote.cost, quote.payee, ally, ally_paid)
    event = Shipped(*landed, karama=card)
    _open_shipment_prompts(state, action, territory, sector, quote, before)
    return [event]


def _karama_for_shipment(state: Position, faction: Faction) -> str:
    card = state.karama_card(faction)
    if card is None:
        raise IllegalActionError(
            f"{faction.label} holds no Karama card to buy a half-price shipment",
            rule=KARAMA_SHIP_RULE,
        )
    return card


def _open_shipment_prompts(
    state: Position,
    action: Ship,
    territory: Territory,
    sector: int | None,
    quote: Price,
    before: Snapshot,
) -> None:
    faction = action.faction
    first = state.karama_stage(quote.uses, before, action_to_dict(action))
    stop = guild.stop_prompt(state, faction, territory.name, sector, action_to_dict(action))
    then = bene_gesserit.advise_stage(state, faction, territory.name, sector)
    then += bene_gesserit.intrusion_stage(state, faction, territory.name)
    state.push_stages(first + stop, then)


# -- Fremen send ------------------------------------------------------------------------


def send(state: Position, action: Send) -> list[Event]:
    faction = action.faction
    if faction is not Faction.FREMEN:
        raise IllegalActionError("only the Fremen send forces from Dune", rule=SEND_RULE)
    require_shipment_step(state, faction)
    wanted = counted(action, rule=SEND_RULE)
    migration = state.rules.advanced and Ability.STORM_MIGRATION not in _disabled(state, faction)
    territory, sector = check_landing(
        state, faction, action.to, action.sector, rule=SEND_RULE, storm_allowed=migration
    )
    require_reserves(state, faction, wanted, rule=SEND_RULE)
    if state.board.territory_distance(THE_GREAT_FLAT, territory.name) > SEND_RANGE:
        raise IllegalActionError(
            f"{territory.name} is more than two territories from The Great Flat",
            rule=SEND_RULE,
        )
    before = state.snapshot()
    state.from_reserves(faction, wanted)
    events: list[Event] = [Sent(*_landed(faction, territory, sector, wanted, 0, None))]
    uses: tuple[tuple[Faction, Ability], ...] = ()
    placed = wanted
    if state.in_storm(sector):
        placed, lost = _migration_losses(state, faction, wanted)
        events.append(
            StormLosses(
                faction=faction,
                territory=territory.name,
                sector=sector,
                forces=lost.forces,
                special=lost.special,
                rule=MIGRATION_RULE,
            )
        )
        uses = ((faction, Ability.STORM_MIGRATION),)
    state.add(faction, territory.name, sector, placed)
    turn_flow.end_step(state)
    state.push_stages(
        state.karama_stage(uses, before, action_to_dict(action)),
        bene_gesserit.intrusion_stage(state, faction, territory.name),
    )
    return events


def _migration_losses(state: Position, faction: Faction, sent: Stack) -> tuple[Stack, Stack]:
    """STORM MIGRATION: half the forces sent, rounded up, go to the tanks (2.04.17)."""
    lost_total = math.ceil(sent.total / 2)
    lost = Stack(min(sent.forces, lost_total), lost_total - min(sent.forces, lost_total))
    own = state.factions[faction]
    state.update(
        faction, tanks=own.tanks + lost.forces, special_tanks=own.special_tanks + lost.special
    )
    return sent - lost, lost


# -- Guild cross-ship and shipment back to reserves --------------------------------------


def cross_ship(state: Position, action: CrossShip) -> list[Event]:
    faction = action.faction
    ability = _cross_ship_ability(state, faction)
    require_shipment_step(state, faction)
    wanted = counted(action, rule=CROSS_SHIP_RULE)
    source = state.territory(action.from_, rule=CROSS_SHIP_RULE)
    group = select_group(
        state,
        faction,
        source,
        action.from_sector,
        wanted,
        rule=CROSS_SHIP_RULE,
        storm_rule=STORM_RULE,
    )
    territory, sector = check_landing(
        state, faction, action.to, action.sector, rule=CROSS_SHIP_RULE
    )
    if territory.name == source.name:
        raise IllegalActionError(
            f"a cross-ship goes to another territory than {source.name}; to change sector, move",
            rule=CROSS_SHIP_RULE,
        )
    quote = price(state, faction, territory, wanted.total, karama=False)
    before = state.snapshot()
    collect(state, faction, quote.cost, quote.payee, 0)
    for from_sector, stack in group:
        state.remove(faction, source.name, from_sector, stack)
    state.add(faction, territory.name, sector, wanted)
    turn_flow.end_step(state)
    landed = _landed(faction, territory, sector, wanted, quote.cost, quote.payee)
    event = CrossShipped(*landed, from_territory=source.name)
    uses = ((faction, ability), *quote.uses)
    state.push_stages(
        state.karama_stage(uses, before, action_to_dict(action)),
        bene_gesserit.intrusion_stage(state, faction, territory.name),
    )
    return [event]


def _cross_ship_ability(state: Position, faction: Faction) -> Ability:
    disabled = _disabled(state, faction)
    guild = Faction.SPACING_GUILD
    if faction is guild:
        ability = Ability.CROSS_SHIP
    elif state.ally_of(faction) is guild and state.in_game(guild):
        ability = Ability.ALLY_CROSS_SHIP
    else:
        raise IllegalActionError(
            f"only the Spacing Guild and its ally may cross-ship, not {faction.label}",
            rule=CROSS_SHIP_RULE,
        )
    if ability in disabled:
        raise IllegalActionError(
            "a Karama cancelled this cross-ship: retake the shipment without it",
            rule=KARAMA_RULE,
        )
    return ability


def ship_to_reserves(state: Position, action: ShipToReserves) -> list[Event]:
    faction = action.faction
    _check_off_planet(state, faction)
    require_shipment_step(state, faction)
    wanted = counted(action, rule=OFF_PLANET_RULE)
    source = state.territory(action.from_, rule=OFF_PLANET_RULE)
    group = select_group(
        state,
        faction,
        source,
        action.from_sector,
        wanted,
        rule=OFF_PLANET_RULE,
        storm_rule=STORM_RULE,
    )
    cost = math.ceil(wanted.total / 2)
    before = state.snapshot()
    collect(state, faction, cost, None, 0)
    for from_sector, stack in group:
        state.remove(faction, source.name, from_sector, stack)
    state.to_reserves(faction, wanted)
    turn_flow.end_step(state)
    event = ShippedToReserves(
        faction=faction,
        from_territory=source.name,
        forces=wanted.forces,
        special=wanted.special,
        cost=cost,
        paid_to="spice_bank",
        rule=RETREAT_RULE,
    )
    uses = ((faction, Ability.OFF_PLANET),)
    state.push_stages(state.karama_stage(uses, before, action_to_dict(action)))
    return [event]


def _check_off_planet(state: Position, faction: Faction) -> None:
    guild = Faction.SPACING_GUILD
    allowed = faction is guild or (
        state.rules.guild_ally_ship_to_reserves
        and state.ally_of(faction) is guild
        and state.in_game(guild)
    )
    if not allowed:
        raise IllegalActionError(
            f"{faction.label} may not ship forces from the board back to reserves",
            rule="1.06.02.06",
        )
    if Ability.OFF_PLANET in _disabled(state, faction):
        raise IllegalActionError(
            "a Karama cancelled this shipment to reserves: retake the shipment without it",
            rule=KARAMA_RULE,
        )


# -- queries ----------------------------------------------------------------------------


def shipment_kinds(state: Position, faction: Faction) -> list[str]:
    """The shipment actions ``faction`` may use in its shipment step."""
    guild = Faction.SPACING_GUILD
    if faction is Faction.FREMEN:
        return ["send"]
    kinds = ["ship"]
    if faction is guild or (state.ally_of(faction) is guild and state.in_game(guild)):
        kinds.append("cross_ship")
    try:
        _check_off_planet(state, faction)
        kinds.append("ship_to_reserves")
    except IllegalActionError:
        pass
    return kinds


def legal_destinations(
    state: Position, faction: Faction, forces: int = 1, special: int = 0, *, karama: bool = False
) -> list[ShipDestination]:
    """Territories ``faction`` may ship ``forces`` (+ ``special``) into now, with the cost."""
    if faction is Faction.FREMEN:
        return []
    out = []
    spice = state.factions[faction].spice
    for territory in state.board:
        sectors = _landing_sectors(state, faction, territory, storm_allowed=False)
        if sectors:
            cost = price(state, faction, territory, forces + special, karama=karama).cost
            out.append(ShipDestination(territory.name, sectors, cost, cost <= spice))
    return out


def legal_send_destinations(state: Position, faction: Faction) -> list[ShipDestination]:
    """Where the Fremen may send now (storm sectors only with Storm Migration)."""
    if faction is not Faction.FREMEN:
        return []
    migration = state.rules.advanced
    out = []
    for name in state.board.within(THE_GREAT_FLAT, SEND_RANGE):
        territory = state.board[name]
        sectors = _landing_sectors(state, faction, territory, storm_allowed=migration)
        if sectors:
            out.append(ShipDestination(name, sectors, 0, True))
    return out


def _landing_sectors(
    state: Position, faction: Faction, territory: Territory, *, storm_allowed: bool
) -> tuple[int | None, ...]:
    sectors = []
    for _, sector in territory.pieces():
        try:
            check_landing(
                state, faction, territory.name, sector, rule=SHIP_RULE, storm_allowed=storm_allowed
            )
        except (IllegalActionError, InvalidActionError):
            continue
        sectors.append(sector)
    return tuple(sectors)
