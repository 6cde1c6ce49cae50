"""The private battle plan builder in words (1.07.04): the menus of what may go in a plan
for the battle under way, a draft's summary, and the plan it makes.

Everything is read from :meth:`rules.game.GameState.battle_plan_options` for the one
faction building its plan, so a menu offers only what is legal for this battle: leaders
free this phase (or a Cheap Hero), the cards in hand that fit each slot, numbers up to the
forces there, spice up to what may be paid. The Voice's command and the Atreides'
Prescience are shown; the engine checks the whole plan when it is locked. Nothing here is
ever shown to anyone but the plan's owner (and a current moderator acting for it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.actions import BattlePlan
from rules.battle_plans import PlanOptions
from rules.factions import Faction
from rules.game import GameState

NONE = "-"
"""A menu's value for "nothing in this slot" (a select needs a non-empty value)."""
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
            return replace(self, spice=max(0, int(value)) if value.isdigit() else 0)
        if field == "kwisatz_haderach":
            return replace(self, kwisatz_haderach=value == "yes")
        if field == "leader":
            return replace(self, leader=given)
        if field == "weapon":
            return replace(self, weapon=given)
        if field == "defense":
            return replace(self, defense=given)
        return self


def _dial(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        return 0
    return number if 0 <= number <= 100 else 0


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def first_draft(options: PlanOptions) -> Draft:
    """Where a builder starts: the weakest free leader (one must lead if any is free), no
    card, dial 0, no spice."""
    leaders = [*options.leaders, *options.cheap_heroes]
    return Draft(leader=leaders[0] if options.must_lead and leaders else None)


def menus(options: PlanOptions) -> dict[str, Menu]:
    """Each menu of the builder: (label, value) pairs, at most 25 each; a menu with no
    real choice (e.g. no spice may be paid) is left out."""
    out: dict[str, Menu] = {}
    leaders: Menu = [(f"Leader: {n}", n) for n in options.leaders]
    leaders += [(f"Cheap Hero card: {n}", n) for n in options.cheap_heroes]
    if not options.must_lead:
        leaders.append(("No leader", NONE))
    out["leader"] = leaders[:MENU_LIMIT]
    step = 0.5 if options.halves else 1
    count = int(options.max_number / step) + 1
    dials = [i * step for i in range(count)]
    if len(dials) > MENU_LIMIT:  # never: 20 forces is the most in one territory
        dials = dials[-MENU_LIMIT:]
    out["number"] = [(f"Dial {_number(d)}", _number(d)) for d in dials]
    out["weapon"] = [("No weapon", NONE)] + [(f"Weapon: {c}", c) for c in options.weapons]
    out["defense"] = [("No defense", NONE)] + [(f"Defense: {c}", c) for c in options.defenses]
    out["weapon"] = out["weapon"][:MENU_LIMIT]
    out["defense"] = out["defense"][:MENU_LIMIT]
    if options.max_spice:
        top = min(options.max_spice, MENU_LIMIT - 1)
        out["spice"] = [(f"Pay {n} spice for the dial", str(n)) for n in range(top + 1)]
    if options.kwisatz_haderach:
        out["kwisatz_haderach"] = [
            ("With the Kwisatz Haderach", "yes"),
            ("Without the Kwisatz Haderach", "no"),
        ]
    return out


def constraints(state: GameState, faction: Faction, options: PlanOptions) -> list[str]:
    """The Voice's command binding this plan and what Prescience will show, in words."""
    out: list[str] = []
    if options.voice is not None:
        command, kind = options.voice
        verb = "play" if command == "play" else "not play"
        out.append(f"The Voice: you must {verb} {kind} if you can (rule 2.02.06).")
    fight = state.whole.battle
    by = fight.prescience_by if fight is not None else None
    if fight is not None and fight.prescience and by not in (None, faction, state.ally_of(faction)):
        what = ASKED.get(fight.prescience, fight.prescience)
        out.append(f"Prescience: the Atreides see {what} as soon as it is in (rule 2.01.08).")
    return out


def summary(state: GameState, faction: Faction, options: PlanOptions, draft: Draft) -> str:
    """The builder's message: the battle, the constraints, the plan so far, how to lock."""
    fight = state.whole.battle
    against = fight.opponent(faction).label if fight is not None else "your opponent"
    cards = [c for c in (draft.weapon, draft.defense) if c]
    lines = [
        f"**Your battle plan in {options.territory}** against {against} "
        "(only you see this until both plans are revealed).",
        *constraints(state, faction, options),
        f"Forces there: {options.forces.fighters}; the most you may dial: "
        f"{_number(options.max_number)}"
        + (
            f"; spice you may pay: up to {options.max_spice} (set it with `/battle-plan spice:`)."
            if options.max_spice
            else "."
        ),
        *(
            ["The Kwisatz Haderach may go with your leader (`/battle-plan kwisatz_haderach:`)."]
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
