"""The scene makers (:mod:`bot.render.scene`) the phases declare with their pictures, and the
watch that runs them for a game. A phase with pictures of its own moments exports ``SCENES``
(a :class:`~bot.render.scene.SceneMaker`'s maker) from ``bot/render/<phase>/scene.py``; they
are found by the phase's name (:func:`bot.phase_parts.picture_modules`), in the order of play."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.phase_parts import picture_modules
from bot.render.render import check_public
from bot.render.scene import Scene, SceneMaker
from rules.events import Event
from rules.view import PublicView

Maker = Callable[[], SceneMaker]


def declared() -> tuple[Maker, ...]:
    """The scene makers the phases declare, in the order of play."""
    makers: list[Maker] = []
    for module in picture_modules("scene"):
        maker = getattr(module, "SCENES", None)
        if not callable(maker):
            raise TypeError(f"{module.__name__} must export SCENES, a scene maker's maker")
        makers.append(maker)
    return tuple(makers)


MAKERS = declared()


class SceneWatch:
    """One game's scene makers, one of each registered, told every announcement in its
    order (each remembers what it needs: a battle's plans for its result). When two call a
    picture for the same announcement, the first registered is drawn."""

    def __init__(self, makers: Sequence[Maker] = MAKERS) -> None:
        self._makers = [make() for make in makers]

    def see(self, view: PublicView, events: Sequence[Event]) -> Scene[Any] | None:
        """The scene these events call a picture for, if any. Raises TypeError for
        anything but a :class:`PublicView`, before any maker takes note."""
        check_public(view, "SceneWatch")
        found = [scene for maker in self._makers if (scene := maker.see(view, events))]
        return found[0] if found else None
