"""A battle through Discord (simcord), six players: the Bene Gesserit use the Voice, the
Atreides Prescience, each side builds its plan in a private builder and locks it, the
Bene Gesserit call a traitor; the table reads the reveal and the result, and nothing of a
plan or of a traitor held before its time."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from simcord.backend.errors import SetupError

from rules.battle.model import BATTLE
from rules.factions import Faction
from rules.game import GameState
from tests.cogs.conftest import Table, is_ephemeral, refusals, text_of
from tests.cogs.turn_helpers import public_messages, public_since, start_at, whole_table
from tests.rules.battle_helpers import at_battle, duel, fight

F = Faction
BG, AT = F.BENE_GESSERIT, F.ATREIDES
SIX = ["harkonnen", "spacing_guild", "atreides", "fremen", "emperor", "bene_gesserit"]
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


def labels(message: Any) -> list[str]:
    return [c["label"] for row in message.components for c in row.to_dict()["components"]]


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
    # each side's private prompt points to its builder; the Atreides build their plan:
    # the Voice binds them, and their menus show it
    for side in (BG, AT):
        assert "`/battle-plan`" in t.private(side).history()[-1].content
    opened = await t.players[AT].slash(t.table, "battle-plan")
    assert is_ephemeral(opened)
    builder = message_of(opened)
    assert "The Voice: you must play projectile weapon" in builder.content
    # a worthless card fits either slot; a defense is no weapon
    assert options_of(builder, "weapon") == ["-", "Crysknife", "Baliset"]
    assert options_of(builder, "defense") == ["-", "Snooper", "Baliset"]
    assert "Lady Jessica" in options_of(builder, "leader")
    assert options_of(builder, "number")[-1] == "4"
    # the builder starts obeying the Voice: the Crysknife in the weapon slot
    assert "playing Crysknife" in builder.content
    await t.players[AT].select(builder, ["Duncan Idaho"], custom_id=select_id(builder, "leader"))
    await t.players[AT].select(builder, ["3"], custom_id=select_id(builder, "number"))
    await t.players[AT].select(builder, ["Snooper"], custom_id=select_id(builder, "defense"))
    await t.players[AT].select(builder, ["-"], custom_id=select_id(builder, "weapon"))
    # a plan that disobeys the Voice is refused (the rule cited) and the builder stays open
    text = refused(await t.players[AT].click(builder, label="Lock"))
    assert "2.02.06" in text
    await t.players[AT].select(builder, ["Crysknife"], custom_id=select_id(builder, "weapon"))
    locked = done(await t.players[AT].click(builder, label="Lock"))
    assert "Duncan Idaho, dial 3, playing Crysknife and Snooper" in locked
    public = public_since(t, earlier)
    assert "Atreides' battle plan is in" in public
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
    assert "Atreides' plan: Duncan Idaho, dials 3, plays Crysknife and Snooper." in public
    assert "Bene Gesserit's plan: Alia, dials 1, plays Shield." in public
    assert t.state().whole.step == "traitor_calls"
    assert "Traitor" not in public and "traitor to" not in public
    # the holder calls by the command; the table learns the traitor only now
    # both sides are asked the same question, with the same buttons, holder or not
    prompts = {
        f: next(m for m in reversed(t.private(f).history()) if m.components) for f in (BG, AT)
    }
    for side in (BG, AT):
        assert labels(prompts[side]) == ["Call a traitor", "Pass"]
        assert "call a traitor if you hold the traitor card" in prompts[side].content
    # the Atreides hold no traitor of Alia: their call is refused, privately
    text = refused(await t.players[AT].slash(t.table, "traitor call"))
    assert "(rule 1.07.06.06)" in text, text
    text = refused(await t.players[AT].click(prompts[AT], label="Call a traitor"))
    assert "(rule 1.07.06.06)" in text, text
    prompt = prompts[BG]
    said = text_of(await t.players[BG].click(prompt, label="Call a traitor"))
    assert said.startswith("Traitor called"), said
    if t.state().whole.step == "traitor_calls":  # the Atreides are asked too: they pass
        prompt = next(m for m in reversed(t.private(AT).history()) if m.components)
        await t.players[AT].click(prompt, label="Pass")
    public = public_since(t, earlier)
    assert "reveals Duncan Idaho as a traitor to Atreides" in public
    assert "wins the battle by treachery" in public
    assert "Atreides' leader Duncan Idaho is killed" in public  # what died, what was paid
    assert "Atreides loses 4 forces in Arrakeen" in public
    assert "Bene Gesserit receives 2 spice" in public
    # the winner keeps its card by the command (autocomplete offers the cards played)
    offered = await t.players[BG].autocomplete(t.table, "keep-cards", "cards", "")
    assert [o["value"] for o in offered] == ["none", "Shield"]
    assert await t.players[AT].autocomplete(t.table, "keep-cards", "cards", "") == []
    assert "you keep Shield" in done(
        await t.players[BG].slash(t.table, "keep-cards", cards="Shield")
    )
    public = public_since(t, earlier)
    assert "Bene Gesserit keeps Shield." in public
    assert "Bashar" not in public  # a traitor never called stays secret
    refusals(simcord_env)
    everyone = [m for ch in (t.table, t.spectators) for m in ch.history()]
    assert all(len(m.content or "") <= 2000 for m in everyone)


async def test_nobody_reads_or_submits_another_players_plan(simcord_env: simcord.Env) -> None:
    """Another player, an outsider, a moderator whose role was taken away, a builder
    used after its lock, twice, junk and oversized input: each is refused privately and
    changes nothing; nobody is offered another faction's choices."""
    t = await whole_table(simcord_env, moderator_role="Moderators")
    holder = t.role_holder
    assert holder is not None and t.role is not None
    await to_plans(t)
    seen = public_messages(t)
    before = t.state().to_dict()
    # the Atreides' builder is theirs: the Bene Gesserit, naming them, are refused
    text = refused(await t.players[BG].slash(t.table, "battle-plan", faction="atreides"))
    assert "Atreides seat" in text
    assert "no seat" in refused(await t.outsider.slash(t.table, "battle-plan"))
    # a moderator opens it for the Atreides, then loses the role: its menus refuse them
    opened = await holder.slash(t.table, "battle-plan", faction="atreides")
    mine = message_of(opened)
    assert "Your battle plan in Arrakeen" in mine.content
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    lid = select_id(mine, "leader")
    assert "Atreides seat" in refused(await holder.select(mine, ["Duncan Idaho"], custom_id=lid))
    assert "Atreides seat" in refused(await holder.click(mine, label="Lock"))
    refused(await holder.slash(t.table, "battle-plan", faction="atreides"))
    # the owner's builder is ephemeral: nobody else sees it, let alone clicks it
    builder = message_of(await t.players[AT].slash(t.table, "battle-plan"))
    for other in (t.players[BG], t.outsider, t.moderator):
        with pytest.raises(SetupError, match="not visible"):
            await other.click(builder, label="Lock")
    # junk and oversized input to every battle command
    long = "x" * 100
    for faction, command, options in (
        (BG, "voice", {"command": "play", "kind": long}),
        (AT, "prescience", {"ask": "weapon"}),  # the Voice and Prescience are past
        (AT, "keep-cards", {"cards": long}),
        (AT, "capture", {"leader": long}),
        (AT, "battle", {"territory": long, "opponent": long}),
        (BG, "traitor call", {}),  # no plan is revealed yet
    ):
        refused(await t.players[faction].slash(t.table, command, **options))
    assert t.state().to_dict() == before and public_messages(t) == seen
    # autocomplete offers a player its own choices only, and an outsider nothing
    assert await t.outsider.autocomplete(t.table, "capture", "leader", "") == []
    offered = await t.players[BG].autocomplete(
        t.table, "voice", "kind", "", command="play", faction="atreides"
    )
    assert offered == []  # the Voice is spent; naming the Atreides shows nothing of theirs
    # locked once: the builder loses its menus; a second builder opened before is stale
    second = message_of(await t.players[AT].slash(t.table, "battle-plan"))
    await t.players[AT].select(builder, ["Crysknife"], custom_id=select_id(builder, "weapon"))
    done(await t.players[AT].click(builder, label="Lock"))
    with pytest.raises(SetupError):  # the locked builder has no menus nor button left
        await t.players[AT].click(builder, label="Lock")
    wid = select_id(second, "weapon")
    assert "no longer waits" in refused(await t.players[AT].select(second, ["-"], custom_id=wid))
    assert "no longer waits" in refused(await t.players[AT].click(second, label="Lock"))
    refused(await t.players[AT].slash(t.table, "battle-plan"))
    public = public_since(t, seen)
    table = [m.content for m in t.table.history() if m.id not in seen]
    assert sum("Atreides' battle plan is in" in m for m in table) == 1  # once, not twice
    for secret in SECRETS:
        assert secret not in public, secret
    refusals(simcord_env)


