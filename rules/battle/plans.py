"""The battle plan (1.07.04): what a side may put in it, its check, and the dial's tokens.

Where battles happen and in what order is :mod:`rules.battle`; the reveal and the
resolution :mod:`rules.battle.resolution`. :func:`plan_options` is the query a plan
builder uses (leaders free for this battle, cards that fit each slot, the highest dial and
spice); :func:`check_plan` refuses what the rules forbid and builds the stored plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.battle.actions import BattlePlan
from rules.battle.model import BATTLE, CHEAP_HEROES, FOUGHT, Battle, BattleStep, Plan, plain_number
from rules.bribes import holds_spice
from rules.components import card_kind, leader_strength, treachery_card
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.factions import Faction, same_card
from rules.model import Ability, Stack
from rules.position import Position
from rules.variants import AllyBattleSpice

PLAN_RULE = "1.07.04"
NUMBER_RULE = "1.07.04.01"
LEADER_RULE = "1.07.04.04"
DEDICATED_RULE = "1.07.04.03"
NO_LEADER_RULE = "1.07.04.05"
CARDS_RULE = "1.07.04.06"
SPICE_RULE = "1.13.04"
ALLY_SPICE_RULE = "1.13.04.03"
KH_RULE = "2.01.11"
VOICE_RULE = "2.02.06"
WEAPON_KINDS = frozenset({"weapon_lasgun", "weapon_projectile", "weapon_poison"})
DEFENSE_KINDS = frozenset({"defense_projectile", "defense_poison"})
VOICE_KINDS = {
    "poison weapon": "weapon_poison",
    "projectile weapon": "weapon_projectile",
    "poison defense": "defense_poison",
    "projectile defense": "defense_projectile",
    "worthless": "worthless",
}
"""The Voice's kinds of card (2.02.06) and the card kind each names; a card's own name
(Lasgun, Shield, ...) or "Cheap Hero" may be named too."""


# -- the forces' worth on the wheel ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Worth:
    """What one token adds to the dial, paid (1 spice) and unpaid (1.13.04)."""

    regular_paid: float
    regular_unpaid: float
    special_paid: float
    special_unpaid: float

    def max_number(self, forces: Stack, spice: int) -> float:
        """The highest dial ``forces`` make with ``spice`` paid on the best tokens."""
        tokens = self._tokens(forces, spice)
        return plain_number(sum(value for value, _ in tokens))

    def _tokens(self, forces: Stack, spice: int) -> list[tuple[float, bool]]:
        """Each token's worth (and whether it is starred), spice on the most rewarding."""
        gains = sorted(
            [(self.special_paid - self.special_unpaid, True)] * forces.special
            + [(self.regular_paid - self.regular_unpaid, False)] * forces.forces,
            key=lambda g: (-g[0], not g[1]),
        )
        out = []
        for i, (_, special) in enumerate(gains):
            paid = i < spice
            if special:
                out.append((self.special_paid if paid else self.special_unpaid, True))
            else:
                out.append((self.regular_paid if paid else self.regular_unpaid, False))
        return out

    def dial_losses(self, forces: Stack, number: float, spice: int) -> Stack:
        """The tokens that make up ``number``: the fewest, the worthiest first (1.07.06.05)."""
        tokens = sorted(self._tokens(forces, spice), key=lambda t: (-t[0], not t[1]))
        lost = Stack()
        total = 0.0
        for value, special in tokens:
            if total >= number:
                break
            total += value
            lost = lost + (Stack(0, 1) if special else Stack(1))
        return lost


def worth(state: Position, faction: Faction, opponent: Faction) -> Worth:
    """The worth of ``faction``'s tokens against ``opponent`` (1.07.04.01): 1 each in the
    basic game; advanced: Sardaukar and Fedaykin 2 (Sardaukar 1 against the Fremen),
    unpaid tokens half, the Fremen battle hardened. A Karama waiting for the ability
    (3.01.11) takes it away."""
    if not state.rules.advanced:
        return Worth(1, 1, 1, 1)
    hardened = faction is Faction.FREMEN and ability_on(state, Ability.BATTLE_HARDENED)
    starred = 1.0
    if faction is Faction.EMPEROR and opponent is not Faction.FREMEN:
        starred = 2.0 if ability_on(state, Ability.SARDAUKAR) else 1.0
    elif faction is Faction.FREMEN:
        starred = 2.0 if ability_on(state, Ability.FEDAYKIN) else 1.0
    return Worth(
        1.0,
        1.0 if hardened else 0.5,
        starred,
        starred if hardened else starred / 2,
    )


