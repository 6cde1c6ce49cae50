"""A phase's picture of one moment (a *scene*), as the picture pipeline carries it.

A phase may have a picture of its own for some moments (the Battle phase: both plans as
revealed, and the result). A *scene maker* (:class:`SceneMaker`) watches a game's public
announcements in their order and, when its moment comes, gives a :class:`Scene`: what to
draw (its public subject and the function that draws it, a job a render worker runs) and
the words that describe it (:class:`~bot.publisher.SceneWords`). The phases declare their
scene makers with their pictures, gathered by :mod:`bot.render.scenes`; nothing else of the
pipeline (the map keeper, the delivery, the publishers, the demo, the live page) knows which
phase a scene is of.

Hidden information is a type here too: a scene maker reads only a
:class:`~rules.view.PublicView` and public events, and its subject is public (each maker
checks its own, before drawing).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.publisher import SceneWords
from rules.events import Event
from rules.view import PublicView

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Scene(Generic[T]):
    """A moment's picture to draw: ``render(subject)`` gives its PNG."""

    subject: T  # public: what the picture is drawn from
    render: Callable[[T], bytes]  # a module's function (a render worker unpickles it)
    words: SceneWords

    def job(self) -> Callable[[], bytes]:
        """The drawing as a job for a render worker (picklable)."""
        return functools.partial(self.render, self.subject)


class SceneMaker(Protocol):
    """One phase's pictures: told every announcement of a game in its order."""

    def see(self, view: PublicView, events: Sequence[Event]) -> Scene[Any] | None:
        """Take note of one announcement's ``events`` (``view``: the position after them);
        the scene they call a picture for, if any. Raises TypeError for anything but a
        :class:`PublicView`, before taking note."""
        ...