async def test_the_aggressor_names_its_battle_by_the_command(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    await start_at(
        t,
        at_battle(
            board=[
                ("harkonnen", "Carthag", 10, 5),
                ("emperor", "Carthag", 10, 3),
                ("harkonnen", "Arrakeen", 9, 3),
                ("fremen", "Arrakeen", 9, 2),
            ]
        ),
    )
    assert t.state().whole.step == "choose" and t.state().waiting_on() == (F.HARKONNEN,)
    seen = public_messages(t)
    hk = t.players[F.HARKONNEN]
    where = [o["value"] for o in await hk.autocomplete(t.table, "battle", "territory", "")]
    assert sorted(where) == ["Arrakeen", "Carthag"]
    whom = await hk.autocomplete(t.table, "battle", "opponent", "", territory="Arrakeen")
    assert [o["value"] for o in whom] == ["fremen"]
    for other in (t.players[F.EMPEROR], t.outsider):  # nobody else is offered a battle
        assert await other.autocomplete(t.table, "battle", "territory", "") == []
    refused(await hk.slash(t.table, "battle", territory="Arrakeen", opponent="emperor"))
    refused(
        await t.players[F.EMPEROR].slash(
            t.table, "battle", territory="Carthag", opponent="harkonnen"
        )
    )
    assert public_messages(t) == seen
    said = done(await hk.slash(t.table, "battle", territory="Arrakeen", opponent="fremen"))
    assert "you attack Fremen in Arrakeen" in said
    assert "Battle in Arrakeen: Harkonnen attacks Fremen." in public_since(t, seen)
    # twice: the engine takes the same battle named again and changes nothing
    after, seen = t.state().to_dict(), public_messages(t)
    done(await hk.slash(t.table, "battle", territory="Arrakeen", opponent="fremen"))
    assert t.state().to_dict() == after and public_messages(t) == seen
    refused(await hk.slash(t.table, "battle", territory="Carthag", opponent="emperor"))
    refusals(simcord_env)


async def test_the_harkonnen_capture_by_the_command_and_the_table_never_hears_whom(
    simcord_env: simcord.Env,
) -> None:
    state = duel(advanced=True, seed=3, seats=SIX)
    fight(state, ("harkonnen", "Feyd Rautha", 2, {}), ("emperor", "Bashar", 0, {}))
    assert state.whole.step == "capture"
    fought = BATTLE.of(state.whole)
    assert fought is not None and fought.captive is not None
    drawn = fought.captive
    t = await whole_table(simcord_env)
    await start_at(t, state)
    seen = public_messages(t)
    hk = t.players[F.HARKONNEN]
    assert [o["value"] for o in await hk.autocomplete(t.table, "capture", "leader", "")] == [drawn]
    for other in (t.players[F.EMPEROR], t.outsider):
        assert await other.autocomplete(t.table, "capture", "leader", "") == []
    assert (
        await t.players[F.EMPEROR].autocomplete(
            t.table, "capture", "leader", "", faction="harkonnen"
        )
        == []
    )  # naming the Harkonnen shows a player nothing of theirs
    mod = await t.moderator.autocomplete(t.table, "capture", "leader", "", faction="harkonnen")
    assert [o["value"] for o in mod] == [drawn]  # a current moderator, for the faction named
    refused(await t.players[F.EMPEROR].slash(t.table, "capture", leader=drawn))
    refused(await hk.slash(t.table, "capture", leader="x" * 100))
    assert public_messages(t) == seen
    assert f"you capture {drawn}" in done(await hk.slash(t.table, "capture", leader=drawn))
    public = public_since(t, seen)
    assert "Harkonnen captures one of Emperor's leaders." in public and drawn not in public
    refused(await hk.slash(t.table, "capture", leader=drawn))  # twice
    refusals(simcord_env)
