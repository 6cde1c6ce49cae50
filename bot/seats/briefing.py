"""The briefing of a player who takes over a faction's seat mid-game (issue 25).

Posted in the faction's private channel once it has passed to them (its history above is
the faction's private history so far). Built only from that faction's own
:class:`~rules.view.PrivateView`, its own standing orders, the public wait and the seat's
tenures: never from another faction's secrets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.orders import StandingOrders
from bot.publisher import PrivateNotice
from bot.session.prompts import deadline_text
from bot.store import Tenure
from bot.waits import Wait
from bot.words import phase_words
from bot.words.status import status_text
from rules.factions import Faction
from rules.view import PrivateView

if TYPE_CHECKING:
    from bot.app import Mentat

ASKED = {"step": "it is your turn", "prompt": "a question waits for you", "choice": "a choice"}


def briefing_text(
    view: PrivateView,
    orders: StandingOrders | None,
    *,
    game_id: int,
    previous: int | None,
    wait: Wait | None,
    deadline: str,
    tenures: Sequence[Tenure],
) -> str:
    """What the newcomer holds and is asked now, and who held the seat before them."""
    faction = view.faction
    after = f", taking over from <@{previous}>" if previous is not None else ""
    lines = [
        f"You now play {faction.label} in game #{game_id}{after}. The messages "
        "above are this faction's private history so far; here is where it stands.",
        status_text(view, orders),
        *_secrets(view),
        _ally(view),
        _waiting(faction, wait, deadline),
        _history(tenures),
    ]
    return "\n".join(line for line in lines if line)


def _secrets(view: PrivateView) -> list[str]:
    """The faction's own secrets: each phase's words' (its traitors), its prediction."""
    secrets = view.secrets
    lines = []
    for words in phase_words.every():
        lines += words.briefing(view) if words.briefing is not None else []
    if secrets.prediction is not None:
        winner, turn = secrets.prediction
        lines.append(f"Your prediction: {winner.label} wins on turn {turn}.")
    return lines


def _ally(view: PrivateView) -> str:
    for pair in view.public.alliances:
        if view.faction in pair:
            allies = [Faction(f).label for f in pair if f != view.faction]
            return f"Your ally: {', '.join(allies)}."
    return "You have no ally."


def _waiting(faction: Faction, wait: Wait | None, deadline: str) -> str:
    if wait is None or faction not in wait.factions:
        return "The game does not wait on you now."
    what = ASKED.get(wait.kind, "your answer")
    return f"Now: {what} (deadline {deadline}); the prompt above still takes your answer."


def _history(tenures: Sequence[Tenure]) -> str:
    return f"This seat was held by: {tenure_words(tenures)}." if tenures else ""


def tenure_words(tenures: Sequence[Tenure]) -> str:
    """Who held one seat and from when: "<@1> from the start; <@2> from turn 3 (<t:…>)"."""
    said = []
    for n, tenure in enumerate(tenures):
        stamp = f"<t:{int(tenure.since.timestamp())}:f>"
        when = f"turn {tenure.turn} ({stamp})" if tenure.turn is not None else stamp
        said.append(f"<@{tenure.user_id}> from {'the start' if n == 0 else when}")
    return "; ".join(said)


async def seat_tenures(app: Mentat, game_id: int, faction: Faction) -> list[Tenure]:
    """The tenures of one seat of one game, in order (none while nobody holds it)."""
    holder = (await app.seats(game_id)).get(faction)
    if holder is None:
        return []
    guild_id = (await app.store.game(game_id)).guild_id
    return [
        t
        for t in await app.store.tenures(guild_id, holder)
        if t.game_id == game_id and t.faction is faction
    ]


async def seat_line(app: Mentat, game_id: int, faction: Faction) -> str | None:
    """For ``/status``: who held the seat before its player, if anyone did."""
    tenures = await seat_tenures(app, game_id, faction)
    return f"This seat was held by: {tenure_words(tenures)}." if len(tenures) > 1 else None


async def brief(
    app: Mentat, game_id: int, faction: Faction, newcomer: int, previous: int | None
) -> None:
    """Tell ``faction``'s new player, in its private channel, where the faction stands."""
    session = app.session(game_id)
    state = session.state
    if state is None or not state.in_game(faction):
        return
    tenures = await seat_tenures(app, game_id, faction)
    timers = session.settings.timers
    text = briefing_text(
        state.view_for(faction),
        session.orders.get(faction),  # the faction's own, never another's
        game_id=game_id,
        previous=previous,
        wait=session.current_wait(),
        deadline=deadline_text(timers.deadline, timers.paused_left),
        tenures=tenures,
    )
    wait = session.current_wait()
    # the newcomer is pinged once: by the briefing, or by the open prompt posted again
    # below it when the game waits on the faction (PhaseSession.seated)
    asked = wait is not None and faction in wait.factions
    await session.tell(PrivateNotice(faction, text, ping=not asked))
