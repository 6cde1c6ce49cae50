"""Substitutes (issue 25): a moderator opens a faction's seat, volunteers press Join, a
moderator accepts one, and the seat passes (then :mod:`bot.seats.briefing` briefs them).

The open seat is named by what it was opened for: the game, the faction and who held it
then (0: nobody). A Join or an Accept for a seat that has been filled since is stale and
refused; so is a volunteer who plays another faction of the game (one player, one seat)
or is below the game's required level. The "seat open" post says nothing private."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.seats.reliability import require_level
from bot.words.common import duration
from rules.errors import MentatError
from rules.factions import Faction

if TYPE_CHECKING:
    from bot.app import Mentat


class SubstituteError(MentatError):
    """A Join or an Accept that cannot be carried out."""


async def holder_to_replace(app: Mentat, game_id: int, faction: Faction) -> int:
    """Who holds the seat being opened (0: nobody); refused for a faction not in a
    running game."""
    state = app.session(game_id).state
    if state is None or not state.in_game(faction):
        raise SubstituteError(f"{faction.label} is not in game #{game_id}")
    return (await app.seats(game_id)).get(faction, 0)


async def check_volunteer(
    app: Mentat, game_id: int, faction: Faction, holder: int, user_id: int
) -> None:
    """SubstituteError (or ReliabilityError) unless ``user_id`` may take the seat opened
    when ``holder`` held it."""
    seats = await app.seats(game_id)
    if seats.get(faction, 0) != holder:
        raise SubstituteError(f"the {faction.label} seat of game #{game_id} was filled already")
    if user_id == holder:
        raise SubstituteError(f"you hold the {faction.label} seat already")
    held = next((f for f, u in seats.items() if u == user_id), None)
    if held is not None:
        raise SubstituteError(f"you play {held.label} in game #{game_id}: one player, one seat")
    await require_level(app.store, game_id, user_id)


async def open_text(app: Mentat, game_id: int, faction: Faction) -> str:
    """The public "seat open" post: the faction, the game's speed, how a volunteer is
    seated; nothing private."""
    settings = await app.store.settings(game_id)
    timing = settings.timing
    who = (
        "the first volunteer takes the seat"
        if settings.seating.first_volunteer
        else "a moderator accepts one volunteer"
    )
    return (
        f"**Seat open in game #{game_id}: {faction.label}.** The game's speed: "
        f"{duration(timing.step)} for a turn's step, {duration(timing.prompt)} for a "
        f"question. Press Join to volunteer; {who}."
    )


async def own_seat_to_open(app: Mentat, game_id: int, user_id: int) -> Faction:
    """The seat a player opens to volunteers themselves (``/leave``): refused unless the
    game lets its players do so, and for someone who holds no seat in it."""
    seats = await app.seats(game_id)
    faction = next((f for f, u in seats.items() if u == user_id), None)
    if faction is None:
        raise SubstituteError(f"you hold no seat in game #{game_id}")
    if not (await app.store.settings(game_id)).seating.players_open:
        raise SubstituteError(
            f"in game #{game_id} only a moderator opens a seat (`/substitute open`): "
            "ask them in the table's channel"
        )
    return faction


def left_text(game_id: int, faction: Faction, user_id: int) -> str:
    """For the moderators: a player opened their own seat."""
    return (
        f"<@{user_id}> opened their {faction.label} seat of game #{game_id} to volunteers; "
        "they play on until a volunteer takes it."
    )


def taken_text(game_id: int, faction: Faction, user_id: int) -> str:
    """For the moderators: the first volunteer took the seat (no Accept needed)."""
    return f"<@{user_id}> took the {faction.label} seat of game #{game_id} as its first volunteer."


def volunteer_text(game_id: int, faction: Faction, user_id: int) -> str:
    """For the moderators: a volunteer to accept."""
    return f"<@{user_id}> volunteers for the {faction.label} seat of game #{game_id}."
