"""Karama in the whole turn: preventing the next use of a ✷ ability (3.01.11.02), the
Fremen's once-a-game worm (1.14.03), and the Fremen's choice to spare their ally.

The storm, spice blow and charity run by themselves, without a window in which a Karama
could cancel an ability just used; so a Karama against these abilities is played ahead:
any time in a whole game, by a faction holding one, it stops the *next* use of a named
✷ ability of another faction (the card is discarded at once, the play is public). The
engine remembers it and tells when it takes effect. Reading K1 in
``docs/whole-turn-readings.md``.
"""

from __future__ import annotations

from rules.actions import FremenAllyWorm, KaramaPrevent, KaramaWorm
from rules.errors import IllegalActionError, NotYourTurnError, RulesError, quote
from rules.events import AbilityStopped, Event, KaramaPower, KaramaPrevented
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.model import ADVANCED_ABILITIES, STOPPED_AHEAD, Ability
from rules.position import Position

KARAMA_RULE = "3.01.11"
WORM_POWER_RULE = "1.14.03"
ALLY_WORM_RULE = "2.04.10"
TURN_ABILITIES = tuple(a for a in Ability if a in STOPPED_AHEAD)
"""The ✷ abilities a Karama stops ahead of their next use, in the order they are declared."""
ADVANCED_ONLY = ADVANCED_ABILITIES


def karama_to_play(state: Position, faction: Faction, named: str | None) -> str:
    """The card ``faction`` plays as a Karama (the one ``named``, if it names one). A
    holder who names a card it lacks is told so, not that it holds no Karama card."""
    card = state.karama_card(faction, named)
    if card is not None:
        return card
    if named is not None and state.karama_card(faction) is not None:
        raise IllegalActionError(
            f"{faction.label} holds no card {quote(named)} to play as a Karama", rule=KARAMA_RULE
        )
    raise IllegalActionError(f"{faction.label} holds no Karama card", rule=KARAMA_RULE)


def prevent(state: Position, action: KaramaPrevent) -> list[Event]:
    """Stop the next use of a whole-turn ✷ ability of another faction."""
    faction, ability = action.faction, action.ability
    _check_preventable(state, faction, ability)
    card = karama_to_play(state, faction, action.card)
    state.discard(faction, card)
    state.set_game(prevented=state.whole.prevented | {ability.value})
    return [KaramaPrevented(faction=faction, card=card, ability=ability, rule=ability.rule)]


def _check_preventable(state: Position, faction: Faction, ability: Ability) -> None:
    game = state.whole
    if game.phase in (GamePhase.SETUP, GamePhase.OVER):
        raise NotYourTurnError("a Karama is played once the turns have begun", rule=KARAMA_RULE)
    state.check_nothing_resolving()
    owner = ability.owner
    if owner is faction:
        raise IllegalActionError(
            f"a Karama stops another faction's ability, not {faction.label}'s own",
            rule=KARAMA_RULE,
        )
    if owner not in state.factions:
        raise IllegalActionError(f"{owner.label} are not in this game", rule=KARAMA_RULE)
    if ability in ADVANCED_ONLY and not state.rules.advanced:
        raise IllegalActionError(
            f"{ability.value.replace('_', ' ')} is an advanced-game ability", rule=ability.rule
        )
    if ability.value in game.prevented:
        raise IllegalActionError(
            "a Karama already stops the next use of that ability", rule=KARAMA_RULE
        )


def may_prevent(state: Position, faction: Faction) -> list[Ability]:
    """The whole-turn abilities ``faction`` could stop now with a Karama it holds."""
    if state.karama_card(faction) is None:
        return []
    found = []
    for ability in TURN_ABILITIES:
        try:
            _check_preventable(state, faction, ability)
        except RulesError:
            continue
        found.append(ability)
    return found


def uses(state: Position, ability: Ability) -> tuple[bool, list[Event]]:
    """Whether ``ability`` works this time; a Karama waiting for it stops it once (event)."""
    if ability.value not in state.whole.prevented:
        return True, []
    state.set_game(prevented=state.whole.prevented - {ability.value})
    return False, [AbilityStopped(ability.owner, ability, ability.rule)]


# -- the Fremen's once-a-game Karama power: a worm where they choose (1.14.03) ---------


def check_power(state: Position, faction: Faction, owner: Faction, rule: str) -> None:
    """Refuse ``faction``'s use of ``owner``'s once-a-game Karama power (1.14) unless it is
    ``owner``, the game is advanced, and the power is still unused."""
    if faction is not owner:
        raise IllegalActionError(f"only the {owner.label} have this Karama power", rule=rule)
    if not state.rules.advanced:
        raise IllegalActionError("faction Karama powers are part of the advanced game", rule=rule)
    if owner in state.whole.karama_powers_used:
        raise IllegalActionError(
            f"the {owner.label} have used their Karama power this game", rule=rule
        )


def karama_worm(state: Position, action: KaramaWorm) -> list[Event]:
    """The Fremen play a Karama for a worm in a sand territory at the next spice blow; the
    play is public, the territory stays their secret until the worm comes up."""
    fremen = Faction.FREMEN
    game = state.whole
    check_power(state, action.faction, fremen, WORM_POWER_RULE)
    state.check_nothing_resolving()
    if game.karama_worm is not None:
        raise IllegalActionError(
            "the Fremen have used their Karama power this game", rule=WORM_POWER_RULE
        )
    if game.phase in (GamePhase.SETUP, GamePhase.OVER, GamePhase.SPICE_BLOW):
        raise NotYourTurnError(
            "the Karama worm is played before a Spice Blow phase begins, and appears there",
            rule=WORM_POWER_RULE,
        )
    where = state.territory(action.territory, rule=WORM_POWER_RULE)
    if where.kind != "sand":
        raise IllegalActionError(
            f"the worm is placed in a sand territory; {where.name} is {where.kind}",
            rule=WORM_POWER_RULE,
        )
    card = state.karama_card(fremen, action.card)
    if card is None:
        raise IllegalActionError("the Fremen hold no Karama card", rule=WORM_POWER_RULE)
    state.discard(fremen, card)
    used = game.karama_powers_used | {fremen}
    state.set_game(karama_powers_used=used, karama_worm=where.name)
    return [KaramaPower(fremen, card, "worm", None, WORM_POWER_RULE)]  # where: secret till then


def may_karama_worm(state: Position, faction: Faction) -> bool:
    game = state.game
    return (
        faction is Faction.FREMEN
        and state.rules.advanced
        and faction not in game.karama_powers_used
        and game.phase not in (GamePhase.SETUP, GamePhase.OVER, GamePhase.SPICE_BLOW)
        and state.karama_card(faction) is not None
    )


# -- the Fremen's ally and the worm (2.04.10) ----------------------------------------


def ally_worm(state: Position, action: FremenAllyWorm) -> list[Event]:
    """The Fremen say, privately and ahead, whether the worm spares their ally."""
    if action.faction is not Faction.FREMEN:
        raise IllegalActionError("only the Fremen decide who the worm spares", rule=ALLY_WORM_RULE)
    if state.whole.phase is GamePhase.OVER:
        raise NotYourTurnError("the game is over", rule=ALLY_WORM_RULE)
    state.check_nothing_resolving()
    state.set_game(fremen_expose_ally=not action.protect)
    return []


def spares_ally(state: Position) -> bool:
    """Whether the Fremen's alliance spares their ally now (their choice, secret until then)."""
    return not state.whole.fremen_expose_ally
