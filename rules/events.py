"""Events: what happened, as public facts, in the order it happened.

An event is a kind plus a few JSON-friendly fields. Every event the engine
emits is public: it never carries spice behind a shield or a hand of cards
(amounts paid for a shipment and cards played are public in Dune).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    fields: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, kind: str, /, **fields: Any) -> Event:
        return cls(kind, tuple((k, _plain(v)) for k, v in fields.items()))

    def __getitem__(self, key: str) -> Any:
        for k, v in self.fields:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, **dict(self.fields)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        rest = {k: v for k, v in data.items() if k != "type"}
        return cls.of(str(data["type"]), **rest)


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    if hasattr(value, "value") and isinstance(value.value, str):
        return value.value
    return value
