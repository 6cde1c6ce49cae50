"""Issue 24: the pictures of a phase's moments are scenes. A scene maker (the battle's,
bot.render.battle.scene) says when a picture is due and in what words; the registry's watch
(bot.render.scenes) tells every maker every announcement; the picture travels with its
words (bot.publisher.ScenePicture)."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any

import pytest

from bot.publisher import ScenePicture, SceneWords
from bot.render.battle import examples
from bot.render.battle.plans import render_battle
from bot.render.battle.scene import BattleScenes
from bot.render.examples import public_view
from bot.render.maps import MapMaker
from bot.render.scene import Scene
from bot.render.scenes import MAKERS, SceneWatch
from rules.battle.events import BattleStarted
from rules.events import Event
from rules.factions import Faction
from rules.view import PublicView
from tests.rules.battle_helpers import duel

F = Faction


def test_a_battles_scenes_in_words_numbered_from_the_first_reveal() -> None:
    view, maker = public_view(()), BattleScenes()
    betrayed, fought = examples.betrayed(), examples.fought()
    started = BattleStarted(F.BENE_GESSERIT, F.ATREIDES, "Arrakeen", None, "1.07.02")
    assert maker.see(view, [started]) is None
    revealed = maker.see(view, list(betrayed.plans))
    assert revealed is not None and revealed.render is render_battle
    assert revealed.words == SceneWords(
        "battle",
        "The battle in Arrakeen",
        "The battle in Arrakeen: both plans",
        "Battle 1: both plans",
    )
    result = maker.see(view, list(betrayed.outcome))  # after the traitor question
    assert result is not None and result.subject.resolved
    assert result.words.caption == "Battle 1: the result"
    assert result.words.alt == "The battle in Arrakeen: both plans and the result"
    assert maker.see(view, []) is None  # told once
    assert maker.see(view, [started]) is None
    both = maker.see(view, [*fought.plans, *fought.outcome])  # revealed and decided at once
    assert both is not None and both.words.caption == "Battle 2: both plans and the result"


class Noting:
    """A scene maker that notes what it is told and calls a picture for every
    announcement with events, in its own name."""

    def __init__(self, name: str, seen: list[str]) -> None:
        self.name, self.seen = name, seen

    def see(self, view: PublicView, events: Sequence[Event]) -> Scene[Any] | None:
        self.seen.append(self.name)
        if not events:
            return None
        words = SceneWords(self.name, self.name, self.name, self.name)
        return Scene(examples.fought(), render_battle, words)


def test_every_maker_is_told_every_announcement_and_the_first_registered_is_drawn() -> None:
    seen: list[str] = []
    watch = SceneWatch([lambda: Noting("first", seen), lambda: Noting("second", seen)])
    view = public_view(())
    assert watch.see(view, []) is None
    scene = watch.see(view, list(examples.fought().plans))
    assert scene is not None and scene.words.name == "first"
    assert seen == ["first", "second"] * 2
    game = duel()
    private = game.view_for(F.HARKONNEN)
    with pytest.raises(TypeError, match="PublicView"):
        watch.see(private, [])  # type: ignore[arg-type]
    assert seen == ["first", "second"] * 2  # refused before any maker took note
    assert BattleScenes in MAKERS  # declared by the battle's picture (SCENES)


async def test_a_scenes_picture_is_drawn_from_its_public_subject_with_its_words() -> None:
    maker = MapMaker("turn")
    fought = examples.fought()
    scene = maker.scene(public_view(()), [*fought.plans, *fought.outcome])
    assert scene is not None
    picture = await maker.draw_scene(scene)
    assert isinstance(picture, ScenePicture) and picture == render_battle(scene.subject)
    assert picture.words == scene.words and await maker.draw_scene(None) is None
    again = pickle.loads(pickle.dumps(picture))  # as a kept job or a worker would carry it
    assert again == picture and again.words == picture.words
    assert pickle.loads(pickle.dumps(scene.job()))() == picture
