"""The private battle plan builder in words (1.07.04): the menus of what may go in a plan
for the battle under way, a draft's summary, and the plan it makes.

Everything is read from :func:`rules.battle.plans.options_now` for the one
faction building its plan, so a menu offers only what is legal for this battle: leaders
free this phase (or a Cheap Hero), the cards in hand that fit each slot, numbers up to the
forces there, spice up to what may be paid; a card the Voice forbids is not offered, and a
draft starts obeying its command to play a kind. The Voice's command and the Atreides'
Prescience are shown; the engine checks the whole plan when it is locked. Nothing here is
ever shown to anyone but the plan's owner (and a current moderator acting for it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.words.battle.phase import foreseen_line
from rules.battle.actions import BattlePlan
from rules.battle.model import BATTLE, Battle
from rules.battle.plans import PlanOptions, voice_cards, voice_forbids
from rules.factions import Faction
from rules.game import GameState

NONE = "-"
"""A menu's value for "nothing in this slot" (a select needs a non-empty value)."""
WITH_KH = "kh:"
"""A leader menu's value prefix: this leader (or Cheap Hero) with the Kwisatz Haderach."""
MENU_LIMIT = 25  # Discord's limit on a select's options
ASKED = {
    "leader": "your leader",
    "weapon": "your weapon",
    "defense": "your defense",
    "number": "the number you dial",
    "plan": "your whole plan (Karama)",
}
Menu = list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Draft:
    """A plan being built: what the menus have chosen so far."""

    leader: str | None = None
    number: float = 0
    weapon: str | None = None
    defense: str | None = None
    spice: int = 0
    kwisatz_haderach: bool = False

    def choose(self, field: str, value: str) -> Draft:
        """The draft with one menu's choice (``value`` as the menu gave it)."""
        given: str | None = None if value == NONE else value
        if field == "number":
            return replace(self, number=_dial(value))
        if field == "spice":
            return replace(self, spice=int(value) if value.isdigit() and len(value) < 4 else 0)
        if field == "kwisatz_haderach":
            return replace(self, kwisatz_haderach=value == "yes")
        if field == "leader":
            if value.startswith(WITH_KH):
                return replace(self, leader=value[len(WITH_KH) :] or None, kwisatz_haderach=True)
            return replace(self, leader=given, kwisatz_haderach=False)
        if field == "weapon":
            return replace(self, weapon=given)
        if field == "defense":
            return replace(self, defense=given)
        return self

    @property
    def leader_value(self) -> str:
        """The leader menu's value for this draft's choice."""
        if self.leader is None:
            return NONE
        return f"{WITH_KH}{self.leader}" if self.kwisatz_haderach else self.leader


