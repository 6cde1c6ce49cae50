"""The Battle Phase (1.07), run by the engine: where battles happen, their order, the
choices before the plans (Voice, Prescience), the plans, and the phase's end.

A battle is fought wherever two or more factions that are not allies have fighters in
the same part of a territory (a sector in storm splits a territory, 1.07.01.00; forces in
the storm's own sector fight each other unless ``battles_under_storm`` is off, D3), never
in the Polar Sink. The first faction in storm order that has a battle is the aggressor
and names the next one (``battle``); where it has only one, the engine starts it. Then
the Bene Gesserit may use the Voice and the Atreides Prescience (in their own or their
ally's battle; D15 ``voice_prescience`` sets the order), then both sides submit secret
plans (:mod:`rules.battle.plans`), in either order; the reveal and the resolution are
:mod:`rules.battle.resolution`.

``TurnState.step`` names what the game waits on, and ``waiting`` lists exactly the
factions whose choice it waits for: "choose" (the aggressor), "voice", "prescience",
"voice_prescience" (D15 "together"), "plans" (the sides still to submit), "traitor_calls"
(those who may call one), "keep" (the winner), "capture" (the Harkonnen), "done".
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules import bene_gesserit, karama_turn
from rules.actions import FactionAction
from rules.battle.actions import Prescience, StartBattle, Voice
from rules.battle.events import (
    BattlesOver,
    BattleStarted,
    CaptivesReleased,
    PrescienceAsked,
    VoiceUsed,
)
from rules.battle.model import BATTLE, FOUGHT, Battle, BattleStep, set_battle
from rules.battle.plans import voice_kind
from rules.board import POLAR_SINK
from rules.components import leader_owner, leaders
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import Event, KaramaPower, LeaderKilled
from rules.factions import Faction
from rules.game_model import GamePhase, PhaseStep, with_entry
from rules.model import Ability
from rules.position import Position
from rules.variants import VoicePrescience

BATTLE_RULE = "1.07"
DETERMINATION_RULE = "1.07.01"
AGGRESSOR_RULE = "1.07.02"
THREE_RULE = "1.07.03"
PLAN_RULE = "1.07.04"
RETURN_RULE = "1.07.07"
PRISON_BREAK_RULE = "2.05.11"
PRESCIENCE_RULE = "2.01.08"
VOICE_RULE = "2.02.06"
KARAMA_PLAN_RULE = "1.14.01"
ASKS = ("leader", "weapon", "defense", "number")
COMMANDS = ("play", "not_play")
BEFORE_PLANS = frozenset({BattleStep.VOICE, BattleStep.PRESCIENCE, BattleStep.VOICE_PRESCIENCE})


# -- where battles happen (1.07.01) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Site:
    """A part of a territory where fighters of several factions meet (storm separation)."""

    territory: str
    sectors: tuple[int | None, ...]
    factions: tuple[Faction, ...]  # in storm order
    split: bool  # the territory holds fighters in more than one part


def sites(state: Position) -> list[Site]:
    """Every place a battle must be fought now, board order."""
    order = state.whole.order
    occupied: dict[str, dict[int | None, set[Faction]]] = {}
    for (faction, territory, sector), stack in state.stacks.items():
        if stack.fighters and territory != POLAR_SINK:
            occupied.setdefault(territory, {}).setdefault(sector, set()).add(faction)
    found = []
    for territory in sorted(occupied):
        held = occupied[territory]
        if len({f for fs in held.values() for f in fs}) < 2:
            continue
        parts = state.board.storm_free_parts(territory, state.storm_sector)
        if state.rules.battles_under_storm and state.storm_sector in held:
            parts.append((state.storm_sector,))
        parts = [p for p in parts if any(s in held for s in p)]
        for part in parts:
            here = {f for s in part for f in held.get(s, ())}
            present = tuple(f for f in order if f in here)
            if _hostile(state, present):
                found.append(Site(territory, part, present, len(parts) > 1))
    return found


def _hostile(state: Position, factions: tuple[Faction, ...]) -> bool:
    return any(a is not b and state.ally_of(a) is not b for a in factions for b in factions)


def fights(
    state: Position, faction: Faction, found: list[Site] | None = None
) -> list[tuple[Site, Faction]]:
    """The battles ``faction`` could name as aggressor: (site, opponent)."""
    return [
        (site, other)
        for site in (sites(state) if found is None else found)
        if faction in site.factions
        for other in site.factions
        if other is not faction and state.ally_of(faction) is not other
    ]


def aggressor(state: Position, found: list[Site] | None = None) -> Faction | None:
    """The first faction in storm order that still has a battle (1.07.02)."""
    found = sites(state) if found is None else found
    return next((f for f in state.whole.order if fights(state, f, found)), None)


# -- the phase's steps ----------------------------------------------------------------


def begin(state: Position) -> list[Event]:
    """The advanced Bene Gesserit's lone advisors become fighters (2.02.21), then the
    first battle."""
    state.set_game(
        parts=FOUGHT.put(BATTLE.put(state.whole.parts, None), {}),
        kwisatz_haderach_territory=None,
        waiting=(),
        step=PhaseStep.BEGIN,
    )
    events = bene_gesserit.universal_stewards(state)
    return events + next_battle(state)


def next_battle(state: Position) -> list[Event]:
    """Start the next battle, ask the aggressor to name it, or end the phase."""
    set_battle(state, None)
    found = sites(state)
    faction = aggressor(state, found)
    if faction is None:
        return end_phase(state)
    options = fights(state, faction, found)
    if len(options) == 1:
        site, opponent = options[0]
        return start(state, faction, site, opponent)
    state.set_game(step=BattleStep.CHOOSE, waiting=(faction,))
    return []


def start(state: Position, faction: Faction, site: Site, opponent: Faction) -> list[Event]:
    battle = Battle(site.territory, site.sectors, faction, opponent)
    set_battle(state, battle)
    sector = site.sectors[0] if site.split else None
    started = BattleStarted(faction, opponent, site.territory, sector, AGGRESSOR_RULE)
    return [started, *before_plans(state)]


def end_phase(state: Position) -> list[Event]:
    """No battle is left: leaders go back to their pools; the Harkonnen's captives that
    fought for them go back to their owners (1.07.07, 2.05.10)."""
    game = state.whole
    freed = [n for n in game.captives if n in FOUGHT.of(game)]
    events: list[Event] = []
    if freed:
        events += release(state, freed, "2.05.10")
    state.set_game(
        step=PhaseStep.DONE,
        waiting=(),
        parts=FOUGHT.put(BATTLE.put(state.whole.parts, None), {}),
        kwisatz_haderach_territory=None,
    )
    return [*events, BattlesOver(RETURN_RULE)]


def release(state: Position, names: list[str], rule: str) -> list[Event]:
    """Captives go back from the Harkonnen's pool to their owners' (2.05.10-11)."""
    game = state.whole
    leaders = dict(game.leaders)
    captives = dict(game.captives)
    hark = Faction.HARKONNEN
    for name in names:
        owner = captives.pop(name)
        leaders[hark] = tuple(n for n in leaders.get(hark, ()) if n != name)
        leaders[owner] = (*leaders.get(owner, ()), name)
    state.set_game(leaders=leaders, captives=captives)
    return [CaptivesReleased(tuple(names), rule)]


def _user(state: Position, battle: Battle, who: Faction) -> Faction | None:
    """``who`` if it may use its battle ability here: its own or its ally's battle."""
    if who not in state.factions:
        return None
    if who in battle.sides or state.ally_of(who) in battle.sides:
        return who
    return None


