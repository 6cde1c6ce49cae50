"""Words for the Revival phase the engine runs (1.05), and for every revival whatever
brought it (the Emperor's Karama, the Tleilaxu Ghola, a moderator's record).

:func:`describe_revival_event` gives the public sentence of each revival: who revives what,
for how much. :func:`own_lines` gives one faction its own side (the spice left after paying),
read from its :class:`~rules.view.PrivateView`. :func:`revival_prompt` is what a faction is
asked; :func:`revive_words` and :func:`ally_forces` a revival in words, for the commands'
replies and choices. :data:`REVIVAL_WORDS` registers them for the generic words
(:mod:`bot.words.phase_words`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from bot.orders import asked_alike
from bot.publisher import Answer, PrivateNotice
from bot.words.common import and_list, plural
from bot.words.phase_words import OrderWords, PhaseWords, register
from rules.actions import Action, Pass, PlayGhola
from rules.events import Event, KaramaPower
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.revival import phase as revival
from rules.revival.actions import KaramaRevive, PayAllyRevival, Revive
from rules.revival.events import Revived
from rules.revival.model import REVIVAL_RULE, RevivalStep, revivals, reviving
from rules.revival.orders import ORDER
from rules.view import PrivateView

EMPEROR_KARAMA_RULE = "1.14.02"
GHOLA_RULE = "3.01.20"
EMPEROR_ALLY_RULE = "2.03.07"


def _tokens(forces: int, special: int) -> str:
    """``3 forces and 1 starred force``; ``no forces`` for none."""
    parts = [plural(n, noun) for n, noun in ((forces, "force"), (special, "starred force")) if n]
    return and_list(parts) or "no forces"


# -- public sentences --------------------------------------------------------------------


def describe_revival_event(event: Event) -> str | None:
    """The public sentence of a revival, or of the Emperor's Karama played for one (None
    for any other event)."""
    match event:
        case KaramaPower(faction=faction, card=card, power="revive"):
            return f"{faction.label} plays {card} for a free revival (once a game)."
        case Revived(rule=rule) as revived if rule == EMPEROR_ALLY_RULE:
            count = revived.forces + revived.special
            return (
                f"The Emperor pays for {count} of its ally's forces beyond its limit "
                f"(2 spice each): {_revived(revived)} more."
            )
        case Revived(rule=rule) as revived if rule == EMPEROR_KARAMA_RULE:
            return f"{_revived(revived)} for free (the Emperor's once-a-game power)."
        case Revived(faction=faction, rule=rule) as revived if rule == GHOLA_RULE:
            what = _revived(revived).removeprefix(f"{faction.label} ")
            return f"{faction.label} plays Tleilaxu Ghola: it {what}, free."
        case Revived(faction=faction, leader=leader, cost=cost) as e:
            brought = [_tokens(e.forces, e.special)] if e.forces or e.special else []
            if leader:
                brought.append(f"the leader {leader}")
            paid = f"for {cost} spice" if cost else "for free"
            return f"{faction.label} revives {and_list(brought) or 'nothing'} {paid}."
    return None


def _revived(event: Revived) -> str:
    parts = []
    if event.forces:
        parts.append(plural(event.forces, "force"))
    if event.special:
        parts.append(f"{event.special} {event.faction.starred}")
    if event.leader:
        parts.append(f"the leader {event.leader}")
    return f"{event.faction.label} revives {and_list(parts) or 'nothing'}"


# -- a faction's own side ----------------------------------------------------------------


def own_lines(events: Iterable[Event], view: PrivateView) -> list[str]:
    """What ``view.faction`` alone learns from revivals: the spice it paid, and what it
    holds now."""
    own = view.faction
    paid = sum(e.cost for e in events if isinstance(e, Revived) and e.faction is own)
    return [f"You pay {paid} spice; you now hold {view.spice}."] if paid else []


# -- what a faction is asked ---------------------------------------------------------------


MAX_FORCES = 3  # a faction's own revival's forces at most (1.05.01)
Revival = Revive | KaramaRevive | PlayGhola


def revival_candidates(
    state: GameState,
    faction: Faction,
    kind: type[Revive] | type[KaramaRevive] | type[PlayGhola],
    most: int = MAX_FORCES,
) -> list[Revival]:
    """The revivals of ``kind`` (a revival, the Emperor's Karama revival, a Ghola) that
    ``faction`` could ask for, from its own tanks: forces, starred forces, one leader."""
    if not state.in_game(faction):
        return []
    own = state.public_view().faction(faction)
    tanks = state.whole.held(state.whole.leaders_tanks, faction)
    leaders: list[str | None] = [None, *dict.fromkeys(tanks)]
    return [
        kind(faction, forces=n, special=s, leader=leader)
        for n in range(min(own.tanks, most) + 1)
        for s in range(min(own.special_tanks, most) + 1)
        for leader in leaders
    ]


def priced(state: GameState, actions: Iterable[Revival]) -> list[tuple[Revival, int]]:
    """The revivals the engine would take now, each with its price in spice."""
    found: list[tuple[Revival, int]] = []
    for action in actions:
        if not state.is_legal(action):
            continue
        trial = state.dry_run(action)
        cost = sum(e.cost for e in trial.events if isinstance(e, Revived))
        found.append((action, cost))
    return found


def revive_options(state: GameState, faction: Faction) -> list[tuple[Revival, int]]:
    """Each revival the engine would take from ``faction`` now, with its price in spice."""
    return priced(state, revival_candidates(state, faction, Revive))


def revive_words(action: Revival, cost: int | None = None) -> str:
    """A revival in words: "3 forces, 1 Sardaukar and Bashar for 4 spice"."""
    parts: list[str] = []
    forces, special, leader = action.forces, action.special, action.leader
    if forces:
        parts.append(plural(forces, "force"))
    if special:
        parts.append(f"{special} {action.faction.starred}")
    if leader:
        parts.append(str(leader))
    what = and_list(parts) or "nothing more"
    if cost is None:
        return what
    return f"{what} for {cost} spice" if cost else f"{what}, free"


def revival_prompt(
    state: GameState, faction: Faction, token: str | None, deadline: str
) -> PrivateNotice:
    """A faction's private revival prompt: what it may revive and the price."""
    mine = state.view_for(faction)
    own = mine.public.faction(faction)
    options = revive_options(state, faction)
    best = sorted(options, key=lambda o: (-(o[0].forces + o[0].special), o[1]))[:5]
    tanks = plural(own.tanks, "force")
    if own.special_tanks:
        tanks += f" and {own.special_tanks} {faction.starred}"
    lines = [
        f"**Turn {state.whole.turn}, Revival**: your revival (everyone decides at once).",
        f"In the Tleilaxu Tanks: {tanks}. You hold {mine.spice} spice.",
    ]
    if best:
        lines.append(
            "You may revive, e.g.: " + "; ".join(revive_words(a, c) for a, c in best) + "."
        )
    lines.append(
        "Revive with `/revive forces [special] [leader]` (it lists your choices and their "
        "price), or take your free revival only with the button. If you do not answer in "
        f"time, you get your free revival only. Deadline: {deadline}."
    )
    ally = ally_revival_words(state, faction)
    if ally:
        lines.insert(-1, ally)
    revived = faction in revivals(state.whole).done
    if revived:  # the Emperor, with only its ally's forces to decide
        lines[-1] = (
            f"Your own revival is done. If you do not answer in time, you pay for none of "
            f"your ally's forces. Deadline: {deadline}."
        )
    if alike := asked_alike(state, faction):
        lines.append(alike)
    free = Answer(Pass(faction), "Pay for none" if revived else "Free revival only", "Passed")
    answers = [replace(free, quiet=True)] if state.is_legal(Pass(faction)) else []
    return PrivateNotice(faction, "\n".join(lines), answers=tuple(answers), token=token)


def answer_words(action: Action) -> str | None:
    """A revival in its faction's words (None for any other action)."""
    match action:
        case Revive():
            return f"you revive {revive_words(action)}"
        case PayAllyRevival(forces=forces, special=special):
            return f"you pay for {ally_forces(forces, special)} of your ally beyond its limit"
        case KaramaRevive():  # the revival's Karama (the Emperor's once-a-game power)
            return f"you play a Karama to revive {revive_words(action)} free"
        case PlayGhola():
            return f"you play Tleilaxu Ghola to revive {revive_words(action)} free"
    return None


def ally_forces(forces: int, special: int) -> str:
    """The ally's forces the Emperor pays for, in words: "2 forces and 1 starred force"."""
    parts = [plural(forces, "force")] if forces else []
    parts += [plural(special, "starred force")] if special else []
    return and_list(parts) or "no forces"


def ally_revival_options(state: GameState, faction: Faction) -> list[tuple[PayAllyRevival, int]]:
    """The Emperor's payments for its ally's forces open now, each with its price (the
    engine's own list; empty for anyone else or when it is not asked)."""
    if not state.in_game(faction) or faction not in state.waiting_on():
        return []
    return list(revival.ally_revival_options(state, faction))


def ally_revival_words(state: GameState, faction: Faction) -> str | None:
    """The Emperor's prompt line for its ally's forces beyond the ally's limit (2.03.07)."""
    options = ally_revival_options(state, faction)
    if not options:
        return None
    most = max(a.forces + a.special for a, _ in options)
    return (
        f"You may also pay for up to {plural(most, 'force')} of your ally's beyond its limit "
        "(2 spice each, 2.03.07) with `/revive-ally forces [special]`; the free-revival "
        "button declines that too."
    )


def options(state: GameState, faction: Faction) -> list[str]:
    """The revivals a faction may choose now, in words."""
    kinds = {a.name for a in state.legal_actions(faction)}
    out: list[str] = []
    if "revive" in kinds:
        out.append("revive forces (2 spice each beyond your free ones, 3 a turn) or a leader")
    if "karama_revive" in kinds:
        out.append("play a Karama to revive up to 3 forces or a leader free (once a game)")
    return out


def declined(state: GameState, faction: Faction) -> tuple[str, str, str | None] | None:
    """What a pass declines in the Revival phase: all but the free revival."""
    if not reviving(state.whole):
        return None
    return "you take your free revival only", "your revival", REVIVAL_RULE


def _order(value: str) -> str:
    """The revival's standing order in words (:mod:`rules.revival.orders`)."""
    return {"free": "free revival only (you are not asked)"}.get(value, "as ordered")


REVIVAL_WORDS = register(
    PhaseWords(
        GamePhase.REVIVAL,
        name="Revival",
        describe=describe_revival_event,
        own_lines=own_lines,
        own_side=(Revived,),
        answer=answer_words,
        options=options,
        prompt=revival_prompt,
        steps={RevivalStep.REVIVE: "what to revive beyond their free revival"},
        step_passes={RevivalStep.REVIVE: "pass (your free revival alone)"},
        declines=declined,
        passes={"": "takes only its free revival"},
        pass_answer="you take your free revival only",
        order=OrderWords(ORDER.name, "Revival", _order),
    )
)
"""The Revival phase's words (its events, its prompt, its choices and its pass), for the
generic words."""