def ability_on(state: Position, ability: Ability) -> bool:
    """Does the ✷ ability work now (no Karama waiting for its next use)?"""
    return ability.value not in state.whole.prevented


def abilities_used(state: Position, faction: Faction, opponent: Faction) -> list[Ability]:
    """The worth abilities ``faction``'s plan uses here (a Karama waiting for one stops it)."""
    if not state.rules.advanced:
        return []
    used = []
    battle = BATTLE.of(state.whole)
    forces = fighters(state, faction, battle) if battle else Stack()
    if faction is Faction.FREMEN:
        used.append(Ability.BATTLE_HARDENED)
        used += [Ability.FEDAYKIN] if forces.special else []
    if faction is Faction.EMPEROR and opponent is not Faction.FREMEN and forces.special:
        used.append(Ability.SARDAUKAR)
    return used


def fighters(state: Position, faction: Faction, battle: Battle) -> Stack:
    """``faction``'s fighters in the battle's sectors (advisors never fight, 2.02.12)."""
    total = Stack()
    for sector in battle.sectors:
        stack = state.stack(faction, battle.territory, sector)
        total = total + Stack(stack.forces, stack.special)
    return total


# -- what a side may play ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlanOptions:
    """What ``faction`` may put in its plan for the battle under way (a plan builder's
    menus): leaders free for it, Cheap Hero cards held, cards for each slot, the forces
    there, the highest dial with all the spice it may pay (and with each amount: ``dials``),
    the Voice's command."""

    territory: str
    leaders: tuple[str, ...]
    cheap_heroes: tuple[str, ...]
    weapons: tuple[str, ...]
    defenses: tuple[str, ...]
    forces: Stack
    max_spice: int
    max_number: float
    halves: bool  # the dial may end in a half (unpaid forces, 1.13.04.02)
    kwisatz_haderach: bool
    voice: tuple[str, str] | None
    dials: tuple[float, ...] = ()  # the highest dial with 0, 1, ... max_spice spice paid

    @property
    def must_lead(self) -> bool:
        """A leader or Cheap Hero is available, so one must be played (1.07.04.04); a Voice
        forbidding the Cheap Hero leaves a side with no free leader without one."""
        heroes_barred = self.voice == ("not_play", "Cheap Hero")
        return bool(self.leaders or (self.cheap_heroes and not heroes_barred))


def free_leaders(state: Position, faction: Faction, territory: str) -> tuple[str, ...]:
    """Leaders in ``faction``'s pool not fought elsewhere this phase (1.07.04.03), weakest
    first."""
    game = state.whole
    pool = game.held(game.leaders, faction)
    free = [n for n in pool if FOUGHT.of(game).get(n, territory) == territory]
    return tuple(sorted(free, key=lambda n: (leader_strength(n), n)))


def options_now(state: Position, faction: Faction) -> PlanOptions | None:
    """What ``faction`` may put in its battle plan now (leaders free for this battle, cards
    for each slot, the highest dial and spice, the Voice's command); None when no plan is
    awaited of it. A query: it changes nothing."""
    if state.whole.step != BattleStep.PLANS or faction not in state.whole.waiting:
        return None
    return plan_options(state, faction)