def before_plans(state: Position) -> list[Event]:
    """Open the Voice and Prescience where they apply (D15), then the plans."""
    battle = BATTLE.of(state.whole)
    assert battle is not None
    events: list[Event] = []
    pending = []
    for name, who, ability in (
        ("voice", Faction.BENE_GESSERIT, Ability.VOICE),
        ("prescience", Faction.ATREIDES, Ability.PRESCIENCE),
    ):
        if name in battle.asked:
            continue
        user = _user(state, battle, who)
        works = user is not None
        if works:
            works, stopped = karama_turn.uses(state, ability)
            events += stopped
        if works and user is not None:
            pending.append((name, user))
        else:
            battle = replace(battle, asked=battle.asked | {name})
    set_battle(state, battle)
    if pending and state.rules.voice_prescience is VoicePrescience.TOGETHER:
        step = BattleStep.VOICE_PRESCIENCE if len(pending) == 2 else BattleStep(pending[0][0])
        state.set_game(step=step, waiting=tuple(u for _, u in pending))
    elif pending:
        state.set_game(step=BattleStep(pending[0][0]), waiting=(pending[0][1],))
    else:
        state.set_game(step=BattleStep.PLANS, waiting=missing_plans(battle))
    return events


def missing_plans(battle: Battle) -> tuple[Faction, ...]:
    return tuple(f for f in battle.sides if f not in battle.plans)


