"""The Revival phase's actions (1.05): a faction's whole revival, the Emperor's payment for
its ally's forces beyond the ally's limit (2.03.07) and its Karama revival (1.14.02), and
the moderator's record of a revival."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.actions import FactionAction, Record


@dataclass(frozen=True, slots=True)
class Revive(FactionAction):
    """Revival: the faction's whole force revival this turn, its free revival included
    (free ones first, the rest 2 spice each), and at most one leader (1.05). The Emperor's
    payment for its ally's forces beyond its limit is the Emperor's own
    :class:`PayAllyRevival`."""

    name: ClassVar[str] = "revive"
    forces: int
    special: int = 0
    leader: str | None = None


@dataclass(frozen=True, slots=True)
class PayAllyRevival(FactionAction):
    """Emperor, in the Revival phase, once a turn: revive up to 3 of its ally's forces from
    the tanks beyond the ally's own limit, 2 spice each from the Emperor to the bank
    (2.03.07); ``special``: Sardaukar or Fedaykin among them."""

    name: ClassVar[str] = "pay_ally_revival"
    forces: int
    special: int = 0


@dataclass(frozen=True, slots=True)
class KaramaRevive(FactionAction):
    """Emperor, advanced, once a game, in the Revival phase: revive up to 3 forces or one
    leader free with a Karama (1.14.02)."""

    name: ClassVar[str] = "karama_revive"
    forces: int = 0
    special: int = 0
    leader: str | None = None


@dataclass(frozen=True, slots=True)
class RecordRevival(Record):
    """Revival: the faction's whole force revival (free ones first) and a leader (1.05)."""

    name: ClassVar[str] = "record_revival"
    forces: int
    special: int = 0
    leader: str | None = None
    emperor_pays: int = 0  # a correction: this many above the ally's 3, paid by the Emperor