def plan_options(state: Position, faction: Faction) -> PlanOptions | None:
    """What ``faction`` may plan now (None when it fights no battle waiting for its plan)."""
    game = state.whole
    battle = BATTLE.of(game)
    if battle is None or faction not in battle.sides or battle.revealed:
        return None
    opponent = battle.opponent(faction)
    cards = state.factions[faction].cards
    heroes = tuple(dict.fromkeys(c for c in cards if c in CHEAP_HEROES))
    forces = fighters(state, faction, battle)
    value = worth(state, faction, opponent)
    max_spice = _max_spice(state, faction, forces, value)
    return PlanOptions(
        territory=battle.territory,
        leaders=free_leaders(state, faction, battle.territory),
        cheap_heroes=heroes,
        weapons=tuple(dict.fromkeys(c for c in cards if fits(c, "weapon"))),
        defenses=tuple(dict.fromkeys(c for c in cards if fits(c, "defense"))),
        forces=forces,
        max_spice=max_spice,
        max_number=value.max_number(forces, max_spice),
        halves=state.rules.advanced and value.regular_unpaid != int(value.regular_unpaid),
        kwisatz_haderach=_kwisatz_haderach_free(state, faction, battle.territory),
        voice=battle.voice if voice_target(battle, state) is faction else None,
        dials=tuple(value.max_number(forces, paid) for paid in range(max_spice + 1)),
    )


def voice_target(battle: Battle, state: Position) -> Faction | None:
    """The side the Bene Gesserit's Voice binds (the opponent of them or their ally)."""
    user = battle.voice_by
    if battle.voice is None or user is None:
        return None
    side = user if user in battle.sides else state.ally_of(user)
    return battle.opponent(side) if side in battle.sides else None


def _max_spice(state: Position, faction: Faction, forces: Stack, value: Worth) -> int:
    if not state.rules.advanced or value.regular_unpaid == value.regular_paid:
        return 0
    return min(forces.fighters, spice_available(state, faction))


def spice_available(state: Position, faction: Faction) -> int:
    """The spice ``faction`` may pay for its dial: its own, and its ally's under D13 "yes"."""
    own = state.factions[faction].spice
    ally = state.ally_of(faction)
    if (
        state.rules.ally_battle_spice is AllyBattleSpice.YES
        and ally is not None
        and ally in state.factions
    ):
        own += state.factions[ally].spice
    return own


def locked_plans(state: Position) -> Mapping[Faction, Plan]:
    """The plans locked for the battle under way and not yet resolved (revealed, they
    stand while traitors may be called); none otherwise."""
    game = state.game
    battle = BATTLE.of(game)
    if battle is None or (battle.revealed and game.step != BattleStep.TRAITOR_CALLS):
        return {}
    return battle.plans


def dialed_spice(state: Position) -> dict[Faction, int]:
    """The spice held for the dials of the locked plans not yet paid (1.13.04): each side
    its own part, its ally the part it pays under D13 "yes"; paid at the resolution."""
    held: dict[Faction, int] = {}
    for side, plan in locked_plans(state).items():
        ally = state.ally_of(side)
        parts = [(side, plan.spice - plan.ally_spice), (ally, plan.ally_spice)]
        for payer, amount in parts:
            if payer is not None and amount > 0:
                held[payer] = held.get(payer, 0) + amount
    return held


@holds_spice
def check_dialed_spice(state: Position, rule: str = SPICE_RULE) -> None:
    """Spice given away may not leave a locked plan's dial unpaid (1.13.04)."""
    for faction, amount in sorted(dialed_spice(state).items()):
        if state.factions[faction].spice < amount:
            raise IllegalActionError(
                f"{faction.label} has {amount} spice dialed in a locked battle plan: "
                "that spice is held for it until the battle is resolved",
                rule=rule,
            )


def _kwisatz_haderach_free(state: Position, faction: Faction, territory: str) -> bool:
    game = state.whole
    return (
        faction is Faction.ATREIDES
        and state.rules.advanced
        and game.kwisatz_haderach_active
        and not game.kwisatz_haderach_dead
        and game.kwisatz_haderach_territory in (None, territory)
    )


def fits(card: str, slot: str) -> bool:
    """May ``card`` go in the ``slot`` ("weapon" or "defense")? Worthless cards fit both."""
    kind = card_kind(card)
    return kind == "worthless" or kind in (WEAPON_KINDS if slot == "weapon" else DEFENSE_KINDS)


# -- the check --------------------------------------------------------------------------


