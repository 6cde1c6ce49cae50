"""A game's settings: typed, read in one place (:meth:`bot.store.Store.settings`) and written
whole in one statement (:meth:`bot.store.Store.set_settings`).

What a game was created with (private channels, moderator role, timing, maps) and what its
session keeps across restarts (the running deadline, standing orders, allies' offers).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.orders import StandingOrders
from rules.factions import Faction


@dataclass(frozen=True, slots=True)
class Timing:
    """How long each wait lasts (minutes for live games, hours for asynchronous ones)."""

    step: timedelta = timedelta(hours=12)
    prompt: timedelta = timedelta(hours=2)
    reminder: timedelta = timedelta(hours=1)  # before the deadline
    window: timedelta = timedelta(minutes=5)  # a secret window's fixed time (docs/windows.md)


@dataclass(frozen=True, slots=True)
class Offer:
    """The prompts raised by one action, offered together (:mod:`bot.session.windows`).

    ``prompts`` names every prompt of the offer (the stages pending when it opened),
    ``started`` is when it opened; ``kept`` holds answers given ahead to a later stage
    (applied when that stage opens) and ``declined`` the private "no" of a faction that
    could act in a secret window (the window still runs its time): both keyed
    ``"faction|prompt"``; ``window`` is the secret stage whose fixed time is running.
    """

    prompts: tuple[str, ...] = ()
    started: datetime | None = None
    kept: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    declined: frozenset[str] = frozenset()
    window: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "prompts": list(self.prompts),
            "started": None if self.started is None else self.started.astimezone(UTC).isoformat(),
            "kept": {k: dict(v) for k, v in self.kept.items()},
            "declined": sorted(self.declined),
            "window": self.window,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Offer:
        started = data.get("started")
        return cls(
            prompts=tuple(str(p) for p in data.get("prompts", ())),
            started=None if started is None else datetime.fromisoformat(started),
            kept={str(k): dict(v) for k, v in dict(data.get("kept", {})).items()},
            declined=frozenset(str(d) for d in data.get("declined", ())),
            window=str(data.get("window", "")),
        )


@dataclass(frozen=True, slots=True)
class Channels:
    """The factions' private channels and the role whose holders moderate the game."""

    private: Mapping[Faction, int] = field(default_factory=dict)
    moderator_role: int | None = None


@dataclass(frozen=True, slots=True)
class SessionTimers:
    """The running wait: its identity, deadline, whether its reminder went out, and the time
    left when a moderator paused the game; and the prompt messages: the token their answers
    are bound to, each faction's open prompt message and how recent prompts closed."""

    wait: str | None = None
    deadline: datetime | None = None
    reminded: bool = False
    paused_left: timedelta | None = None
    token: str | None = None
    asked: Mapping[Faction, str | None] = field(default_factory=dict)  # faction: message ref
    closed: Mapping[str, str] = field(default_factory=dict)  # "token:faction": how it closed
    offer: Offer = field(default_factory=Offer)  # the prompts offered together now
    missed: Mapping[Faction, int] = field(default_factory=dict)  # deadlines missed in a row
    extended: Mapping[Faction, timedelta] = field(default_factory=dict)  # beyond the deadline

    def __post_init__(self) -> None:
        if self.deadline is not None and self.deadline.tzinfo is None:
            raise ValueError(f"a deadline needs a timezone: {self.deadline.isoformat()}")

    def deadline_of(self, faction: Faction) -> datetime | None:
        """``faction``'s deadline: the wait's, or its own where a moderator extended it."""
        extra = self.extended.get(faction)
        return self.deadline if extra is None or self.deadline is None else self.deadline + extra


@dataclass(frozen=True, slots=True)
class AllyOffer:
    """An ally's consent to pay up to ``amount`` spice of ``shipper``'s next shipment."""

    ally: Faction
    shipper: Faction
    amount: int


@dataclass(frozen=True, slots=True)
class Seating:
    """Who may open a seat to volunteers, who seats one, and when an absent faction goes on
    autopilot (issue 25; docs/substitutes.md)."""

    players_open: bool = False  # a player may open their own seat (/leave), not only moderators
    first_volunteer: bool = False  # the first volunteer takes the seat, no moderator's Accept
    autopilot_after: int = 0  # deadlines missed in a row before autopilot (0: never)
    stall_after_hours: int = 72  # no action accepted this long: reported stalled (0: never)


