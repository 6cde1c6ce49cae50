"""A battle through Discord (simcord), six players: the Bene Gesserit use the Voice, the
Atreides Prescience, each side builds its plan in a private builder and locks it, the
Bene Gesserit call a traitor; the table reads the reveal and the result, and nothing of a
plan or of a traitor held before its time."""

from __future__ import annotations

from typing import Any

import simcord

from rules.factions import Faction
from rules.game import GameState
from tests.cogs.conftest import Table, is_ephemeral, text_of
from tests.cogs.turn_helpers import public_messages, public_since, start_at, whole_table
from tests.rules.battle_helpers import at_battle

F = Faction
BG, AT = F.BENE_GESSERIT, F.ATREIDES
SECRETS = ("Duncan Idaho", "Crysknife", "Snooper", "Shield", "Bashar", "Alia")


def bg_against_atreides() -> GameState:
    """The Bene Gesserit (holding Duncan Idaho's traitor card) against the Atreides in
    Arrakeen; the other four factions fight nowhere."""
    return at_battle(
        seats=["bene_gesserit", "harkonnen", "atreides", "fremen", "emperor", "spacing_guild"],
        factions={
            "atreides": {"cards": ("Crysknife", "Snooper", "Baliset")},
            "bene_gesserit": {"cards": ("Shield",)},
        },
        board=[("bene_gesserit", "Arrakeen", 9, 4), ("atreides", "Arrakeen", 9, 4)],
        traitors={BG: ("Duncan Idaho",), AT: ("Bashar",)},
    )


def message_of(result: simcord.InteractionResult) -> Any:
    """The message the caller read (the builder, with its menus)."""
    if result.followups:
        return result.followups[-1]
    assert result.response is not None
    return result.response.message


def private(result: simcord.InteractionResult) -> bool:
    """Only the caller read it (an answer, or its own ephemeral builder edited)."""
    edited = result.response is not None and result.response.ephemeral and not result.followups
    return is_ephemeral(result) or edited


def done(result: simcord.InteractionResult) -> str:
    text = text_of(result)
    assert private(result) and text.startswith(("Done", "Locked", "Traitor")), text
    return text


def refused(result: simcord.InteractionResult) -> str:
    text = text_of(result)
    assert private(result) and text.startswith(("Refused", "This preview")), text
    assert len(text) <= 2000 and "x" * 100 not in text, text
    return text


def select_id(message: Any, field: str) -> str:
    for row in message.components:
        for item in row.to_dict()["components"]:
            if str(item.get("custom_id", "")).split(":")[1] == f"plan-{field}":
                return str(item["custom_id"])
    raise AssertionError(f"no {field} menu")


def options_of(message: Any, field: str) -> list[str]:
    for row in message.components:
        for item in row.to_dict()["components"]:
            if str(item.get("custom_id", "")).split(":")[1] == f"plan-{field}":
                return [o["value"] for o in item["options"]]
    return []


async def to_plans(t: Table) -> None:
    await start_at(t, bg_against_atreides())
    assert t.state().whole.step == "voice"
    done(await t.players[BG].slash(t.table, "voice", command="play", kind="projectile weapon"))
    done(await t.players[AT].slash(t.table, "prescience", ask="defense"))
    assert t.state().whole.step == "plans"


async def test_a_battle_with_voice_prescience_and_a_traitor_leaks_nothing(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    earlier = public_messages(t)
    await to_plans(t)
    # the Atreides build their plan: the Voice binds them, and their menus show it
    opened = await t.players[AT].slash(t.table, "battle-plan")
    assert is_ephemeral(opened)
    builder = message_of(opened)
    assert "The Voice: you must play projectile weapon" in builder.content
    # a worthless card fits either slot; a defense is no weapon
    assert options_of(builder, "weapon") == ["-", "Crysknife", "Baliset"]
    assert options_of(builder, "defense") == ["-", "Snooper", "Baliset"]
    assert "Lady Jessica" in options_of(builder, "leader")
    assert options_of(builder, "number")[-1] == "4"
    await t.players[AT].select(builder, ["Duncan Idaho"], custom_id=select_id(builder, "leader"))
    await t.players[AT].select(builder, ["3"], custom_id=select_id(builder, "number"))
    await t.players[AT].select(builder, ["Snooper"], custom_id=select_id(builder, "defense"))
    # a plan that disobeys the Voice is refused (the rule cited) and the builder stays open
    text = refused(await t.players[AT].click(builder, label="Lock"))
    assert "2.02.06" in text
    await t.players[AT].select(builder, ["Crysknife"], custom_id=select_id(builder, "weapon"))
    locked = done(await t.players[AT].click(builder, label="Lock"))
    assert "Duncan Idaho, dial 3, playing Crysknife and Snooper" in locked
    public = public_since(t, earlier)
    assert "Atreides's battle plan is in" in public
    for secret in SECRETS:
        assert secret not in public, secret
    # the Bene Gesserit: the builder tells them what Prescience shows
    opened = await t.players[BG].slash(t.table, "battle-plan")
    builder = message_of(opened)
    assert "Prescience: the Atreides see your defense" in builder.content
    await t.players[BG].select(builder, ["Alia"], custom_id=select_id(builder, "leader"))
    await t.players[BG].select(builder, ["1"], custom_id=select_id(builder, "number"))
    await t.players[BG].select(builder, ["Shield"], custom_id=select_id(builder, "defense"))
    done(await t.players[BG].click(builder, label="Lock"))
    # the reveal: both plans in words, and the traitor question to both sides
    public = public_since(t, earlier)
    assert "Atreides's plan: Duncan Idaho, dials 3, plays Crysknife and Snooper." in public
    assert "Bene Gesserit's plan: Alia, dials 1, plays Shield." in public
    assert t.state().whole.step == "traitor_calls"
    assert "Traitor" not in public and "traitor to" not in public
    # the holder calls by the command; the table learns the traitor only now
    said = done(await t.players[BG].slash(t.table, "traitor call"))
    assert "you call a traitor" in said
    if t.state().whole.step == "traitor_calls":  # the Atreides are asked too: they pass
        prompt = next(m for m in reversed(t.private(AT).history()) if m.components)
        await t.players[AT].click(prompt, label="Pass")
    public = public_since(t, earlier)
    assert "reveal Duncan Idaho as a traitor to Atreides" in public
    assert "win the battle by treachery" in public
    assert "Bashar" not in public  # a traitor never called stays secret
    everyone = [m for ch in (t.table, t.spectators) for m in ch.history()]
    assert all(len(m.content or "") <= 2000 for m in everyone)
