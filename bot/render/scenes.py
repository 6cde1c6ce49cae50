"""The scene makers (:mod:`bot.render.scene`): the one list of the phases that have a
picture of their own moments, one line each, and the watch that runs them for a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.render.battle.scene import BattleScenes
from bot.render.render import check_public
from bot.render.scene import Scene, SceneMaker
from rules.events import Event
from rules.view import PublicView

MAKERS: tuple[Callable[[], SceneMaker], ...] = (
    BattleScenes,  # 1.07: a battle's reveal and its result (bot.render.battle)
)


class SceneWatch:
    """One game's scene makers, one of each registered, told every announcement in its
    order (each remembers what it needs: a battle's plans for its result). When two call a
    picture for the same announcement, the first registered is drawn."""

    def __init__(self, makers: Sequence[Callable[[], SceneMaker]] = MAKERS) -> None:
        self._makers = [make() for make in makers]

    def see(self, view: PublicView, events: Sequence[Event]) -> Scene[Any] | None:
        """The scene these events call a picture for, if any. Raises TypeError for
        anything but a :class:`PublicView`, before any maker takes note."""
        check_public(view, "SceneWatch")
        found = [scene for maker in self._makers if (scene := maker.see(view, events))]
        return found[0] if found else None
