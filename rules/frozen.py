"""Changed copies of the engine's frozen values: ``dataclasses.replace``, only faster.

The rules change the whole game's state, the phase and the factions' holdings many
times per action, and the frozen ``__init__`` of a slotted dataclass sets each field
through ``object.__setattr__``, one call per field. :func:`evolver` builds, once per
class, a copier that assigns the slots of a *draft* (an assignable subclass with the
same slots and nothing else) field by field, the way ``dataclasses`` writes its
``__init__``, then turns the draft into the frozen class. The value is never seen
half-built, and it stays as small as one built by ``__init__``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

V = TypeVar("V")


def evolver(cls: type[V]) -> Callable[[V, Mapping[str, Any]], V]:
    """``evolve(value, changes)`` for ``cls``: ``replace(value, **changes)``.

    ``cls`` is a frozen, slotted dataclass whose fields are all set by ``__init__`` and
    that has no ``__post_init__``: ``replace`` would run nothing more than the copy.
    An unknown field is refused with a ``TypeError``, as ``replace`` refuses it.
    """
    names = _field_names(cls)
    draft_of = _draft_copier(cls, names)
    known = frozenset(names)

    def evolve(value: V, changes: Mapping[str, Any]) -> V:
        draft = draft_of(value)
        for name, new in changes.items():
            if name not in known:
                raise TypeError(f"{cls.__name__} has no field {name!r}")
            setattr(draft, name, new)
        draft.__class__ = cls
        return draft  # type: ignore[no-any-return]

    return evolve


def _field_names(cls: type[Any]) -> tuple[str, ...]:
    params = cls.__dataclass_params__
    if not (params.frozen and "__slots__" in cls.__dict__):
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__ that replace would run")
    every = cls.__dataclass_fields__.values()
    if len(every) != len(fields(cls)) or any(not f.init for f in every):
        raise TypeError(f"{cls.__name__} has fields other than those __init__ sets")
    return tuple(f.name for f in fields(cls))


def _draft_copier(cls: type[Any], names: tuple[str, ...]) -> Callable[[Any], Any]:
    """A function copying every field of a ``cls`` value into a new draft of it. The draft
    class undoes both of the frozen class's guards (they share one slot of the type: with
    one left, every assignment would go through it) and adds no slot, so that a draft may
    become a ``cls``."""
    draft = type(
        f"_{cls.__name__}Draft",
        (cls,),
        {"__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__},
    )
    lines = [f"    draft.{name} = value.{name}" for name in names]
    source = "\n".join(["def copy(value):", "    draft = new(Draft)", *lines, "    return draft"])
    namespace: dict[str, Any] = {"new": object.__new__, "Draft": draft}
    exec(source, namespace)
    copier: Callable[[Any], Any] = namespace["copy"]
    return copier
