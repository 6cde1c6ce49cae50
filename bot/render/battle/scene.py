"""The Battle phase's scene maker: a battle's reveal (both plans) and its result, drawn
when :class:`~bot.render.battle.reveal.RevealWatch` says a picture is due, in the words the
table, the demo's record and the live page give it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.publisher import SceneWords
from bot.render.battle.plans import render_battle
from bot.render.battle.reveal import BattleReveal, RevealWatch
from bot.render.scene import Scene
from rules.battle.events import PlanRevealed
from rules.events import Event
from rules.view import PublicView

NAME = "battle"  # battle.png on Discord, battle-001.png in the demo, /battle/N.png on the page


def battle_words(reveal: BattleReveal, number: int, *, revealed: bool) -> SceneWords:
    """A battle's picture in words. ``number``: the battle's, counted from the first reveal
    its watcher saw; ``revealed``: the plans were revealed by the moment it is drawn for
    (else it is the result that followed the traitor question)."""
    title = f"The battle in {reveal.territory}"
    shows = "both plans and the result" if reveal.resolved else "both plans"
    caption = f"Battle {number}: {shows if revealed else 'the result'}"
    return SceneWords(NAME, title, f"{title}: {shows}", caption)


class BattleScenes:
    """One game's battle pictures (a :class:`~bot.render.scene.SceneMaker`): at the reveal,
    with the result when it came at once; at the resolution when the traitor question came
    between. Battles are numbered from the first reveal seen (a restarted bot counts again)."""

    def __init__(self) -> None:
        self._watch = RevealWatch()
        self._battles = 0

    def see(self, view: PublicView, events: Sequence[Event]) -> Scene[BattleReveal] | None:
        reveal = self._watch.see(view, events)
        if reveal is None:
            return None
        revealed = any(isinstance(e, PlanRevealed) for e in events)
        if revealed:
            self._battles += 1
        words = battle_words(reveal, self._battles, revealed=revealed)
        return Scene(reveal, render_battle, words)


SCENES = BattleScenes
"""The Battle phase's scene maker, as :mod:`bot.render.scenes` finds it."""