def current(
    state: Position, action: FactionAction, steps: frozenset[BattleStep], rule: str
) -> Battle:
    game = state.whole
    battle = BATTLE.of(game)
    if game.phase is not GamePhase.BATTLE or game.step not in steps or battle is None:
        raise NotYourTurnError(f"{action.name} is not awaited now", rule=rule)
    if action.faction not in game.waiting:
        raise NotYourTurnError(
            f"{action.faction.label} has no {action.name.replace('_', ' ')} to make now",
            rule=rule,
        )
    return battle


def settled(state: Position, faction: Faction, name: str) -> list[Event]:
    battle = BATTLE.of(state.whole)
    assert battle is not None
    set_battle(state, replace(battle, asked=battle.asked | {name}))
    waiting = tuple(f for f in state.whole.waiting if f is not faction)
    if waiting and state.whole.step == BattleStep.VOICE_PRESCIENCE:
        other = BattleStep.PRESCIENCE if name == "voice" else BattleStep.VOICE
        state.set_game(waiting=waiting, step=other)
        return []
    return before_plans(state)


# -- the actions ----------------------------------------------------------------------


def start_battle(state: Position, action: StartBattle) -> list[Event]:
    """The aggressor names its next battle (1.07.02-03); naming the battle the engine
    started by itself is accepted and changes nothing."""
    faction = action.faction
    game = state.whole
    if game.phase is not GamePhase.BATTLE:
        raise NotYourTurnError("battles are fought in the battle phase", rule=BATTLE_RULE)
    territory = state.territory(action.territory, rule=DETERMINATION_RULE)
    opponent = Faction.parse(action.opponent)
    if opponent is None or opponent not in state.factions:
        raise InvalidActionError(
            f"{quote(action.opponent)} is not a faction in this game", rule=THREE_RULE
        )
    battle = BATTLE.of(game)
    if battle is not None and game.step in BEFORE_PLANS | {BattleStep.PLANS} and not battle.plans:
        same = (battle.aggressor, battle.defender, battle.territory) == (
            faction,
            opponent,
            territory.name,
        )
        if same and (action.sector is None or action.sector in battle.sectors):
            return []
    if game.step != BattleStep.CHOOSE or faction not in game.waiting:
        who = aggressor(state)
        raise NotYourTurnError(
            f"{faction.label} does not name a battle now"
            + (f": {who.label} is the aggressor" if who and who is not faction else ""),
            rule=AGGRESSOR_RULE,
        )
    options = [
        site
        for site, other in fights(state, faction)
        if other is opponent and site.territory == territory.name
    ]
    if action.sector is not None:
        options = [s for s in options if action.sector in s.sectors]
    if not options:
        raise IllegalActionError(
            f"{faction.label} has no battle against {opponent.label} in {territory.name}"
            + (f" (sector {quote(action.sector)})" if action.sector is not None else ""),
            rule=DETERMINATION_RULE,
        )
    if len(options) > 1:
        raise IllegalActionError(
            f"the storm splits {territory.name}: name the sector of the battle "
            f"({' or '.join(str(s.sectors[0]) for s in options)})",
            rule="1.07.01.00",
        )
    return start(state, faction, options[0], opponent)


def voice(state: Position, action: Voice) -> list[Event]:
    battle = current(
        state, action, frozenset({BattleStep.VOICE, BattleStep.VOICE_PRESCIENCE}), VOICE_RULE
    )
    faction = action.faction
    if "voice" in battle.asked or faction is not Faction.BENE_GESSERIT:
        raise NotYourTurnError(f"{faction.label} has no Voice to use now", rule=VOICE_RULE)
    if action.command not in COMMANDS:
        raise InvalidActionError(
            f"the Voice commands 'play' or 'not_play', not {quote(action.command)}",
            rule=VOICE_RULE,
        )
    kind = voice_kind(action.kind)
    if kind is None:
        raise InvalidActionError(
            f"the Voice names a poison or projectile weapon or defense, a worthless card, a "
            f"Cheap Hero or a weapon or defense card, not {quote(action.kind)}",
            rule=VOICE_RULE,
        )
    side = faction if faction in battle.sides else state.ally_of(faction)
    assert side is not None
    target = battle.opponent(side)
    set_battle(state, replace(battle, voice=(action.command, kind), voice_by=faction))
    used = VoiceUsed(faction, target, action.command, kind, VOICE_RULE)
    return [used, *settled(state, faction, "voice")]


