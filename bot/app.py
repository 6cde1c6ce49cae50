"""The application: every active game's session, over one store and one publisher.

This is what a front end (the Discord cogs, the demo) talks to. It never
imports discord: channels are plain integer ids, players are user ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any

from bot.clock import Clock, SystemClock
from bot.ledger import Ledger, SubmitResult
from bot.orders import OrderError, StandingOrders, order_title
from bot.publisher import PrivateNotice, PublicNotice, Publisher
from bot.render.maps import MapMaker
from bot.seats.pinger import Pinger
from bot.seats.reliability import require_level
from bot.session.session import PhaseSession, SessionError
from bot.settings import AllyOffer, GameSettings
from bot.starts import FREMEN_START, standard_start, whole_game_start
from bot.store import GameRecord, Store
from bot.waits import game_over
from bot.words import narrate
from rules.actions import (
    Correction,
    FactionAction,
    GiveCard,
    PhaseDone,
    Record,
    SetSpice,
    Ship,
    TakeCard,
)
from rules.components import treachery_card
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.scenario import ScenarioError

log = logging.getLogger(__name__)

CHANNEL_ROLES = ("table", "spectators", "moderators", "category")
ORDER_OWNERS = {
    "guild_timing": Faction.SPACING_GUILD,
    "advise": Faction.BENE_GESSERIT,
    "intrusion": Faction.BENE_GESSERIT,
}
"""Standing orders only one faction can give (anyone may give a Karama order)."""


@dataclass(frozen=True, slots=True)
class _Launch:
    run: Callable[[], Any]
    done: asyncio.Future[Any]


@dataclass(frozen=True, slots=True)
class Seat:
    game_id: int
    faction: Faction | None  # None: not seated (a moderator or a spectator)
    moderator: bool


class Mentat:
    """Runs the sessions of every active game; finds a game from a channel."""

    def __init__(
        self,
        store: Store,
        publisher: Publisher,
        clock: Clock | None = None,
        *,
        render_executor: Executor | None = None,
    ) -> None:
        self.store = store
        self.publisher = publisher
        self.clock = clock or SystemClock()
        self.render_executor = render_executor  # maps are drawn here (a process pool in prod)
        self.sessions: dict[int, PhaseSession] = {}
        self._channels: dict[int, int] = {}
        self._seats: dict[int, dict[Faction, int]] = {}
        self._launches: asyncio.Queue[_Launch] = asyncio.Queue()
        self._launcher: asyncio.Task[None] | None = None
        self.pinger = Pinger(self)  # reminders, heads-up, quiet hours (bot.seats.pinger)

    async def start(self) -> None:
        """Load every active game and start its session.

        From now on the sessions of new games are started by the application's own
        task, so they belong to the application, not to the request that created them.
        """
        self._launcher = asyncio.create_task(self._launch_loop(), name="mentat-launcher")
        self.pinger.start()
        for ledger in await Ledger.open_active(self.store):
            try:
                await self._start_session(ledger.record, ledger)
            except Exception:
                log.exception("could not start game %d", ledger.game_id)

    async def stop(self) -> None:
        await self.pinger.stop()
        if self._launcher is not None:
            self._launcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._launcher
            self._launcher = None
        for game_id, session in self.sessions.items():
            try:
                await session.stop()
            except Exception:  # the other games still stop, and the store still closes
                log.exception("game %d: its session did not stop cleanly", game_id)
        ledgers = [s.ledger for s in self.sessions.values() if s.ledger is not None]
        try:
            await Ledger.checkpoint_all(self.store, ledgers)  # the next start-up replays nothing
        except Exception:
            log.exception("the games' ledgers were not checkpointed")
        self.sessions.clear()

    async def create_game(
        self,
        guild_id: int,
        start: GameState,
        *,
        channels: Mapping[str, int],
        settings: GameSettings | None = None,
        moderators: tuple[int, ...] = (),
    ) -> PhaseSession:
        """Store a new game at ``start`` (a Shipment & Movement phase, or a whole game at its
        set-up: its seed goes into the log with it) and run it; a whole game's table hears
        that it begins."""
        game_id = await self.store.create_game(
            guild_id,
            start,
            channels=channels,
            settings=settings,
            variants=[k for k, v in start.rules.to_dict()["variants"].items() if v],
            moderators=moderators,
        )
        session: PhaseSession = await self._launch(lambda: self._start_session_of(game_id))
        if start.game_phase is not GamePhase.SHIPMENT_MOVEMENT:  # else the phase's opening
            await session.announce(start.start_events, note=narrate.GAME_BEGINS)
        return session

    async def _start_session_of(self, game_id: int) -> PhaseSession:
        return await self._start_session(await self.store.game(game_id))

    async def _launch(self, run: Callable[[], Any]) -> Any:
        """Run ``run`` (which starts or stops sessions) in the application's task."""
        if self._launcher is None or asyncio.current_task() is self._launcher:
            return await run()
        launch = _Launch(run, asyncio.get_running_loop().create_future())
        self._launches.put_nowait(launch)
        return await launch.done

    async def _launch_loop(self) -> None:
        while True:
            launch = await self._launches.get()
            try:
                launch.done.set_result(await launch.run())
            except Exception as error:
                launch.done.set_exception(error)

    async def _start_session(
        self, record: GameRecord, ledger: Ledger | None = None
    ) -> PhaseSession:
        settings = record.settings
        session = PhaseSession(
            record.id,
            store=self.store,
            publisher=self.publisher,
            clock=self.clock,
            timing=settings.timing,
            renderer=MapMaker(settings.maps, turn=settings.turn, executor=self.render_executor),
            ledger=ledger,
        )
        await session.start()
        self.sessions[record.id] = session
        for channel in record.channels.values():
            self._channels[int(channel)] = record.id
        for channel in settings.channels.private.values():
            self._channels[channel] = record.id
        return session

    async def rebind_channels(
        self, game_id: int, channels: Mapping[str, int], private: Mapping[Faction, int]
    ) -> tuple[int, int]:
        """Bind the game to repaired channels (a moderator's ``/mod channels``) and send
        them what they missed; returns how many kept messages that is, and how many open
        prompts were posted again in private channels made again."""
        counts = await self.session(game_id).rebind(channels, private)
        for channel in [*channels.values(), *private.values()]:
            self._channels[int(channel)] = game_id
        return counts

    async def channel_deleted(self, channel_id: int) -> None:
        """A channel was deleted: a game whose table it was pauses until it is repaired."""
        game_id = self._channels.get(channel_id)
        if game_id not in self.sessions:
            return
        if (await self.store.game(game_id)).channels.get("table") == channel_id:
            await self.sessions[game_id].table_lost("its table channel was deleted")

    async def guild_left(self, guild_id: int) -> None:
        """The bot left (or was removed from) a server: its games pause."""
        for game_id, session in list(self.sessions.items()):
            if (await self.store.game(game_id)).guild_id == guild_id:
                await session.table_lost("the bot is no longer in its server")

    def game_in(self, channel_id: int) -> int:
        """The game a channel belongs to; SessionError if none."""
        game_id = self._channels.get(channel_id)
        if game_id is None:
            raise SessionError("this channel belongs to no Mentat game")
        return game_id

    def session(self, game_id: int) -> PhaseSession:
        try:
            return self.sessions[game_id]
        except KeyError:
            raise SessionError(f"game #{game_id} is not running") from None

    def register_channel(self, channel_id: int, game_id: int) -> None:
        self._channels[channel_id] = game_id

    async def seat_of(self, game_id: int, user_id: int, roles: Collection[int] = ()) -> Seat:
        """The user's faction in the game and whether they moderate it.

        ``roles`` are the ids of the user's roles in the game's guild (a front end
        looks them up): holders of the game's moderator role moderate it.
        """
        seats = await self.store.seats(game_id)
        faction = next((f for f, u in seats.items() if u == user_id), None)
        moderator = await self.is_moderator(game_id, user_id, roles)
        return Seat(game_id, faction, moderator)

    async def is_moderator(self, game_id: int, user_id: int, roles: Collection[int] = ()) -> bool:
        """A listed moderator of the game, or a holder of its moderator role."""
        if await self.store.is_moderator(game_id, user_id):
            return True
        return await self.moderator_role_in(game_id, roles)

    async def moderator_role_in(self, game_id: int, roles: Collection[int]) -> bool:
        """Whether ``roles`` include the game's moderator role (set at its creation)."""
        if not roles:
            return False
        role = (await self.store.settings(game_id)).channels.moderator_role
        return role is not None and role in roles

    async def require_player(
        self, game_id: int, user_id: int, faction: Faction, *, roles: Collection[int] = ()
    ) -> None:
        """Only the seated player of a faction, or a moderator, acts for it."""
        seat = await self.seat_of(game_id, user_id, roles)
        if seat.faction is not faction and not seat.moderator:
            raise SessionError(f"you do not hold the {faction.label} seat in this game")

    async def require_moderator(
        self, game_id: int, user_id: int, *, roles: Collection[int] = ()
    ) -> None:
        """Listed moderators and current holders of the game's moderator role pass;
        others are refused.

        Checked at every use and never recorded: a role holder moderates only while
        they hold the role. This check is the authority, so the store is told that the
        request is authorised (and its log still names the moderator as the actor).
        """
        if not await self.is_moderator(game_id, user_id, roles):
            raise SessionError("only this game's moderators may do that")

    # -- seats, served from memory (autocomplete must answer within 3 seconds) -------

    async def seat(self, game_id: int, user_id: int, faction: Faction) -> int | None:
        """Give ``faction``'s seat to ``user_id``; returns who held it before (or None).

        One player, one seat: a user who holds another faction's seat is refused (a
        moderator seats someone else there first), as is a faction not in the game, and a
        player below the level of reliability the game requires (:mod:`bot.seats.reliability`).
        """
        state = self.session(game_id).state
        if state is None or not state.in_game(faction):
            raise SessionError(f"{faction.label} is not in this game")
        seats = await self.seats(game_id)
        held = next((f for f, u in seats.items() if u == user_id), None)
        if held is not None and held is not faction:
            raise SessionError(
                f"<@{user_id}> already plays {held.label}: one player, one seat (seat "
                f"someone else for {held.label} first to move them to {faction.label})"
            )
        previous = seats.get(faction)
        if previous != user_id:  # a game may seat only players of some reliability
            await require_level(self.store, game_id, user_id)
        await self.store.seat(game_id, user_id, faction, turn=state.turn)
        self._seats.pop(game_id, None)
        return previous

    async def seats(self, game_id: int) -> dict[Faction, int]:
        if game_id not in self._seats:
            self._seats[game_id] = await self.store.seats(game_id)
        return self._seats[game_id]

    async def faction_of(self, game_id: int, user_id: int) -> Faction | None:
        """The faction ``user_id`` holds in the game, or None."""
        return next((f for f, u in (await self.seats(game_id)).items() if u == user_id), None)

    # -- actions and the allies' payments -------------------------------------------------

    async def submit(
        self,
        game_id: int,
        action: FactionAction,
        *,
        actor: int,
        key: str,
        check: Callable[[], None] | None = None,
    ) -> SubmitResult:
        """Submit ``action`` to the game's session (``check`` as in
        :meth:`PhaseSession.submit`); an accepted shipment uses up the ally's offer for it."""
        session = self.session(game_id)
        result = await session.submit(action.faction, action, actor=actor, key=key, check=check)
        if isinstance(action, Ship) and action.faction in session.ally_offers:
            ally, _ = session.ally_offers[action.faction]
            await session.set_ally_offer(action.faction, ally, 0)
        return result

    async def offer_ally_payment(self, game_id: int, ally: Faction, amount: int) -> AllyOffer:
        """``ally`` consents to pay up to ``amount`` spice of its ally's next shipment.

        Stored with the game until that shipment is accepted or a new phase begins (a
        moderator's correction leaves it alone); 0 withdraws the offer. The shipper is told
        privately.
        """
        state = self.session(game_id).state
        if state is None:
            raise SessionError("this game has not started")
        if not state.in_game(ally):
            raise SessionError(f"{ally.label} is not in this game")
        shipper = state.ally_of(ally)
        if shipper is None or not state.in_game(shipper):
            raise SessionError(
                f"{ally.label} has no ally in this game, so there is no one to pay for"
            )
        if amount < 0:
            raise SessionError(f"cannot pay {amount} spice")
        offer = AllyOffer(ally, shipper, amount)
        await self.session(game_id).set_ally_offer(shipper, ally, amount)
        if amount:
            text = (
                f"Your ally {ally.label} will pay up to {amount} spice of your next shipment "
                "this turn (`/ship` uses it unless you give `ally_pays`)."
            )
        else:
            text = f"Your ally {ally.label} no longer offers to pay for your shipment."
        await self.session(game_id).tell(PrivateNotice(shipper, text))
        return offer

    def ally_offer(self, game_id: int, shipper: Faction) -> AllyOffer | None:
        """What ``shipper``'s ally has offered toward its next shipment, if anything."""
        offer = self.session(game_id).ally_offers.get(shipper)
        return AllyOffer(offer[0], shipper, offer[1]) if offer else None

    def with_ally_payment(
        self, game_id: int, action: Ship, given: int | None, *, moderator: bool = False
    ) -> Ship:
        """The shipment with its ally's share: ``given`` when the shipper names one,
        else the ally's offer (at most the shipment's cost).

        A player may not name more than the ally offered (the ally consents with
        ``/ally-pay``); a moderator may name any amount.
        """
        offer = self.ally_offer(game_id, action.faction)
        offered = offer.amount if offer is not None else 0
        if given is not None:
            if not moderator and given > offered and self._has_ally(game_id, action.faction):
                if offer is None:
                    raise SessionError(
                        "your ally has not offered to pay for this shipment (it consents "
                        f"with `/ally-pay`); you named ally_pays {given}"
                    )
                raise SessionError(
                    f"your ally offered {offered} spice toward this shipment, not {given}"
                )
            return replace(action, ally_pays=given)
        if not offered:
            return action
        return replace(action, ally_pays=min(offered, self._shipment_cost(game_id, action)))

    def recheck_ally_payment(
        self, game_id: int, action: FactionAction, given: int | None, *, moderator: bool = False
    ) -> None:
        """At Confirm: refuse a previewed shipment whose ally payment is no longer what the
        ally consents to now (it withdrew or changed its offer), telling the new figures."""
        if not isinstance(action, Ship):
            return
        now = self.with_ally_payment(
            game_id, replace(action, ally_pays=0), given, moderator=moderator
        )
        if now.ally_pays == action.ally_pays:
            return
        state = self.session(game_id).state
        ally = state.ally_of(action.faction) if state is not None else None
        who = ally.label if ally is not None else "your ally"
        cost = self._shipment_cost(game_id, action)
        yours = f"; you would pay {max(cost - now.ally_pays, 0)}" if cost < 10**6 else ""
        raise SessionError(
            f"{who}'s offer changed after your preview: {who} now pays {now.ally_pays} of "
            f"this shipment, not {action.ally_pays}{yours}. Nothing was shipped; "
            "use /ship again to see the new preview"
        )

    def _has_ally(self, game_id: int, faction: Faction) -> bool:
        state = self.session(game_id).state
        return state is not None and state.ally_of(faction) is not None

    def _shipment_cost(self, game_id: int, action: Ship) -> int:
        """The engine's price of ``action`` now (its RulesError when it refuses the shipment)."""
        state = self.session(game_id).state
        if state is None:
            raise SessionError("this game has not started")
        return state.shipment_price(action)

    # -- standing orders ------------------------------------------------------------------

    async def set_standing_order(
        self, game_id: int, faction: Faction, name: str, value: str
    ) -> StandingOrders:
        """Record one of ``faction``'s standing orders (OrderError for one it cannot give)."""
        owner = ORDER_OWNERS.get(name)
        if owner is not None and faction is not owner:
            raise OrderError(f"only the {owner.label} give a {order_title(name)} standing order")
        session = self.session(game_id)
        if session.state is not None and game_over(session.state):
            raise OrderError("the game is over, so there is nothing left to order")
        if name == "guild_timing" and value.startswith("before:"):
            _check_guild_before(session.state, value.removeprefix("before:"))
        current = session.orders.get(faction, StandingOrders())
        orders = StandingOrders.from_dict({**current.to_dict(), name: value})
        await session.set_orders(faction, orders)
        return orders

    # -- a moderator's record, correction, or a new position -------------------------------

    async def record(
        self,
        game_id: int,
        moderator: int,
        action: Record | PhaseDone,
        *,
        key: str,
        roles: Collection[int] = (),
    ) -> SubmitResult:
        """A moderator's record (battle; a correction in bidding or revival) or "phase
        done": an action of the log, announced publicly. Raises SessionError for a
        non-moderator, the engine's RulesError for a record the rules refuse (another
        phase's, more spice than held...)."""
        await self.require_moderator(game_id, moderator, roles=roles)
        return await self.session(game_id).record(moderator, action, key=key)

    async def correct(
        self,
        game_id: int,
        moderator: int,
        correction: Correction,
        *,
        key: str,
        roles: Collection[int] = (),
    ) -> SubmitResult:
        """Apply a moderator's correction (:mod:`rules.corrections`), announced publicly.

        It is an action in the game's log like a player's: ``/mod undo`` takes it back,
        and the phase goes on where it was (pause, prompts, orders and offers kept).
        Raises SessionError for a non-moderator, the engine's CorrectionError for a
        correction that cannot be made. A faction whose spice or hand is corrected is
        told privately what it holds now.
        """
        await self.require_moderator(game_id, moderator, roles=roles)
        result = await self.session(game_id).correct(moderator, correction, key=key)
        told = _told_privately(correction)
        if told is not None and not result.duplicate:
            await self.publisher.private(game_id, told)
        return result

    async def begin_phase(
        self,
        game_id: int,
        moderator: int,
        position: GameState,
        *,
        key: str,
        note: str,
        roles: Collection[int] = (),
    ) -> PhaseSession:
        """Restart the game's phase at a new ``position`` (moderators only: ``/game start
        position:``), announced publicly.

        The log keeps everything before it, but undo stops at this new start. The allies'
        pending offers end with the old phase.
        """
        await self.require_moderator(game_id, moderator, roles=roles)

        async def run() -> PhaseSession:
            old = self.session(game_id)
            for shipper, (ally, _) in list(old.ally_offers.items()):
                await old.set_ally_offer(shipper, ally, 0)
            await old.stop()
            assert old.ledger is not None
            await old.ledger.start_phase(moderator, position, key, authorised=True)
            return await self._start_session(await self.store.game(game_id), old.ledger)

        session: PhaseSession = await self._launch(run)
        view = position.public_view()
        text = f"{note}\n{narrate.describe_wait(view)}".strip()
        notice = PublicNotice(text, game_id=game_id)
        session.delivery.public(notice)
        session.delivery.spectators(notice)
        await session.until_idle()
        return session


def _told_privately(correction: Correction) -> PrivateNotice | None:
    """What a correction of its spice or hand tells the faction (the public is told less)."""
    match correction:
        case SetSpice(faction=faction, amount=amount):
            return PrivateNotice(faction, f"A moderator set your spice to {amount}.")
        case GiveCard(faction=faction, card=card):
            return PrivateNotice(faction, f"A moderator gave you {treachery_card(card) or card}.")
        case TakeCard(faction=faction, card=card):
            return PrivateNotice(
                faction, f"A moderator took {treachery_card(card) or card} from you."
            )
    return None


def _check_guild_before(state: GameState | None, wanted: str) -> None:
    """``before:<faction>`` must name another faction of this game."""
    before = Faction.parse(wanted)
    if before is Faction.SPACING_GUILD:
        raise OrderError("the Guild cannot act before itself; name another faction")
    if before is not None and state is not None and not state.in_game(before):
        raise OrderError(f"{before.label} is not in this game, so the Guild cannot act before it")


__all__ = [
    "FREMEN_START",
    "AllyOffer",
    "Mentat",
    "ScenarioError",
    "Seat",
    "standard_start",
    "whole_game_start",
]
