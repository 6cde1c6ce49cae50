"""The plan builder's spice and Kwisatz Haderach through Discord (simcord), and the
battles the builder's table meets: a plan built with both and locked, a stale builder, and
what the table hears (only that a plan is in) until the reveal."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from simcord.backend.errors import SetupError
from simcord.results import ResponseMessage

from bot.words.battle.plan_builder import WITH_KH
from rules.actions import Pass
from rules.battle.actions import BattlePlan
from rules.battle.model import BATTLE
from rules.errors import MentatError
from rules.factions import Faction
from rules.game import GameState
from tests.cogs.conftest import Bots, Table, refusals
from tests.cogs.faults import STEP, advance
from tests.cogs.test_battle_table import (
    bg_against_atreides,
    done,
    message_of,
    options_of,
    refused,
    select_id,
)
from tests.cogs.turn_helpers import public_messages, public_since, start_at, whole_table
from tests.rules.battle_helpers import at_battle
from tests.rules.helpers import act

F = Faction
AT, HK = F.ATREIDES, F.HARKONNEN


def fresh(t: Table, message: Any) -> Any:
    """The message as it reads now (the builder is edited in place)."""
    stored = t.env.backend.get_message(message.channel.id, message.id)
    return ResponseMessage(t.env, stored).message


def labels(message: Any) -> list[str]:
    """The builder's buttons, in order."""
    rows = [row.to_dict()["components"] for row in message.components]
    return [c["label"] for row in rows for c in row if "label" in c]


def kwisatz_haderach_battle(*, advanced: bool = True, active: bool = True) -> GameState:
    """The Atreides (aggressor, 6 forces, 10 spice) against the Harkonnen (3 forces) in
    Arrakeen, at the plans: the Kwisatz Haderach active when ``active``."""
    state = at_battle(
        seats=["atreides", "harkonnen", "spacing_guild", "fremen", "emperor", "bene_gesserit"],
        factions={"atreides": {"cards": ("Crysknife",)}},
        board=[("atreides", "Arrakeen", 9, 6), ("harkonnen", "Arrakeen", 9, 3)],
        advanced=advanced,
        kwisatz_haderach_active=active,
    )
    act(state, "atreides", "pass")  # no Prescience
    assert state.whole.step == "plans"
    return state


