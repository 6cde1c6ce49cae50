"""What a session keeps with its game's settings, so that a restart finds it again: the
settings themselves (channels, timing, seating), each faction's standing orders, the
allies' offers to pay for a shipment, and the session's timers (its deadline, prompt
messages, offer and missed deadlines, which the session gives as it saves).

The session's task alone writes the settings, whole, so no write is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from bot.orders import StandingOrders
from bot.settings import AllyOffer, GameSettings, SessionTimers
from bot.store import Store
from rules.factions import Faction


class Kept:
    """The game's settings as the session last read or wrote them."""

    def __init__(self, store: Store, game_id: int, timers: Callable[[], SessionTimers]) -> None:
        self._store = store
        self._game_id = game_id
        self._timers = timers  # the session's timers as they are now
        self.settings = GameSettings()
        self.orders: dict[Faction, StandingOrders] = {}
        self.ally_offers: dict[Faction, tuple[Faction, int]] = {}  # shipper: (ally, amount)

    async def load(self) -> GameSettings:
        """Read the settings, the orders and the offers (at start)."""
        self.settings = await self._store.settings(self._game_id)
        self.orders = dict(self.settings.orders)
        self.ally_offers = {s: (o.ally, o.amount) for s, o in self.settings.ally_offers.items()}
        return self.settings

    async def save(self) -> None:
        """Write the settings whole, with the session's timers now."""
        offers = {s: AllyOffer(a, s, n) for s, (a, n) in self.ally_offers.items()}
        self.settings = replace(
            self.settings, timers=self._timers(), orders=dict(self.orders), ally_offers=offers
        )
        await self._store.set_settings(self._game_id, self.settings)

    @property
    def channels(self) -> Mapping[Faction, int]:
        """The factions' private channels."""
        return self.settings.channels.private

    def bind_private(self, private: Mapping[Faction, int]) -> None:
        """Private channels made again (saved by the next :meth:`save`)."""
        bound = replace(self.settings.channels, private={**self.channels, **private})
        self.settings = replace(self.settings, channels=bound)

    def set_orders(self, faction: Faction, orders: StandingOrders) -> None:
        self.orders[faction] = orders

    def set_ally_offer(self, shipper: Faction, ally: Faction, amount: int) -> None:
        """``ally`` pays up to ``amount`` of ``shipper``'s next shipment (0: withdrawn)."""
        if amount > 0:
            self.ally_offers[shipper] = (ally, amount)
        else:
            self.ally_offers.pop(shipper, None)
