"""Private prompts through Discord: buttons bound to the prompt or step they were made
for, closed messages that say how they closed, /pass naming its step, a bystander's
/pass, and deadlines shown as Discord timestamps that follow pause, resume and extend."""

from __future__ import annotations

import re

import discord
import pytest
import simcord

from bot.session.session import SessionError
from cogs.publisher import DiscordPublisher
from rules.errors import NotYourTurnError, RulesError
from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, is_ephemeral, make_table, refusals, text_of

BG, GUILD = Faction.BENE_GESSERIT, Faction.SPACING_GUILD


def now(t: Table, faction: Faction, old: discord.Message) -> discord.Message:
    """The message ``old`` as it reads now (edits included)."""
    return next(m for m in t.private(faction).history() if m.id == old.id)


def labels(message: discord.Message) -> list[str]:
    return [c["label"] for row in message.components for c in row.to_dict()["components"]]


@pytest.fixture
def edits_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's edits of closed prompts never reach the players (an outage, a
    client that did not refresh): their old buttons are still there to press."""

    async def lost(self: DiscordPublisher, game_id: int, ref: str, text: str) -> None:
        return None

    monkeypatch.setattr(DiscordPublisher, "close_prompt", lost, raising=False)


async def test_a_declined_prompt_says_so_and_loses_its_buttons(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    prompt = t.private(GUILD).last_message
    assert labels(prompt) == ["Act now", "Decline"]
    await t.players[GUILD].click(prompt, label="Decline")
    closed = now(t, GUILD, prompt)
    assert closed.content.endswith("**Closed: you declined.**")
    assert closed.components == []
    ship_step = t.private(BG).last_message
    await t.players[BG].click(ship_step, label="Pass")
    assert now(t, BG, ship_step).content.endswith("**Closed: you passed.**")
    assert now(t, BG, ship_step).components == []
    assert "Pass" in labels(t.private(BG).last_message)  # the movement step's own prompt


async def test_an_old_decline_never_answers_a_later_prompt(
    simcord_env: simcord.Env, edits_lost: None
) -> None:
    t = await make_table(simcord_env)
    old = t.private(GUILD).last_message  # Guild timing, before the Bene Gesserit's turn
    await t.players[GUILD].click(old, label="Decline")
    await t.players[BG].slash(t.table, "pass")
    await t.players[BG].click(t.private(BG).last_message, label="Pass")  # the movement
    new = t.private(GUILD).last_message
    assert new.id != old.id and labels(new) == ["Act now", "Decline"]
    before = t.state().to_dict()
    result = await t.players[GUILD].click(old, label="Act now")
    assert is_ephemeral(result)
    assert text_of(result) == "Refused: this prompt has closed: you declined."
    assert t.state().to_dict() == before  # the Guild did not act now
    stale = now(t, GUILD, old)
    assert stale.content.endswith("**Closed: you declined.**") and stale.components == []
    await t.players[GUILD].click(new, label="Act now")  # the current prompt still works
    assert t.state().to_act() is GUILD


async def test_an_old_ship_step_pass_does_not_pass_the_movement(
    simcord_env: simcord.Env, edits_lost: None
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    ship_step = t.private(BG).last_message
    await t.players[BG].click(ship_step, label="Pass")
    assert t.state().public_view().step == "move"
    again = await t.players[BG].click(ship_step, label="Pass")
    assert text_of(again) == "Refused: this prompt has closed: you passed."
    assert t.state().to_act() is BG and t.state().public_view().step == "move"


@pytest.mark.parametrize(
    "old_id",
    [
        "mentat:{game}:spacing_guild:guild_now:guild_timing",  # before tokens
        "mentat:{game}:spacing_guild:guild_now:guild_timing:7",  # before actions
        "mentat-bid:{game}:spacing_guild:4:7",  # a raise button of before
    ],
)
async def test_a_button_of_an_earlier_mentat_answers_nothing(
    simcord_env: simcord.Env, old_id: str
) -> None:
    """Buttons of an earlier Mentat (no token, or a choice's name instead of the action it
    submits) do nothing: the click is answered and their message closed."""
    t = await make_table(simcord_env)
    legacy = discord.ui.View(timeout=None)
    legacy.add_item(discord.ui.Button(label="Old act now", custom_id=old_id.format(game=t.game_id)))
    channel = t.bot.get_channel(t.private(GUILD).id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("An old prompt", view=legacy)
    before = t.state().to_dict()
    result = await t.players[GUILD].click(sent, label="Old act now")
    assert is_ephemeral(result)
    assert text_of(result).startswith("This button is from an earlier version of Mentat")
    assert t.state().to_dict() == before  # the Guild timing prompt is still open
    assert now(t, GUILD, sent).components == []


# -- /pass --------------------------------------------------------------------------


async def test_pass_twice_is_answered_already_passed(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    bg = t.players[BG]
    first = await bg.slash(t.table, "pass")
    assert text_of(first) == "Done: you passed your shipment."
    second = await bg.slash(t.table, "pass")  # the double Enter
    assert "Bene Gesserit already passed its shipment" in text_of(second)
    assert t.state().to_act() is BG and t.state().public_view().step == "move"
    explicit = await bg.slash(t.table, "pass", step="shipment")
    assert "already passed its shipment" in text_of(explicit)
    moved_on = await bg.slash(t.table, "pass", step="movement")
    assert text_of(moved_on) == "Done: you passed your movement."
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    late = await bg.slash(t.table, "pass", step="movement")
    assert "Bene Gesserit already passed its movement" in text_of(late)
    assert BG in t.state().phase.done
    assert len(refusals(simcord_env)) == 3
    assert all(isinstance(e, RulesError) for e in refusals(simcord_env))


async def test_a_bystanders_pass_does_not_decline_its_prompt(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    result = await t.players[GUILD].slash(t.table, "pass")
    # issue 26: once the prompt closes it is still not the Guild's turn: the engine's
    # refusal, with its rule, not "please wait"
    assert is_ephemeral(result) and "Refused: it is not Spacing Guild's turn" in text_of(result)
    assert "(rule 1.06.00)" in text_of(result)
    (prompt,) = t.state().open_prompts()
    assert prompt.kind.value == "guild_timing" and GUILD in prompt.waiting_on()
    assert [type(e) for e in refusals(simcord_env)] == [NotYourTurnError]


# -- deadlines ------------------------------------------------------------------------


def stamps(message: discord.Message) -> list[int]:
    found = re.findall(r"<t:(\d+):[fR]>", message.content)
    assert len(set(found)) == 1, message.content
    return [int(s) for s in found]


async def test_deadlines_are_discord_timestamps_that_follow_pause_and_extend(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    prompt = t.private(GUILD).last_message
    deadline = t.session.deadline.at
    assert stamps(prompt) == [int(deadline.timestamp())] * 2
    assert "UTC" not in prompt.content
    await t.moderator.slash(t.table, "mod pause")
    assert "Deadline: paused by a moderator." in now(t, GUILD, prompt).content
    assert labels(now(t, GUILD, prompt)) == ["Act now", "Decline"]
    await t.moderator.slash(t.table, "mod extend", minutes=30)
    await t.moderator.slash(t.table, "mod resume")
    resumed = now(t, GUILD, prompt)
    assert stamps(resumed) == [int(deadline.timestamp()) + 30 * 60] * 2
    await t.moderator.slash(t.table, "mod extend", minutes=15)
    assert stamps(now(t, GUILD, prompt)) == [int(deadline.timestamp()) + 45 * 60] * 2


@pytest.mark.parametrize(
    ("command", "options", "said"),
    [
        ("mod extend", {"minutes": 10}, "the game is over; there is no deadline to extend"),
        ("mod pause", {}, "the game is over; there is nothing to pause"),
        ("mod resume", {}, "the game is over; there is nothing to resume"),
        ("mod skip", {}, "the game is over; there is nothing to skip"),
    ],
)
async def test_timing_commands_after_the_phase_are_refused(
    simcord_env: simcord.Env, command: str, options: dict[str, int], said: str
) -> None:
    t = await make_table(simcord_env)
    await t.moderator.slash(t.table, "mod end-phase")
    assert t.state().is_complete
    before = len(t.table.history())
    result = await t.moderator.slash(t.table, command, **options)
    assert is_ephemeral(result) and text_of(result) == f"Refused: {said}."
    assert len(t.table.history()) == before
    assert [type(e) for e in refusals(simcord_env)] == [SessionError]


async def test_a_windows_decline_is_private_and_the_window_runs_its_time(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """The Guild's stop asks only a Guild holding Karama; its Decline is noted privately,
    closes its message, and leaves the window to run its whole time (docs/windows.md)."""
    t = await make_table(simcord_env)
    timing = t.private(GUILD).last_message
    await t.moderator.slash(t.table, "mod card", faction="spacing_guild", card="Karama")
    await t.players[GUILD].click(now(t, GUILD, timing), label="Decline")
    seen = {f: len(t.private(f).history()) for f in t.players if f in t.state().factions}
    preview = await t.players[BG].slash(t.table, "ship", to="Arrakeen", forces=2)
    await t.players[BG].click(preview.response.message, label="Confirm")
    kinds = [p.kind.value for p in t.state().open_prompts()]
    assert kinds[0] == "karama" and "guild_stop" in kinds
    asked = {f for f in seen if len(t.private(f).history()) > seen[f] and f is not BG}
    assert asked == {GUILD}  # nobody else holds a Karama card
    prompt = t.private(GUILD).last_message
    assert labels(prompt) == ["Stop the shipment (Karama)", "Decline"]
    result = await t.players[GUILD].click(prompt, label="Decline")
    assert is_ephemeral(result) and text_of(result).startswith("Noted: Decline")
    assert "guild_stop" in [p.kind.value for p in t.state().open_prompts()]  # still running
    closed = now(t, GUILD, prompt)
    assert closed.content.endswith("**Closed: you declined (the window still runs its time).**")
    assert "The window closes <t:" in t.table.last_message.content
    assert closed.components == []
    await bots.clock.advance(4 * 60, settle=t.session.next_idle)
    assert "guild_stop" in [p.kind.value for p in t.state().open_prompts()]
    await bots.clock.advance(61, settle=t.session.next_idle)
    await t.env.settle()
    assert "guild_stop" not in [p.kind.value for p in t.state().open_prompts()]
    assert any(
        "The window for the others' answers closes." in m.content for m in t.table.history()[-3:]
    )


async def test_a_deleted_prompt_message_does_not_stop_the_answer(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    await t.moderator.delete(t.private(GUILD).last_message)
    result = await t.players[GUILD].slash(t.table, "guild standing-order", order="in_order")
    assert text_of(result) == (
        "Standing order saved (only you see it): Guild timing: keep your place in storm order."
    )
    assert t.state().open_prompts() == ()
    assert "Deadline: <t:" in t.private(BG).last_message.content


async def test_a_double_click_on_the_step_pass_button_passes_one_step(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two clicks on the same Pass reach the bot before either is handled: both are
    acknowledged, one passes the step, the other is refused by the button's binding."""
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    prompt = t.private(BG).last_message
    assert "Waiting for Bene Gesserit to ship" in prompt.content
    seen: list[str] = []
    real_submit = type(t.session).submit

    async def submit(self: object, *args: object, **kwargs: object) -> object:
        seen.append(str(kwargs.get("key")))  # both clicks get this far
        return await real_submit(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(type(t.session), "submit", submit)

    async def not_yet(**_: object) -> None:
        return None  # the first click is dispatched, not yet handled

    with monkeypatch.context() as held:
        held.setattr(simcord_env, "_settle_internal", not_yet)
        first = await t.players[BG].click(prompt, label="Pass")
    second = await t.players[BG].click(prompt, label="Pass")  # both are handled now
    assert 1 <= len(seen) <= 2, seen  # the second may be stopped before or by the session
    answers = sorted([text_of(first), text_of(second)])
    assert answers[0] == "Passed.", answers
    assert answers[1].startswith("Refused: this prompt has closed"), answers  # its binding
    assert first.acknowledged and second.acknowledged
    turn = t.state().phase.turn
    assert (turn.faction, str(t.state().public_view().step)) == (BG, "move")  # one step
    assert all(isinstance(e, SessionError | RulesError) for e in refusals(simcord_env))