async def test_a_plan_with_spice_and_the_kwisatz_haderach_built_by_the_menus(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, kwisatz_haderach_battle())
    seen = public_messages(t)
    at = t.players[AT]
    builder = message_of(await at.slash(t.table, "battle-plan"))
    assert "Kwisatz Haderach" in builder.content and "**Spice…**" in builder.content
    leaders = options_of(builder, "leader")
    assert "Duncan Idaho" in leaders and WITH_KH + "Duncan Idaho" in leaders
    assert labels(builder)[-2:] == ["Lock", "Spice…"]
    assert options_of(builder, "spice") == []  # row 1 holds the number menu first
    # the Kwisatz Haderach goes with Duncan Idaho; dial 5 needs 4 spice: it is raised
    await at.select(builder, [WITH_KH + "Duncan Idaho"], custom_id=select_id(builder, "leader"))
    builder = fresh(t, builder)
    await at.select(builder, ["5"], custom_id=select_id(builder, "number"))
    builder = fresh(t, builder)
    assert "Plan: Duncan Idaho with the Kwisatz Haderach, dial 5, paying 4 spice" in (
        builder.content
    )
    # Spice… swaps the number menu for the spice menu: pay 6 (fewer losses), same dial
    await at.click(builder, label="Spice…")
    builder = fresh(t, builder)
    assert options_of(builder, "number") == [] and options_of(builder, "spice")[-1] == "6"
    assert labels(builder)[-1] == "Dial…"
    await at.select(builder, ["6"], custom_id=select_id(builder, "spice"))
    builder = fresh(t, builder)
    await at.select(builder, ["Crysknife"], custom_id=select_id(builder, "weapon"))
    builder = fresh(t, builder)
    assert "dial 5, paying 6 spice, playing Crysknife" in builder.content
    await at.click(builder, label="Dial…")
    builder = fresh(t, builder)
    assert options_of(builder, "spice") == [] and "5" in options_of(builder, "number")
    # the Harkonnen cannot see the Atreides' builder, let alone click it
    with pytest.raises(SetupError, match="not visible"):
        await t.players[HK].click(builder, label="Lock")
    assert public_messages(t) == seen  # the table hears nothing of a plan being built
    locked = done(await at.click(builder, label="Lock"))
    assert "Duncan Idaho with the Kwisatz Haderach, dial 5, paying 6 spice" in locked
    fight = BATTLE.of(t.state().whole)
    assert fight is not None
    made = fight.plans[AT]
    assert (made.leader, made.number, made.spice, made.kwisatz_haderach) == (
        "Duncan Idaho",
        5,
        6,
        True,
    )
    assert made.weapon == "Crysknife"
    public = public_since(t, seen)
    assert "Atreides' battle plan is in" in public
    for secret in ("Duncan Idaho", "Kwisatz", "Crysknife", "spice", "dial"):
        assert secret not in public, secret
    # the locked builder has no buttons left; the spice menu of a builder opened before
    # the lock is stale
    with pytest.raises(SetupError):
        await at.click(builder, label="Spice…")
        builder = fresh(t, builder)
    refused(await at.slash(t.table, "battle-plan"))
    # the Harkonnen lock theirs: the reveal shows the Kwisatz Haderach and the spice
    theirs = message_of(await t.players[HK].slash(t.table, "battle-plan"))
    done(await t.players[HK].click(theirs, label="Lock"))
    assert (
        "Atreides' plan: Duncan Idaho with the Kwisatz Haderach, dials 5, pays 6 spice, "
        "plays Crysknife." in public_since(t, seen)
    )
    refusals(simcord_env)


async def test_a_stale_builder_and_another_faction_change_nothing(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, kwisatz_haderach_battle())
    at = t.players[AT]
    first = message_of(await at.slash(t.table, "battle-plan"))
    second = message_of(await at.slash(t.table, "battle-plan"))
    # the Harkonnen naming the Atreides are refused; their own builder has no KH, a spice
    # menu of their own (3 forces)
    assert "Atreides seat" in refused(
        await t.players[HK].slash(t.table, "battle-plan", faction="atreides")
    )
    mine = message_of(await t.players[HK].slash(t.table, "battle-plan"))
    assert not any(v.startswith(WITH_KH) for v in options_of(mine, "leader"))
    assert "Kwisatz" not in mine.content
    await t.players[HK].click(mine, label="Spice…")
    mine = fresh(t, mine)
    assert options_of(mine, "spice") == ["0", "1", "2", "3"]
    before = t.state().to_dict()
    seen = public_messages(t)
    done(await at.click(first, label="Lock"))  # the first builder's draft: no KH
    wid = select_id(second, "leader")
    choice = [WITH_KH + "Duncan Idaho"]
    assert "no longer waits" in refused(await at.select(second, choice, custom_id=wid))
    assert "no longer waits" in refused(await at.click(second, label="Spice…"))
    assert "no longer waits" in refused(await at.click(second, label="Lock"))
    fight = BATTLE.of(t.state().whole)
    assert fight is not None and not fight.plans[AT].kwisatz_haderach
    assert before != t.state().to_dict()
    table = [m.content for m in t.table.history() if m.id not in seen]
    assert sum("Atreides' battle plan is in" in m for m in table) == 1
    refusals(simcord_env)


