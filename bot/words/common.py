"""The players' words for the engine's names: kinds of action, abilities, forces.

The engine names things with ids (``cross_ship``, ``karama_cancel``); nothing a player
reads carries one. Every text that lists what a faction may do goes through here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import timedelta

from rules.factions import Faction
from rules.model import Ability

ABILITY_NAMES = {
    "fremen_movement": "the Fremen move of two territories",
    "storm_migration": "Storm Migration",
    "guild_payment": "the Guild's payment for shipment",
    "cross_ship": "the Guild's cross-ship",
    "off_planet": "the Guild's shipment back to reserves",
    "half_price": "the Guild's half-price shipping",
    "ally_half_price": "the Guild ally's half-price shipping",
    "ally_cross_ship": "the Guild ally's cross-ship",
    "ship_as_it_pleases_you": "the Guild's timing (Ship As It Pleases You)",
    "spiritual_advisors": "Spiritual Advisors",
    "intrusion": "Intrusion",
    "take_up_arms": "Take Up Arms",
    "wartime": "Wartime",
    "bg_karama": "the Bene Gesserit's card played as a Karama",
    "storm_coming": "the Fremen's look at the next storm card (There's a Storm Coming)",
    "storm_losses": "the Fremen's half losses to the storm",
    "shai_hulud": "the Fremen's safety from the worm (Shai-Hulud)",
    "ally_worm": "the Fremen's protection of their ally from the worm",
    "sandworms": "the Fremen's placing of the later worms (Sandworms)",
    "bg_charity": "the Bene Gesserit's charity",
    "prescience": "the Atreides' Prescience",
    "voice": "the Bene Gesserit's Voice",
    "sardaukar": "the Sardaukar's double strength",
    "fedaykin": "the Fedaykin's double strength",
    "battle_hardened": "the Fremen's battle hardening (no spice needed)",
    "capture": "the Harkonnen's capture of a leader",
    "atreides_bidding": "the Atreides' look at each card on offer",
    "emperor_payment": "the Emperor's payment for treachery cards",
    "top_card": "the Harkonnen's free card with each purchase (Top Card)",
    "ally_revival": "the Emperor's payment for its ally's revival",
    "fremen_ally_revival": "the Fremen's gift of 3 free revivals to their ally",
}

ACTION_WORDS = {
    "ship": "ship",
    "send": "send forces (Fremen)",
    "cross_ship": "cross-ship",
    "ship_to_reserves": "ship back to reserves",
    "move": "move",
    "pass": "pass",
    "decline": "decline",
    "hajr": "play Hajr",
    "karama_cancel": "cancel it with Karama",
    "karama_prevent": "prevent an ability with Karama",
    "karama_stop_shipment": "stop the shipment with Karama",
    "advise": "send a spiritual advisor",
    "flip": "flip your forces between fighters and advisors",
    "guild_now": "act now",
    "guild_delay": "delay your turn",
    "battle": "name your next battle",
    "battle_plan": "submit your battle plan",
    "prescience": "use Prescience",
    "voice": "use the Voice",
    "call_traitor": "call a traitor",
    "keep_cards": "keep the cards you played",
    "capture": "capture or kill the drawn leader",
    "bid": "bid",
    "karama_buy": "take the card on offer with Karama",
    "support_bids": "commit spice to your ally's bids",
    "karama_take_hand": "take a hand with Karama",
    "give_back_cards": "give cards back",
    "give_spice": "give spice to your ally",
    "revive": "revive",
    "karama_revive": "revive with Karama",
    "ghola": "play Tleilaxu Ghola",
    "truthtrance": "play Truthtrance (ask another player a yes/no question)",
    "truthtrance_answer": "answer the Truthtrance question (yes or no)",
}

STARRED = {f: f.starred for f in (Faction.EMPEROR, Faction.FREMEN)}
"""What the board calls a faction's starred forces."""


def possessive(faction: Faction | str) -> str:
    """A faction's name (or a name) owning something: "Atreides' plan", "Emperor's plan"."""
    label = faction.label if isinstance(faction, Faction) else faction
    return f"{label}'" if label.endswith("s") else f"{label}'s"


def action_word(kind: str) -> str:
    """A kind of action as a player says it (an unknown kind loses its underscores)."""
    return ACTION_WORDS.get(kind, kind.replace("_", " "))


def either(words: Iterable[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(dict.fromkeys(words))
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def may_do(kinds: Iterable[str]) -> str:
    """What a faction may do now, e.g. "You may ship, move or pass."."""
    given = list(kinds)
    last = [k for k in given if k in ("pass", "decline")]  # saying no comes last
    words = [action_word(k) for k in [*(k for k in given if k not in last), *last]]
    return f"You may {either(words)}." if words else "You have nothing to do right now."


def ability_word(ability: Ability | str) -> str:
    """A ✷ ability as the rules print it, e.g. "the Guild's cross-ship"."""
    value = ability.value if isinstance(ability, Ability) else ability
    return ABILITY_NAMES.get(value, value.replace("_", " "))


def starred(faction: Faction | None) -> str:
    """The noun of ``faction``'s starred forces ("Sardaukar", "Fedaykin", "starred")."""
    return STARRED.get(faction, "starred") if faction is not None else "starred"


PLACE = re.compile(
    r"^\s*(?P<territory>.*?)[\s,(]*\bsector\s+(?P<sector>\d{1,2})\s*\)?\s*(?::.*)?$",
    re.IGNORECASE,
)


def join_place(territory: str, sector: int | None) -> str:
    """A territory and sector as one choice: "Hagga Basin, sector 12"."""
    return territory if sector is None else f"{territory}, sector {sector}"


def split_place(text: str) -> tuple[str, int | None]:
    """What :func:`join_place` wrote (or a player typed: "Hagga Basin sector 12",
    "Arrakeen (sector 9)"), as a territory and a sector (None when none is named)."""
    found = PLACE.match(text) if len(text) <= 100 else None  # longer: no territory
    if found is None or not found["territory"]:
        return text.strip(), None
    return found["territory"], int(found["sector"])


def duration(span: timedelta) -> str:
    """A length of time in words: "1 day 2 hours", "30 minutes"."""
    minutes = int(span.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    said = [f"{n} {unit}{'s' * (n != 1)}" for n, unit in parts if n]
    return " ".join(said) or "less than a minute"


def plural(n: int, noun: str) -> str:
    """``3 forces``, ``1 force``."""
    return f"{n} {noun}{'s' * (n != 1)}"


def and_list(items: Sequence[str]) -> str:
    """``a, b and c``; one item alone; "" for none."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