def check_plan(state: Position, action: BattlePlan) -> Plan:
    """The plan ``action`` submits, checked against the rules; refused with the rule."""
    faction = action.faction
    battle = BATTLE.of(state.whole)
    options = plan_options(state, faction)
    if battle is None or options is None:
        raise NotYourTurnError(f"{faction.label} fights no battle now", rule=PLAN_RULE)
    there = state.territory(action.territory, rule=PLAN_RULE)
    if there.name != battle.territory:
        raise IllegalActionError(
            f"the battle is in {battle.territory}, not {quote(action.territory)}", rule=PLAN_RULE
        )
    leader = _leader(action, options)
    number, spice = _number(state, action, options)
    weapon = _card(state, faction, action.weapon, "weapon", leader)
    defense = _card(state, faction, action.defense, "defense", leader)
    if weapon and defense and same_card(weapon, defense):
        held = sum(1 for c in state.factions[faction].cards if same_card(c, weapon))
        if held < 2:
            raise IllegalActionError(
                f"{faction.label} holds one {weapon}: it fills one slot", rule=CARDS_RULE
            )
    if action.kwisatz_haderach and not (options.kwisatz_haderach and leader):
        raise IllegalActionError(
            "the Kwisatz Haderach goes with a leader or Cheap Hero, in the advanced game, once "
            "the Atreides have lost 7 forces in battle, in one territory a turn",
            rule=KH_RULE,
        )
    own = state.factions[faction].spice
    plan = Plan(
        leader=leader,
        number=number,
        spice=spice,
        weapon=weapon,
        defense=defense,
        kwisatz_haderach=action.kwisatz_haderach,
        ally_spice=max(0, spice - own),
    )
    if voice_target(battle, state) is faction and battle.voice is not None:
        check_voice(faction, plan, options, battle.voice)
    return plan


def _leader(action: BattlePlan, options: PlanOptions) -> str | None:
    name = action.leader
    if name is None or not name.strip():
        if options.must_lead:
            raise IllegalActionError(
                f"{action.faction.label} has a leader or Cheap Hero free for this battle and "
                "must play one",
                rule=LEADER_RULE,
            )
        return None
    if any(same_card(name, h) for h in CHEAP_HEROES):
        found = next(
            (h for h in options.cheap_heroes if same_card(h, name)),
            options.cheap_heroes[0] if options.cheap_heroes else None,
        )
        if found is None:
            raise IllegalActionError(
                f"{action.faction.label} holds no Cheap Hero card", rule=CARDS_RULE
            )
        return found
    leader = next((n for n in options.leaders if same_card(n, name)), None)
    if leader is None:
        raise IllegalActionError(
            f"{quote(name)} is not a leader {action.faction.label} may play here: its leaders "
            f"free for this battle are {', '.join(options.leaders) or 'none'}",
            rule=DEDICATED_RULE,
        )
    return leader


def _number(state: Position, action: BattlePlan, options: PlanOptions) -> tuple[float, int]:
    spice = action.spice
    number = action.number
    if spice and not state.rules.advanced:
        raise IllegalActionError("spice is dialed in the advanced game only", rule=SPICE_RULE)
    if spice < 0 or spice > options.max_spice:
        raise IllegalActionError(
            f"{action.faction.label} may pay 0 to {options.max_spice} spice for its dial "
            f"here, not {quote(spice)}",
            rule=ALLY_SPICE_RULE
            if state.rules.ally_battle_spice is AllyBattleSpice.YES
            else SPICE_RULE,
        )
    doubled = float(number) * 2
    whole = doubled.is_integer() and (options.halves or float(number).is_integer())
    if not whole or number < 0:
        raise InvalidActionError(
            f"the number dialed is a whole number{' or a half' if options.halves else ''}, "
            f"0 or more, not {quote(number)}",
            rule=NUMBER_RULE,
        )
    battle = BATTLE.of(state.whole)
    assert battle is not None
    value = worth(state, action.faction, battle.opponent(action.faction))
    most = value.max_number(options.forces, spice)
    if number > most:
        raise IllegalActionError(
            f"{action.faction.label}'s forces in {options.territory} dial at most {most} "
            f"with {spice} spice paid, not {quote(number)}",
            rule=NUMBER_RULE,
        )
    return plain_number(float(number)), spice