@pytest.mark.parametrize(("advanced", "active"), [(False, True), (True, False)])
async def test_no_spice_menu_in_the_basic_game_and_no_kwisatz_haderach_unless_active(
    simcord_env: simcord.Env, advanced: bool, active: bool
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, kwisatz_haderach_battle(advanced=advanced, active=active))
    builder = message_of(await t.players[AT].slash(t.table, "battle-plan"))
    assert not any(v.startswith(WITH_KH) for v in options_of(builder, "leader"))
    assert "Kwisatz" not in builder.content
    assert ("Spice…" in labels(builder)) is advanced
    assert ("**Spice…**" in builder.content) is advanced


async def test_a_moderator_who_lost_the_role_turns_no_page(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env, moderator_role="Moderators")
    holder = t.role_holder
    assert holder is not None and t.role is not None
    await start_at(t, kwisatz_haderach_battle())
    builder = message_of(await holder.slash(t.table, "battle-plan", faction="atreides"))
    await holder.click(builder, label="Spice…")  # a current moderator may, for the Atreides
    builder = fresh(t, builder)
    assert options_of(builder, "spice")[-1] == "6"
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    before = t.state().to_dict()
    assert "Atreides seat" in refused(await holder.click(builder, label="Dial…"))
    spice_id = select_id(builder, "spice")
    assert "Atreides seat" in refused(await holder.select(builder, ["6"], custom_id=spice_id))
    assert "Atreides seat" in refused(await holder.click(builder, label="Lock"))
    assert t.state().to_dict() == before
    refusals(simcord_env)


async def test_the_menus_follow_the_voice_and_junk_starting_options_are_clamped(
    simcord_env: simcord.Env,
) -> None:
    """The Voice forbids worthless cards: the Atreides' menus offer none (their Baliset
    neither as weapon nor as defense); the Harkonnen asking for the Kwisatz Haderach and 99
    spice start with neither; the Atreides' draft, locked as it opened, obeys."""
    t = await whole_table(simcord_env)
    await start_at(t, bg_against_atreides())
    done(
        await t.players[F.BENE_GESSERIT].slash(
            t.table, "voice", command="not_play", kind="worthless"
        )
    )
    done(await t.players[AT].slash(t.table, "prescience", ask="defense"))
    at = t.players[AT]
    builder = message_of(await at.slash(t.table, "battle-plan", kwisatz_haderach=True, spice=99))
    assert options_of(builder, "weapon") == ["-", "Crysknife"]
    assert options_of(builder, "defense") == ["-", "Snooper"]
    assert "Kwisatz" not in builder.content and "paying" not in builder.content
    assert "The Voice: you must not play worthless" in builder.content
    assert "Locked" in done(await at.click(builder, label="Lock"))
    fight = BATTLE.of(t.state().whole)
    assert fight is not None and not fight.plans[AT].kwisatz_haderach
    refusals(simcord_env)


async def test_a_builder_outlives_neither_its_seat_nor_its_deadline(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """The Atreides' player, re-seated away with a builder open, can neither choose nor
    lock; the new player's builder, after the deadline gave the plan its default, is stale.
    Nothing changes and nothing is logged as a crash."""
    t = await whole_table(simcord_env)
    await start_at(t, kwisatz_haderach_battle())
    old = t.players[AT]
    builder = message_of(await old.slash(t.table, "battle-plan"))
    await t.moderator.slash(t.table, "game seat", player=t.outsider, faction="atreides")
    before = t.state().to_dict()
    wid = select_id(builder, "leader")
    assert "Atreides seat" in refused(await old.select(builder, ["Duncan Idaho"], custom_id=wid))
    assert "Atreides seat" in refused(await old.click(builder, label="Lock"))
    assert t.state().to_dict() == before
    new = message_of(await t.outsider.slash(t.table, "battle-plan"))
    await advance(t, bots, STEP + 1)  # the deadline: both plans get their defaults
    fight = BATTLE.of(t.state().whole)
    assert fight is not None and fight.revealed
    after = t.state().to_dict()
    wid = select_id(new, "leader")
    assert "no longer waits" in refused(
        await t.outsider.select(new, ["Duncan Idaho"], custom_id=wid)
    )
    assert "no longer waits" in refused(await t.outsider.click(new, label="Lock"))
    assert t.state().to_dict() == after
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))