@dataclass(frozen=True, slots=True)
class GameSettings:
    """Everything about a game that is not its position; change it with ``replace``."""

    channels: Channels = field(default_factory=Channels)
    timing: Timing = field(default_factory=Timing)
    timers: SessionTimers = field(default_factory=SessionTimers)
    orders: Mapping[Faction, StandingOrders] = field(default_factory=dict)
    ally_offers: Mapping[Faction, AllyOffer] = field(default_factory=dict)  # by shipper
    maps: str = "action"  # when maps are drawn (see bot.render.maps)
    turn: int | None = None  # the game turn the maps show
    required_level: str | None = None  # a new player's reliability at least (bot.seats.reliability)
    seating: Seating = field(default_factory=Seating)


COLUMNS = (
    "maps",
    "turn",
    "moderator_role",
    "private_channels",
    "step_s",
    "prompt_s",
    "reminder_s",
    "wait_key",
    "deadline",
    "reminded",
    "paused_left_s",
    "prompt_token",
    "prompts_asked",
    "prompts_closed",
    "standing_orders",
    "ally_offers",
    "window_s",
    "offer",
    "required_level",
    "players_open",
    "first_volunteer",
    "autopilot_after",
    "missed",
    "extended",
    "stall_after_hours",
)
"""The columns of ``game_settings`` (after ``game_id``), in this order."""


def to_columns(settings: GameSettings) -> tuple[Any, ...]:
    """The settings as the values of :data:`COLUMNS` (numbers, text, canonical JSON)."""
    timing, timers = settings.timing, settings.timers
    return (
        settings.maps,
        settings.turn,
        settings.channels.moderator_role,
        _json({f.value: c for f, c in settings.channels.private.items()}),
        timing.step.total_seconds(),
        timing.prompt.total_seconds(),
        timing.reminder.total_seconds(),
        timers.wait,
        None if timers.deadline is None else timers.deadline.astimezone(UTC).isoformat(),
        int(timers.reminded),
        None if timers.paused_left is None else timers.paused_left.total_seconds(),
        timers.token,
        _json({f.value: ref for f, ref in timers.asked.items()}),
        _json(dict(timers.closed)),
        _json({f.value: o.to_dict() for f, o in settings.orders.items()}),
        _json({f.value: {"ally": o.ally.value, "amount": o.amount} for f, o in _offers(settings)}),
        timing.window.total_seconds(),
        _json(timers.offer.to_dict()),
        settings.required_level,
        int(settings.seating.players_open),
        int(settings.seating.first_volunteer),
        settings.seating.autopilot_after,
        _json({f.value: n for f, n in timers.missed.items()}),
        _json({f.value: d.total_seconds() for f, d in timers.extended.items()}),
        settings.seating.stall_after_hours,
    )


def from_columns(values: tuple[Any, ...]) -> GameSettings:
    """The settings from the values of :data:`COLUMNS`."""
    row = dict(zip(COLUMNS, values, strict=True))
    return GameSettings(
        channels=Channels(
            private={Faction(f): int(c) for f, c in json.loads(row["private_channels"]).items()},
            moderator_role=row["moderator_role"],
        ),
        timing=Timing(
            *(timedelta(seconds=row[k]) for k in ("step_s", "prompt_s", "reminder_s", "window_s"))
        ),
        timers=SessionTimers(
            wait=row["wait_key"],
            deadline=None if row["deadline"] is None else datetime.fromisoformat(row["deadline"]),
            reminded=bool(row["reminded"]),
            paused_left=_seconds(row["paused_left_s"]),
            token=row["prompt_token"],
            asked={Faction(f): ref for f, ref in json.loads(row["prompts_asked"]).items()},
            closed=json.loads(row["prompts_closed"]),
            offer=Offer.from_dict(json.loads(row["offer"])),
            missed={Faction(f): int(n) for f, n in json.loads(row["missed"]).items()},
            extended={
                Faction(f): timedelta(seconds=s) for f, s in json.loads(row["extended"]).items()
            },
        ),
        orders={
            Faction(f): StandingOrders.from_dict(o)
            for f, o in json.loads(row["standing_orders"]).items()
        },
        ally_offers={
            Faction(s): AllyOffer(Faction(o["ally"]), Faction(s), int(o["amount"]))
            for s, o in json.loads(row["ally_offers"]).items()
        },
        maps=row["maps"],
        turn=row["turn"],
        required_level=row["required_level"],
        seating=Seating(
            bool(row["players_open"]),
            bool(row["first_volunteer"]),
            int(row["autopilot_after"]),
            int(row["stall_after_hours"]),
        ),
    )


def _offers(settings: GameSettings) -> list[tuple[Faction, AllyOffer]]:
    return sorted(settings.ally_offers.items(), key=lambda item: item[0].value)


def _seconds(value: float | None) -> timedelta | None:
    return None if value is None else timedelta(seconds=value)


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
