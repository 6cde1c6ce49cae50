"""Issue 17: the reveal in the table channel through Discord (simcord): both plans in a
picture (``battle.png``) with the reveal's words, the map after it; the resolution's own
picture once a traitor is called; the spectators get the same; nothing the picture was
drawn from names a card not revealed; a table without Attach Files still reads the words."""

from __future__ import annotations

import io
from typing import Any

import pytest
import simcord
from PIL import Image

from bot.delivery import NO_PICTURES
from bot.publisher import ScenePicture
from bot.render.battle.plans import draw_battle_and_layout, render_battle
from bot.render.battle.reveal import BattleReveal
from bot.render.maps import MapMaker
from bot.render.scene import Scene
from rules.actions import Pass
from rules.battle.actions import BattlePlan, CallTraitor
from rules.factions import Faction
from tests.cogs.conftest import Table, make_table, refusals
from tests.cogs.faults import deny
from tests.cogs.test_battle_table import to_plans

F = Faction
AT, BG = F.ATREIDES, F.BENE_GESSERIT
REVEAL = "Atreides' plan: Duncan Idaho, dials 3, plays Crysknife and Snooper."
TRAITOR = "reveals Duncan Idaho as a traitor to Atreides"
WON = "Bene Gesserit wins the battle by treachery; Atreides loses."
NOT_REVEALED = ("Baliset", "Bashar")  # in the Atreides' hand, their traitor: never shown


async def _table(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> tuple[Table, list[Any]]:
    """A whole game with a map after every action, at the Bene Gesserit's battle against
    the Atreides, both plans to come; the reveals drawn are noted as they are drawn."""
    t = await make_table(env, kind="whole_game", maps="action")
    await to_plans(t)
    maker = t.session.renderer
    assert isinstance(maker, MapMaker)
    drawn: list[BattleReveal] = []
    draw = maker.draw_scene

    async def noting(scene: Scene[Any] | None) -> ScenePicture | None:
        if scene is not None:
            drawn.append(scene.subject)
        return await draw(scene)

    monkeypatch.setattr(maker, "draw_scene", noting)
    return t, drawn


async def _plans(t: Table) -> None:
    """Both plans, locked by their players (the app's submit, as the builder's Lock)."""
    plans = [
        BattlePlan(AT, "Arrakeen", "Duncan Idaho", 3, weapon="Crysknife", defense="Snooper"),
        BattlePlan(BG, "Arrakeen", "Alia", 1, defense="Shield"),
    ]
    for n, plan in enumerate(plans):
        user = t.players[plan.faction].id
        await t.bot.app.submit(t.game_id, plan, actor=user, key=f"plan-{n}")
    await t.session.until_idle()


def _posted(channel: simcord.ChannelHandle, words: str) -> Any:
    (message,) = [m for m in channel.history() if words in (m.content or "")]
    return message


def _files(message: Any) -> list[str]:
    return [a.filename for a in message.attachments]


def _picture(t: Table, message: Any) -> bytes:
    (attachment,) = [a for a in message.attachments if a.filename == "battle.png"]
    data = t.env.backend.cdn.get(attachment.url)
    assert data is not None
    return bytes(data)


async def test_the_reveal_and_the_traitor_come_with_both_plans_in_a_picture(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, drawn = await _table(simcord_env, monkeypatch)
    await _plans(t)
    assert t.state().whole.step == "traitor_calls"
    for channel in (t.table, t.spectators):
        reveal = _posted(channel, REVEAL)
        assert _files(reveal) == ["battle.png", "map.png"]  # the plans, then the map
    (revealed,) = drawn
    assert not revealed.resolved and [p.faction for p in revealed.plans] == [BG, AT]
    png = _picture(t, _posted(t.table, REVEAL))
    assert png == render_battle(revealed)  # what was posted is what was drawn from it
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and 780 <= image.width <= 860 and image.height <= 640
    # the traitor: the Bene Gesserit call, the Atreides pass; the resolution's picture
    await t.bot.app.submit(t.game_id, CallTraitor(BG), actor=t.players[BG].id, key="call")
    if t.state().whole.step == "traitor_calls":
        await t.bot.app.submit(t.game_id, Pass(AT), actor=t.players[AT].id, key="pass")
    await t.session.until_idle()
    for channel in (t.table, t.spectators):  # the call, then the result with its picture
        assert _files(_posted(channel, TRAITOR)) == ["map.png"]
        assert _files(_posted(channel, WON)) == ["battle.png", "map.png"]
    assert len(drawn) == 2 and drawn[1].resolved and drawn[1].plans == revealed.plans
    _, layout = draw_battle_and_layout(drawn[1])
    texts = [text.text for text in layout.texts]
    assert "Traitor! Duncan Idaho betrays them" in " ".join(texts)
    assert _picture(t, _posted(t.table, WON)) == render_battle(drawn[1])
    # the leak scan: no input of a picture names a card or traitor never revealed
    hand = t.state().factions[AT].cards
    assert "Baliset" in hand
    for reveal in drawn:
        said = repr(reveal) + " ".join(x.text for x in draw_battle_and_layout(reveal)[1].texts)
        for secret in NOT_REVEALED:
            assert secret not in said, secret
    refusals(simcord_env)


async def test_a_table_without_attach_files_reads_the_reveal_in_words(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, drawn = await _table(simcord_env, monkeypatch)
    deny(t, t.table, "attach_files")
    await _plans(t)
    reveal = _posted(t.table, REVEAL)
    assert reveal.attachments == [] and reveal.content.endswith(NO_PICTURES.strip())
    assert "Bene Gesserit's plan: Alia, dials 1, plays Shield." in reveal.content
    assert _files(_posted(t.spectators, REVEAL)) == ["battle.png", "map.png"]
    assert len(drawn) == 1
    assert t.session.deadline.paused_left is None  # no files is not a lost table


async def test_undo_and_redo_around_a_reveal_draw_the_plans_in_effect(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reveal taken back and made again is drawn again; taken back and replaced by
    another plan, the new reveal and its result show the new plan, never the old one."""
    t, drawn = await _table(simcord_env, monkeypatch)
    await _plans(t)
    for command in ("mod undo", "mod redo", "mod undo"):
        await t.moderator.slash(t.table, command)
        await t.session.until_idle()
    assert [[p.leader for p in d.plans] for d in drawn] == [["Alia", "Duncan Idaho"]] * 2
    other = BattlePlan(BG, "Arrakeen", "Wanna Yueh", 2, defense="Shield")
    await t.bot.app.submit(t.game_id, other, actor=t.players[BG].id, key="other")
    await t.bot.app.submit(t.game_id, CallTraitor(BG), actor=t.players[BG].id, key="call")
    if t.state().whole.step == "traitor_calls":
        await t.bot.app.submit(t.game_id, Pass(AT), actor=t.players[AT].id, key="pass")
    await t.session.until_idle()
    assert [p.leader for p in drawn[2].plans] == ["Wanna Yueh", "Duncan Idaho"]
    assert drawn[3].resolved and drawn[3].plans == drawn[2].plans
    assert _picture(t, _posted(t.table, WON)) == render_battle(drawn[3])
    refusals(simcord_env)