async def test_a_builder_of_one_side_of_the_storm_locks_nothing_on_the_other(
    simcord_env: simcord.Env,
) -> None:
    """The storm splits Wind Pass: the Harkonnen and the Emperor fight twice there, once on
    each side (1.07.01). The Emperor's builder opened for the first battle is stale in the
    second (the same territory and sides, other forces): its Lock submits nothing."""
    state = at_battle(
        storm=14,
        seats=["harkonnen", "atreides", "fremen", "spacing_guild", "emperor", "bene_gesserit"],
        board=[
            ("harkonnen", "Wind Pass", 13, 1),
            ("emperor", "Wind Pass", 13, 2),
            ("harkonnen", "Wind Pass", 16, 1),
            ("emperor", "Wind Pass", 16, 1),
        ],
    )
    act(state, "harkonnen", "battle", territory="Wind Pass", opponent="emperor", sector=16)
    t = await whole_table(simcord_env)
    await start_at(t, state)
    em = t.players[F.EMPEROR]
    first = message_of(await em.slash(t.table, "battle-plan"))
    assert "Forces there: 1;" in first.content and "Wind Pass (sectors 15-16)**" in first.content
    n = 0
    for plan in (
        BattlePlan(HK, "Wind Pass", "Feyd Rautha", 1),
        BattlePlan(F.EMPEROR, "Wind Pass", "Bashar", 0),
    ):
        await t.bot.app.submit(t.game_id, plan, actor=t.players[plan.faction].id, key=f"p{n}")
        n += 1
    while (fight := BATTLE.of(t.state().whole)) is not None and fight.sectors != (13,):
        for faction in t.state().whole.waiting:  # no traitor, no card kept
            n += 1
            await t.bot.app.submit(
                t.game_id, Pass(faction), actor=t.players[faction].id, key=f"pass-{n}"
            )
    await t.session.until_idle()
    assert t.state().whole.step == "plans" and F.EMPEROR in t.state().whole.waiting
    before = t.state().to_dict()
    assert "no longer waits" in refused(await em.click(first, label="Lock"))
    assert t.state().to_dict() == before
    second = message_of(await em.slash(t.table, "battle-plan"))
    assert "Forces there: 2;" in second.content and "Wind Pass (sector 13)**" in second.content
    assert "Locked" in done(await em.click(second, label="Lock"))
    refusals(simcord_env)


async def test_a_builder_whose_options_changed_is_stale(simcord_env: simcord.Env) -> None:
    """The Voice taken back by the moderators and spoken again otherwise: the Atreides'
    builder opened under the first command (its menus, its words) locks nothing; a new one
    follows the new command."""
    t = await whole_table(simcord_env)
    await start_at(t, bg_against_atreides())
    bg, at = t.players[F.BENE_GESSERIT], t.players[AT]
    done(await bg.slash(t.table, "voice", command="not_play", kind="worthless"))
    done(await at.slash(t.table, "prescience", ask="defense"))
    old = message_of(await at.slash(t.table, "battle-plan"))
    assert "must not play worthless" in old.content
    for _ in range(2):  # the Prescience, then the Voice
        await t.moderator.slash(t.table, "mod undo")
    done(await bg.slash(t.table, "voice", command="play", kind="worthless"))
    done(await at.slash(t.table, "prescience", ask="defense"))
    before = t.state().to_dict()
    for result in (
        await at.select(old, ["-"], custom_id=select_id(old, "weapon")),
        await at.click(old, label="Lock"),
    ):
        assert "open `/battle-plan` again" in refused(result)
    assert t.state().to_dict() == before
    new = message_of(await at.slash(t.table, "battle-plan"))
    assert "must play worthless" in new.content and "playing Baliset" in new.content
    assert "Locked" in done(await at.click(new, label="Lock"))
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))