def _card(
    state: Position, faction: Faction, name: str | None, slot: str, leader: str | None
) -> str | None:
    if name is None or not name.strip():
        return None
    if leader is None:
        raise IllegalActionError(
            "with neither a leader nor a Cheap Hero a side fights without cards",
            rule=NO_LEADER_RULE,
        )
    card = next((c for c in state.factions[faction].cards if same_card(c, name)), None)
    if card is None:
        raise IllegalActionError(f"{faction.label} holds no {quote(name)}", rule=CARDS_RULE)
    if not fits(card, slot):
        raise IllegalActionError(
            f"{card} does not go in the {slot} slot (worthless cards go in either)",
            rule=CARDS_RULE,
        )
    return card


# -- the Voice ----------------------------------------------------------------------------


def voice_kind(text: str) -> str | None:
    """The Voice's kind as stored: one of :data:`VOICE_KINDS`, "Cheap Hero", or the name
    of a weapon or defense card; None if ``text`` names none of these."""
    key = text.strip().lower()
    if key in VOICE_KINDS:
        return key
    if any(same_card(text, h) for h in CHEAP_HEROES):
        return "Cheap Hero"
    kind = card_kind(text)
    if kind in WEAPON_KINDS or kind in DEFENSE_KINDS:
        return treachery_card(text)
    return None


def _matches(card: str | None, kind: str, slot: str) -> bool:
    if card is None:
        return False
    if kind in VOICE_KINDS:
        wanted = VOICE_KINDS[kind]
        return card_kind(card) == wanted and (wanted == "worthless" or wanted.startswith(slot))
    return same_card(card, kind)


def plays(plan: Plan, kind: str) -> bool:
    """Does ``plan`` play a card of the Voice's ``kind``?"""
    if kind == "Cheap Hero":
        return plan.cheap_hero
    return _matches(plan.weapon, kind, "weapon") or _matches(plan.defense, kind, "defense")


def could_play(options: PlanOptions, kind: str) -> bool:
    """Could a side with ``options`` play a card of ``kind``? (It obeys as far as it can.)"""
    if kind == "Cheap Hero":
        return bool(options.cheap_heroes)
    if not (options.leaders or options.cheap_heroes):
        return False
    return any(_matches(c, kind, "weapon") and fits(c, "weapon") for c in options.weapons) or any(
        _matches(c, kind, "defense") and fits(c, "defense") for c in options.defenses
    )


def voice_cards(options: PlanOptions) -> tuple[str | None, str | None]:
    """The weapon and defense obeying a Voice that commands ``options``' side to play a kind
    (2.02.06): the first card of that kind it holds, in the weapon slot if it fits there;
    (None, None) without such a command or such a card."""
    if options.voice is None or options.voice[0] != "play":
        return None, None
    kind = options.voice[1]
    weapon = next((c for c in options.weapons if _matches(c, kind, "weapon")), None)
    if weapon is not None:
        return weapon, None
    return None, next((c for c in options.defenses if _matches(c, kind, "defense")), None)


def voice_forbids(options: PlanOptions, card: str, slot: str) -> bool:
    """Does a Voice command ``options``' side not to play ``card`` in ``slot`` (2.02.06)?"""
    voice = options.voice
    return voice is not None and voice[0] == "not_play" and _matches(card, voice[1], slot)


def check_voice(faction: Faction, plan: Plan, options: PlanOptions, voice: tuple[str, str]) -> None:
    """The Voice's target obeys as far as it can (2.02.06)."""
    command, kind = voice
    words = f"{'play' if command == 'play' else 'not play'} {kind}"
    if command == "not_play" and plays(plan, kind):
        raise IllegalActionError(f"the Voice commands {faction.label} to {words}", rule=VOICE_RULE)
    if command == "play" and not plays(plan, kind) and could_play(options, kind):
        raise IllegalActionError(
            f"the Voice commands {faction.label} to {words}, and it can", rule=VOICE_RULE
        )


def leader_worth(leader: str | None) -> int:
    """A leader's strength in a plan (a Cheap Hero or no leader: 0)."""
    if leader is None or leader in CHEAP_HEROES:
        return 0
    return leader_strength(leader)