def prescience(state: Position, action: Prescience) -> list[Event]:
    battle = current(
        state,
        action,
        frozenset({BattleStep.PRESCIENCE, BattleStep.VOICE_PRESCIENCE}),
        PRESCIENCE_RULE,
    )
    faction = action.faction
    if "prescience" in battle.asked or faction is not Faction.ATREIDES:
        raise NotYourTurnError(
            f"{faction.label} has no Prescience to use now", rule=PRESCIENCE_RULE
        )
    ask = action.ask.strip().lower()
    events: list[Event] = []
    if ask == "plan":
        events += _karama_plan(state, faction, battle)
    elif ask not in ASKS:
        raise InvalidActionError(
            f"Prescience asks for the leader, weapon, defense or number, not {quote(action.ask)}",
            rule=PRESCIENCE_RULE,
        )
    side = faction if faction in battle.sides else state.ally_of(faction)
    assert side is not None
    target = battle.opponent(side)
    now = BATTLE.of(state.whole)
    assert now is not None
    set_battle(state, replace(now, prescience=ask, prescience_by=faction))
    events.append(PrescienceAsked(faction, target, ask, PRESCIENCE_RULE))
    return events + settled(state, faction, "prescience")


def _karama_plan(state: Position, faction: Faction, battle: Battle) -> list[Event]:
    """The Atreides' once-a-game Karama power: the opponent's whole plan (1.14.01)."""
    game = state.whole
    card = state.karama_card(faction)
    karama_turn.check_power(state, faction, Faction.ATREIDES, KARAMA_PLAN_RULE)
    if faction not in battle.sides:
        raise IllegalActionError(
            "the Atreides see the whole plan in their own battle", rule=KARAMA_PLAN_RULE
        )
    if card is None:
        raise IllegalActionError("the Atreides hold no Karama card", rule=KARAMA_PLAN_RULE)
    state.discard(faction, card)
    state.set_game(karama_powers_used=game.karama_powers_used | {faction})
    return [KaramaPower(faction, card, "plan", None, KARAMA_PLAN_RULE)]


# -- queries ---------------------------------------------------------------------------


def fought(state: Position, leader: str, territory: str) -> None:
    """Remember that ``leader`` fought in ``territory`` this phase (1.07.04.03)."""
    game = state.whole
    state.set_game(parts=FOUGHT.put(game.parts, {**FOUGHT.of(game), leader: territory}))


def drop_leader(state: Position, holder: Faction, name: str) -> None:
    game = state.whole
    kept = tuple(n for n in game.held(game.leaders, holder) if n != name)
    state.set_game(leaders=with_entry(game.leaders, holder, kept))


def kill_leader(state: Position, holder: Faction, name: str, rule: str) -> list[Event]:
    """A leader dies, in battle (1.07.06.02) or as the moderator records it: face up to
    its owner's tanks (a captive too, 2.05.12); every Harkonnen leader dead, the captives
    go home (2.05.11)."""
    owner = state.whole.captives.get(name) or leader_owner(name) or holder
    leader_to_tanks(state, holder, owner, name)
    return [LeaderKilled(owner, name, rule), *prison_break(state)]


def leader_to_tanks(state: Position, holder: Faction, owner: Faction, name: str) -> None:
    """Leader ``name``, held by ``holder``, goes to its ``owner``'s tanks: one more death."""
    drop_leader(state, holder, name)
    game = state.whole
    state.set_game(
        leaders_tanks=with_entry(
            game.leaders_tanks, owner, (*game.held(game.leaders_tanks, owner), name)
        ),
        leader_deaths={**game.leader_deaths, name: game.leader_deaths.get(name, 0) + 1},
        captives={n: f for n, f in game.captives.items() if n != name},
    )


def prison_break(state: Position) -> list[Event]:
    """When every Harkonnen leader is dead, the captives go home at once (2.05.11)."""
    game = state.whole
    if not game.captives:
        return []
    own = set(leaders(Faction.HARKONNEN))
    if any(n in own for n in game.held(game.leaders, Faction.HARKONNEN)):
        return []
    return release(state, sorted(game.captives), PRISON_BREAK_RULE)