def _dial(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        return 0
    return number if 0 <= number <= 100 else 0


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def most_dialed(options: PlanOptions, spice: int) -> float:
    """The highest dial with ``spice`` paid (all of it when spice is not dialed)."""
    if not options.dials:
        return options.max_number
    return options.dials[max(0, min(spice, len(options.dials) - 1))]


def least_spice(options: PlanOptions, number: float) -> int:
    """The least spice that lets the forces dial ``number`` (0 when spice is not dialed)."""
    return next((paid for paid, most in enumerate(options.dials) if most >= number), 0)


def choose(options: PlanOptions, draft: Draft, field: str, value: str) -> Draft:
    """The draft after one menu's choice, kept within what the menus offer (a value outside
    them, forged or left from another battle, leaves that slot as it was) and what the
    forces may dial: a number that needs more spice raises the spice to what it needs; less
    spice lowers a number it no longer reaches (the engine checks the whole plan at Lock)."""
    chosen = draft.choose(field, value)
    offered = menus(options)
    if field in ("leader", "weapon", "defense") and value not in dict(offered[field]).values():
        return draft
    spice = min(chosen.spice, options.max_spice)
    if field == "number":
        spice = max(spice, least_spice(options, chosen.number))
    number = min(chosen.number, most_dialed(options, spice))
    return replace(chosen, spice=spice, number=number)


def first_draft(options: PlanOptions, *, spice: int = 0, kwisatz_haderach: bool = False) -> Draft:
    """Where a builder starts: the weakest free leader (one must lead if any is free), no
    card, dial 0; under the Voice's command to play a kind, a card of that kind held (or
    the Cheap Hero), as the deadline's default plan would (2.02.06). ``spice`` (at most what
    may be paid) and the Kwisatz Haderach (only where it may fight, with a leader) as asked."""
    heroes = [] if _heroes_barred(options) else list(options.cheap_heroes)
    leaders = [*options.leaders, *heroes]
    leader = leaders[0] if options.must_lead and leaders else None
    if options.voice == ("play", "Cheap Hero") and options.cheap_heroes:
        leader = options.cheap_heroes[0]
    weapon, defense = voice_cards(options) if leader is not None else (None, None)
    with_kh = kwisatz_haderach and options.kwisatz_haderach and leader is not None
    start = Draft(leader=leader, weapon=weapon, defense=defense, kwisatz_haderach=with_kh)
    return choose(options, start, "spice", str(max(0, spice)))


def _heroes_barred(options: PlanOptions) -> bool:
    return options.voice == ("not_play", "Cheap Hero")


def menus(options: PlanOptions) -> dict[str, Menu]:
    """Each menu of the builder: (label, value) pairs, at most 25 each; a card (or the Cheap
    Hero) the Voice forbids is not offered (2.02.06). The Kwisatz
    Haderach, when it may fight here, is a choice of the leader menu (each leader "with the
    Kwisatz Haderach"); the spice menu is there only when spice is dialed."""
    out: dict[str, Menu] = {}
    leaders: Menu = []
    heroes = () if _heroes_barred(options) else options.cheap_heroes
    for name in (*options.leaders, *heroes):
        kind = "Leader" if name in options.leaders else "Cheap Hero card"
        leaders.append((f"{kind}: {name}", name))
        if options.kwisatz_haderach:
            leaders.append((f"{name} with the Kwisatz Haderach", f"{WITH_KH}{name}"))
    if not options.must_lead:
        leaders.append(("No leader", NONE))
    out["leader"] = leaders[:MENU_LIMIT]
    out["number"] = [(_dial_label(options, d), _number(d)) for d in _dials(options)]
    weapons = [c for c in options.weapons if not voice_forbids(options, c, "weapon")]
    defenses = [c for c in options.defenses if not voice_forbids(options, c, "defense")]
    out["weapon"] = [("No weapon", NONE)] + [(f"Weapon: {c}", c) for c in weapons]
    out["defense"] = [("No defense", NONE)] + [(f"Defense: {c}", c) for c in defenses]
    out["weapon"] = out["weapon"][:MENU_LIMIT]
    out["defense"] = out["defense"][:MENU_LIMIT]
    if options.max_spice:
        top = min(options.max_spice, MENU_LIMIT - 1)
        out["spice"] = [
            (f"Pay {n} spice (dial up to {_number(most_dialed(options, n))})", str(n))
            for n in range(top + 1)
        ]
    return out


def _dials(options: PlanOptions) -> list[float]:
    """Every number the forces may dial; past 25 (halves with many forces), every whole
    number and the lowest halves."""
    step = 0.5 if options.halves else 1
    dials = [i * step for i in range(int(options.max_number / step) + 1)]
    if len(dials) <= MENU_LIMIT:
        return dials
    whole = [d for d in dials if float(d).is_integer()][:MENU_LIMIT]
    halves = [d for d in dials if not float(d).is_integer()][: MENU_LIMIT - len(whole)]
    return sorted(whole + halves)


def _dial_label(options: PlanOptions, number: float) -> str:
    need = least_spice(options, number)
    return f"Dial {_number(number)}" + (f" (pay {need} spice or more)" if need else "")


def constraints(state: GameState, faction: Faction, options: PlanOptions) -> list[str]:
    """The Voice's command binding this plan and what Prescience will show, in words."""
    out: list[str] = []
    if options.voice is not None:
        command, kind = options.voice
        verb = "play" if command == "play" else "not play"
        out.append(f"The Voice: you must {verb} {kind} if you can (rule 2.02.06).")
    fight = BATTLE.of(state.whole)
    by = fight.prescience_by if fight is not None else None
    if fight is not None and fight.prescience and by not in (None, faction, state.ally_of(faction)):
        what = ASKED.get(fight.prescience, fight.prescience)
        out.append(f"Prescience: the Atreides see {what} as soon as it is in (rule 2.01.08).")
    if fight is not None and fight.prescience == "plan" and by is faction:
        foreseen = foreseen_line(state.view_for(faction))  # what their Karama bought them
        if foreseen is not None:
            out.append(foreseen)
    return out


def summary(state: GameState, faction: Faction, options: PlanOptions, draft: Draft) -> str:
    """The builder's message: the battle, the constraints, the plan so far, how to lock."""
    fight = BATTLE.of(state.whole)
    against = fight.opponent(faction).label if fight is not None else "your opponent"
    cards = [c for c in (draft.weapon, draft.defense) if c]
    lines = [
        f"**Your battle plan in {options.territory}{_part(state, fight)}** against {against} "
        "(only you see this until both plans are revealed).",
        *constraints(state, faction, options),
        f"Forces there: {options.forces.fighters}; the most you may dial: "
        f"{_number(options.max_number)}"
        + (
            f", paying {options.max_spice} spice. Spice: up to {options.max_spice}, each makes "
            "one force count full (rule 1.13.04); **Spice…** shows its menu."
            if options.max_spice
            else "."
        ),
        *(
            [
                "The Kwisatz Haderach may go with your leader: choose "
                "“… with the Kwisatz Haderach” in the leader menu (rule 2.01.11)."
            ]
            if options.kwisatz_haderach
            else []
        ),
        "Plan: "
        + (draft.leader or "no leader")
        + (" with the Kwisatz Haderach" if draft.kwisatz_haderach else "")
        + f", dial {_number(draft.number)}"
        + (f", paying {draft.spice} spice" if draft.spice else "")
        + (", playing " + " and ".join(cards) if cards else ", no card")
        + ".",
        "Change it with the menus; **Lock** submits it (it cannot be changed after).",
    ]
    return "\n".join(lines)


def _part(state: GameState, fight: Battle | None) -> str:
    """ " (sectors 15-16)" where the storm splits the territory (one battle on each side,
    1.07.01); "" elsewhere."""
    if fight is None:
        return ""
    whole = [s for _, s in state.board[fight.territory].pieces()]
    numbers = [n for n in fight.sectors if n is not None]
    if not numbers or len(numbers) == len(whole):
        return ""
    return f" ({sectors_words(numbers)})"


def sectors_words(numbers: list[int]) -> str:
    """A run of sectors in words: "sectors 15-16", or "sector 15" alone."""
    if len(numbers) == 1:
        return f"sector {numbers[0]}"
    return f"sectors {numbers[0]}-{numbers[-1]}"


def plan_of(faction: Faction, options: PlanOptions, draft: Draft) -> BattlePlan:
    """The engine's action for a draft (the engine checks it when it is locked)."""
    return BattlePlan(
        faction,
        options.territory,
        draft.leader,
        draft.number,
        draft.weapon,
        draft.defense,
        draft.spice,
        draft.kwisatz_haderach,
    )
