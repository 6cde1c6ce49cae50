"""Issue 23: a hostile round on the Karama windows, the advisors and stale buttons of
Shipment & Movement as a whole game runs it (``/game new kind:whole_game``).

The position: turn 2's Shipment & Movement phase, advanced game; the Harkonnen ship first,
to Carthag, paying the Guild (a ✷ ability: a Karama window, then the Bene Gesserit's
advisor). The Atreides hold a Karama card; the Bene Gesserit a worthless one (a Karama in
the advanced game). Every test plays as a hostile player would: another faction, an
outsider, a stale or doubled button, junk, and Discord failing."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
import simcord

from cogs.publisher import DiscordPublisher
from rules.factions import Faction
from rules.model import Stack
from tests.cogs.conftest import Bots, Table, is_ephemeral, refusals, text_of
from tests.cogs.faults import delete
from tests.cogs.test_restart import restart
from tests.cogs.turn_helpers import start_at, whole_table
from tests.rules.game_helpers import game_at

F = Faction
ATREIDES, BG, GUILD, HARKONNEN = F.ATREIDES, F.BENE_GESSERIT, F.SPACING_GUILD, F.HARKONNEN
FREMEN, EMPEROR = F.FREMEN, F.EMPEROR
HOLDINGS: dict[str, dict[str, Any]] = {
    "atreides": {"cards": ("Karama",)},
    "bene_gesserit": {"cards": ("Baliset",)},
}


def labels(message: discord.Message) -> list[str]:
    return [c["label"] for row in message.components for c in row.to_dict()["components"]]


def latest(t: Table, faction: Faction) -> discord.Message:
    """``faction``'s newest message with buttons."""
    asked = [m for m in t.private(faction).history() if m.components]
    assert asked, f"{faction.label} was never asked"
    return asked[-1]


def now(t: Table, faction: Faction, old: discord.Message) -> discord.Message:
    """The message ``old`` as it reads now (edits included)."""
    return next(m for m in t.private(faction).history() if m.id == old.id)


def kinds(t: Table) -> list[str]:
    return [p.kind.value for p in t.state().open_prompts()]


@pytest.fixture
def edits_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's edits of closed prompts never reach the players (an outage, a client
    that did not refresh): their old buttons are still there to press."""

    async def lost(self: DiscordPublisher, game_id: int, ref: str, text: str) -> None:
        return None

    monkeypatch.setattr(DiscordPublisher, "close_prompt", lost, raising=False)


async def advance(t: Table, bots: Bots, seconds: float) -> None:
    await t.session.until_idle()
    await bots.clock.advance(seconds, settle=t.session.next_idle)
    await t.env.settle()


async def at_shipment(env: simcord.Env, **holdings: dict[str, Any]) -> Table:
    """A whole game in its Shipment & Movement phase, the Guild's timing answered: the
    Harkonnen are to ship."""
    t = await whole_table(env)
    await start_at(t, game_at("shipment_movement", advanced=True, factions=holdings or HOLDINGS))
    await t.players[GUILD].click(latest(t, GUILD), label="Decline")
    assert t.state().to_act() is HARKONNEN and not t.state().open_prompts()
    return t


async def ship_to_carthag(t: Table) -> None:
    harkonnen = t.players[HARKONNEN]
    preview = await harkonnen.slash(t.table, "ship", to="Carthag", sector=10, forces=2)
    done = await harkonnen.click(preview.response.message, label="Confirm")
    assert "Done" in text_of(done), text_of(done)
    assert kinds(t)[0] == "karama"


# -- 1. a stale Karama or step button cannot act on a later prompt ----------------------


async def test_a_stale_karama_button_cannot_cancel_a_later_window(
    simcord_env: simcord.Env, bots: Bots, edits_lost: None
) -> None:
    """The Atreides' button of the shipment's window, pressed once the Bene Gesserit's
    advisor opened a window of its own (the same choice, the same label), plays nothing;
    the new window's own button does."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    old = latest(t, ATREIDES)
    assert labels(old) == ["Cancel it with Karama", "Decline"]
    await advance(t, bots, 5 * 60 + 1)  # the shipment's window runs out
    assert kinds(t) == ["advise"]
    await t.players[BG].click(latest(t, BG), label="Advise to the Polar Sink")
    assert kinds(t) == ["karama"]  # a window on the advisor, asked in a new message
    new = latest(t, ATREIDES)
    assert new.id != old.id and labels(new) == ["Cancel it with Karama", "Decline"]
    before = t.state().to_dict()
    stale = await t.players[ATREIDES].click(old, label="Cancel it with Karama")
    assert is_ephemeral(stale) and text_of(stale).startswith("Refused: this prompt has closed")
    assert t.state().to_dict() == before  # no Karama played, the window still open
    assert t.state().factions[ATREIDES].cards == ("Karama",)
    assert now(t, ATREIDES, old).components == []  # the stale message is closed now
    played = await t.players[ATREIDES].click(new, label="Cancel it with Karama")
    assert text_of(played) == "Cancelled with Karama.", text_of(played)
    assert t.state().factions[ATREIDES].cards == ()


async def test_a_stale_karama_button_cannot_answer_the_same_offers_next_stage(
    simcord_env: simcord.Env, bots: Bots, edits_lost: None
) -> None:
    """Within one offer (one token) the window's buttons die with the window: once the
    advisor's stage is open, the Atreides' Karama and Decline answer nothing."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    old = latest(t, ATREIDES)
    await advance(t, bots, 5 * 60 + 1)
    assert kinds(t) == ["advise"]
    before = t.state().to_dict()
    stale = await t.players[ATREIDES].click(old, label="Cancel it with Karama")
    assert text_of(stale) == "Refused: this prompt has closed: the window timed out."
    assert t.state().to_dict() == before
    assert now(t, ATREIDES, old).content.endswith("**Closed: the window timed out.**")


async def test_a_stale_step_button_cannot_pass_a_later_step(
    simcord_env: simcord.Env, bots: Bots, edits_lost: None
) -> None:
    """The Harkonnen's shipment-step Pass, pressed in their movement step after the
    windows, passes nothing."""
    t = await at_shipment(simcord_env)
    ship_step = latest(t, HARKONNEN)
    assert "Pass" in labels(ship_step)
    await ship_to_carthag(t)
    await advance(t, bots, 5 * 60 + 1)
    await t.players[BG].click(latest(t, BG), label="Decline")
    assert not t.state().open_prompts()
    assert t.state().to_act() is HARKONNEN and t.state().public_view().step == "move"
    stale = await t.players[HARKONNEN].click(ship_step, label="Pass")
    assert text_of(stale) == "Refused: this prompt has closed: you acted."
    assert t.state().to_act() is HARKONNEN and t.state().public_view().step == "move"
    move_step = latest(t, HARKONNEN)
    assert move_step.id != ship_step.id
    await t.players[HARKONNEN].click(move_step, label="Pass")
    assert t.state().to_act() is not HARKONNEN


async def test_a_karama_button_pressed_twice_plays_one_card(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two clicks on the same Karama button reach the bot before either is handled: one
    card is played, the other click is refused by the button's binding."""
    t = await at_shipment(simcord_env, atreides={"cards": ("Karama", "Karama")})
    await ship_to_carthag(t)
    prompt = latest(t, ATREIDES)

    async def not_yet(**_: object) -> None:
        return None  # the first click is dispatched, not yet handled

    with monkeypatch.context() as held:
        held.setattr(simcord_env, "_settle_internal", not_yet)
        first = await t.players[ATREIDES].click(prompt, label="Cancel it with Karama")
    second = await t.players[ATREIDES].click(prompt, label="Cancel it with Karama")
    answers = sorted([text_of(first), text_of(second)])
    assert answers[0] == "Cancelled with Karama.", answers
    assert answers[1].startswith("Refused: this prompt has closed"), answers
    assert t.state().factions[ATREIDES].cards == ("Karama",)  # one card played


# -- 2. an undone decline never names the decliner ----------------------------------------


def posted(t: Table) -> tuple[int, int]:
    """How many messages the table and the spectators' channel hold now."""
    return len(t.table.history()), len(t.spectators.history())


def public_since(t: Table, seen: tuple[int, int]) -> str:
    """What the table and the spectators were told since ``seen`` (:func:`posted`)."""
    table = [m.content for m in t.table.history()[seen[0] :]]
    return "\n".join(table + [m.content for m in t.spectators.history()[seen[1] :]])


async def test_an_undone_and_redone_window_never_names_its_decliner(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """The Atreides decline the shipment's window; the moderator takes the shipment back
    and makes it again, then lets the window run out and takes its end back: no public
    word names the Atreides (only the window and the shipment are told)."""
    t = await at_shipment(simcord_env)
    seen = posted(t)
    await ship_to_carthag(t)
    await t.players[ATREIDES].click(latest(t, ATREIDES), label="Decline")
    await t.moderator.slash(t.table, "mod undo")
    assert "shipment of 2 forces to Carthag (sector 10) was taken back" in (
        t.table.last_message.content
    )
    await t.moderator.slash(t.table, "mod redo")
    assert kinds(t)[0] == "karama"
    await t.players[ATREIDES].click(latest(t, ATREIDES), label="Decline")  # asked anew
    await advance(t, bots, 5 * 60 + 1)
    assert kinds(t) == ["advise"]
    await t.moderator.slash(t.table, "mod undo")  # the window's end taken back
    assert kinds(t)[0] == "karama"
    assert "the last decision was taken back" in t.table.last_message.content
    told = public_since(t, seen)
    assert not re.search(r"Atreides|Fremen|Emperor|declines|declined the", told), told


async def test_a_window_reopened_by_an_undo_runs_the_window_time_again(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """Taking back the end of a window reopens it for the game's window time from then
    (docs/windows.md), not for the advisor's prompt time that followed it; the table is
    told when it closes."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    await advance(t, bots, 5 * 60 + 1)
    assert kinds(t) == ["advise"]
    await t.moderator.slash(t.table, "mod undo")
    assert kinds(t)[0] == "karama"
    closes = int((bots.clock.now() + t.session.timing.window).timestamp())
    assert f"The window closes <t:{closes}:R>" in t.table.last_message.content
    assert t.session.deadline.at == bots.clock.now() + t.session.timing.window
    await advance(t, bots, 5 * 60 + 1)
    assert kinds(t) == ["advise"]


# -- 3. a window reaches every other faction when the table or a channel fails -----------


def moderators(t: Table) -> str:
    return "\n".join(m.content for m in t.channel("dune-moderators").history())


@pytest.mark.parametrize("status", [503, 429])
async def test_a_window_reaches_every_holder_when_the_table_fails_and_a_channel_is_gone(
    simcord_env: simcord.Env, bots: Bots, status: int
) -> None:
    """The Atreides' private channel is deleted and the table refuses every post: the
    Bene Gesserit (a worthless card: a Karama in the advanced game) still hear of the
    shipment's window in their own channel, with its buttons, and may play it."""
    t = await at_shipment(simcord_env)
    delete(t, t.private(ATREIDES))
    simcord_env.inject_error("POST", f"/channels/{t.table.id}/messages", status=status, times=None)
    await ship_to_carthag(t)
    assert "Harkonnen ships 2 forces" not in t.table.last_message.content  # not told yet
    prompt = latest(t, BG)
    assert "Karama window" in prompt.content
    assert labels(prompt)[:2] == ["Cancel it with Karama", "Decline: Karama"]
    assert "Atreides private channel" in moderators(t)
    played = await t.players[BG].click(prompt, label="Cancel it with Karama")
    assert text_of(played) == "Cancelled with Karama.", text_of(played)
    assert t.state().factions[BG].cards == ()


# -- 4. the spectators hear of a shipment whose table post was rate-limited ----------------


async def test_the_spectators_hear_of_a_shipment_the_table_could_not_post(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """Every post to the table is rate-limited (429) from the shipment on: the window,
    the advisor and the Harkonnen's movement go on in private, and the spectators' record
    of the Harkonnen's turn tells the shipment; once the table takes posts again, it gets
    what it missed, in order."""
    t = await at_shipment(simcord_env)
    seen = posted(t)
    simcord_env.inject_error("POST", f"/channels/{t.table.id}/messages", status=429, times=None)
    await ship_to_carthag(t)
    await advance(t, bots, 5 * 60 + 1)  # the window runs out unseen at the table
    await t.players[BG].click(latest(t, BG), label="Decline")
    await t.players[HARKONNEN].click(latest(t, HARKONNEN), label="Pass")
    assert t.state().to_act() is GUILD or t.state().open_prompts()
    assert len(t.table.history()) == seen[0]  # the table heard nothing
    record = [m.content for m in t.spectators.history()[seen[1] :]]
    turns = [text for text in record if text.startswith("**Harkonnen's turn**")]
    assert turns and "Harkonnen ships 2 forces to Carthag (sector 10)" in turns[0], record
    simcord_env.backend.faults.clear()
    await t.moderator.slash(t.table, "mod pause")
    await advance(t, bots, 1)
    table = [m.content for m in t.table.history()[seen[0] :]]
    shipped = [i for i, text in enumerate(table) if "Harkonnen ships 2 forces" in text]
    paused = [i for i, text in enumerate(table) if "Paused by" in text]
    assert shipped and paused and shipped[0] < paused[0], table


# -- the advisors --------------------------------------------------------------------------


async def test_an_advisor_sent_by_command_during_the_window_is_noted_not_done(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """``/bg advise`` while the shipment's window runs is kept, like the button's answer:
    the Bene Gesserit read that it is noted and waits for the window, never "Done" (no
    advisor is on the board yet); it is applied when the advisor's stage opens."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    result = await t.players[BG].slash(t.table, "bg advise", to="Carthag")
    assert is_ephemeral(result)
    assert text_of(result) == (
        "Noted: advisor to Carthag. Only you know; the open window still runs its time, "
        "and your answer stands until then."
    )
    assert t.state().stack(BG, "Carthag", 10).advisors == 0
    await advance(t, bots, 5 * 60 + 1)
    assert t.state().stack(BG, "Carthag", 10).advisors == 1
    done = await t.players[BG].slash(t.table, "bg advise", to="Polar Sink")  # answered
    assert text_of(done).startswith("Refused"), text_of(done)
    refusals(simcord_env)


async def test_a_stale_advisor_button_cannot_send_an_advisor_after_a_later_shipment(
    simcord_env: simcord.Env, bots: Bots, edits_lost: None
) -> None:
    """The Bene Gesserit decline their advisor after the Harkonnen's shipment; the Guild
    then ships to the same place. The old message's "Advise to Carthag (sector 10)" (the
    same label, the same prompt kind) sends nothing: only the new message answers."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    old = latest(t, BG)
    await advance(t, bots, 5 * 60 + 1)
    declined = await t.players[BG].click(old, label="Decline")
    assert text_of(declined) == "Declined."
    await t.players[HARKONNEN].click(latest(t, HARKONNEN), label="Pass")
    assert t.state().to_act() is GUILD
    guild = t.players[GUILD]
    preview = await guild.slash(t.table, "ship", to="Carthag", sector=10, forces=1)
    await guild.click(preview.response.message, label="Confirm")
    assert "advise" in [p.kind.value for stage in t.state().phase.stages for p in stage]
    new = latest(t, BG)
    assert new.id != old.id and "Advise to Carthag (sector 10)" in labels(new)
    before = t.state().to_dict()
    stale = await t.players[BG].click(old, label="Advise to Carthag (sector 10)")
    assert text_of(stale) == "Refused: this prompt has closed: you declined."
    assert t.state().to_dict() == before and t.session.windows.offer.kept == {}
    await advance(t, bots, 5 * 60 + 1)  # the Guild's window, if any, runs out
    assert t.state().stack(BG, "Carthag", 10).advisors == 0  # nothing was kept either
    sent = await t.players[BG].click(new, label="Advise to Carthag (sector 10)")
    assert text_of(sent).startswith("Advisor sent to Carthag"), text_of(sent)
    assert t.state().stack(BG, "Carthag", 10).advisors == 1
    refusals(simcord_env)


# -- the hostile round: other seats, outsiders, ex-moderators, junk --------------------------


async def copied(t: Table, prompt: discord.Message) -> discord.Message:
    """``prompt``'s buttons, their custom ids unchanged, in a message of the table: what a
    player who is not its faction's could send with a crafted interaction."""
    view = discord.ui.View(timeout=None)
    for row in prompt.components:
        for button in row.to_dict()["components"]:
            view.add_item(discord.ui.Button(label=button["label"], custom_id=button["custom_id"]))
    channel = t.bot.get_channel(t.table.id)
    assert isinstance(channel, discord.TextChannel)
    return await channel.send("A copy", view=view)


async def test_nobody_but_the_seat_answers_a_window_or_an_advisor(
    simcord_env: simcord.Env,
) -> None:
    """The window's and the advisor's buttons, pressed by another faction's player, an
    outsider and a moderator whose role was taken away (crafted interactions): each is
    refused privately, and nothing changes, is kept, declined or told."""
    t = await whole_table(simcord_env, moderator_role="Mentats")
    await start_at(t, game_at("shipment_movement", advanced=True, factions=HOLDINGS))
    await t.players[GUILD].click(latest(t, GUILD), label="Decline")
    await ship_to_carthag(t)
    atreides = await copied(t, latest(t, ATREIDES))
    bg = await copied(t, latest(t, BG))
    holder, role = t.role_holder, t.role
    assert holder is not None and role is not None
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, role.id)
    before, offer, seen = t.state().to_dict(), t.session.windows.offer, posted(t)
    for who, message, label, seat in [
        (t.players[FREMEN], atreides, "Cancel it with Karama", "Atreides"),
        (t.players[HARKONNEN], atreides, "Decline", "Atreides"),
        (t.outsider, bg, "Advise to Carthag (sector 10)", "Bene Gesserit"),
        (holder, bg, "Decline: Karama", "Bene Gesserit"),
        (holder, atreides, "Cancel it with Karama", "Atreides"),
    ]:
        result = await who.click(message, label=label)
        assert is_ephemeral(result)
        assert text_of(result) == f"Refused: you do not hold the {seat} seat in this game."
    assert t.state().to_dict() == before and t.session.windows.offer == offer
    assert public_since(t, seen) == ""
    assert labels(latest(t, ATREIDES)) == ["Cancel it with Karama", "Decline"]  # still asked
    refusals(simcord_env)


@pytest.mark.parametrize(
    ("faction", "command", "options", "said"),
    [
        (FREMEN, "karama cancel", {}, "Fremen holds no Karama card (rule 3.01.11)"),
        # issue 26: what will not be legal once the window closes gets the engine's refusal
        (FREMEN, "bg advise", {"to": "Polar Sink"}, "only the Bene Gesserit send spiritual"),
        (BG, "bg advise", {"to": "x" * 90}, "there is no territory called 'xxx"),
        (BG, "place-advisor", {"to": "Arrakeen"}, "not an action of the Shipment & Movement"),
        (ATREIDES, "pass", {}, "it is not Atreides's turn: Harkonnen is to ship and move now"),
        (EMPEROR, "karama stop-shipment", {}, "Emperor has no open guild stop prompt"),
        # ... and "please wait" only what may be legal then: the Harkonnen's own movement
        (HARKONNEN, "pass", {}, "please wait until this closes"),
    ],
)
async def test_junk_and_other_seats_commands_in_a_window_change_nothing(
    simcord_env: simcord.Env, faction: Faction, command: str, options: dict[str, Any], said: str
) -> None:
    """Commands in the window by those it does not wait on, or with junk: refused
    privately, citing the rule, within Discord's limit; nothing changes or is told, and
    the window's own asked players are still asked."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    before, offer, seen = t.state().to_dict(), t.session.windows.offer, posted(t)
    result = await t.players[faction].slash(t.table, command, **options)
    text = text_of(result)
    assert is_ephemeral(result) and text.startswith("Refused: ") and said in text, text
    assert "(rule " in text and len(text) < 2000 and "x" * 90 not in text
    assert t.state().to_dict() == before and t.session.windows.offer == offer
    assert public_since(t, seen) == ""
    refusals(simcord_env)


async def test_a_restart_in_a_window_keeps_its_no_its_end_and_its_kept_advisor(
    simcord_env: simcord.Env, bots: Bots, edits_lost: None
) -> None:
    """Mentat restarts in the middle of the shipment's window: the Atreides' "no" stands
    (not asked again, their old button refused), the window ends when it would have, and
    the advisor the Bene Gesserit sent early is placed then."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    old = latest(t, ATREIDES)
    await t.players[ATREIDES].click(old, label="Decline")
    await t.players[BG].click(latest(t, BG), label="Advise to Carthag (sector 10)")
    end = t.session.deadline.at
    asked = len(t.private(ATREIDES).history())
    await advance(t, bots, 60)
    await restart(t, bots)
    assert t.session.deadline.at == end and kinds(t)[0] == "karama"
    assert len(t.private(ATREIDES).history()) == asked  # not asked again
    stale = await t.players[ATREIDES].click(old, label="Cancel it with Karama")
    assert text_of(stale).startswith("Refused: this prompt has closed: you declined")
    assert t.state().factions[ATREIDES].cards == ("Karama",)
    await advance(t, bots, 4 * 60 - 1)
    assert kinds(t)[0] == "karama"
    await advance(t, bots, 2)
    assert t.state().stack(BG, "Carthag", 10).advisors == 1
    refusals(simcord_env)


async def test_an_answer_kept_for_intrusion_outlives_the_advisors_own_window(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """The Harkonnen ship where the Bene Gesserit have fighters. During the window the
    Bene Gesserit answer both later prompts: an advisor to the Polar Sink, and Intrusion's
    flip. The advisor, placed when the window ends, opens a window of its own (a new
    offer); the flip they were told is kept still applies when Intrusion's turn comes."""
    t = await whole_table(simcord_env)
    board = [("bene_gesserit", "Carthag", 10, 2)]
    await start_at(t, game_at("shipment_movement", advanced=True, factions=HOLDINGS, board=board))
    await t.players[GUILD].click(latest(t, GUILD), label="Decline")
    await ship_to_carthag(t)
    bg = latest(t, BG)
    assert labels(bg)[2:] == [
        "Advise to the Polar Sink",
        "Decline: advisor",
        "Flip in Carthag",
        "Decline: intrusion",
    ]
    # Intrusion flips fighters to advisors (2.02.16): the prompt says no direction it lacks
    assert "flip your forces between fighters and advisors" in bg.content
    assert "advisors to fighters" not in bg.content
    await t.players[BG].click(bg, label="Advise to the Polar Sink")
    flip = await t.players[BG].click(now(t, BG, bg), label="Flip in Carthag")
    assert text_of(flip).startswith("Noted: Flip")
    await advance(t, bots, 5 * 60 + 1)  # the shipment's window ends: the advisor goes
    assert kinds(t) == ["karama"]  # the advisor's own window
    asked = len(t.private(BG).history())
    await advance(t, bots, 5 * 60 + 1)  # it ends: Intrusion's turn, answered as kept
    assert t.state().stack(BG, "Carthag", 10) == Stack(advisors=2)
    assert "intrusion" not in kinds(t)
    assert not any("Intrusion" in m.content for m in t.private(BG).history()[asked:])
    refusals(simcord_env)


async def test_an_ex_moderators_shipment_preview_confirms_nothing(
    simcord_env: simcord.Env,
) -> None:
    """A moderator previews the Harkonnen's shipment for them, loses the moderator role,
    then presses Confirm: refused; nothing is shipped and no window opens."""
    t = await whole_table(simcord_env, moderator_role="Mentats")
    await start_at(t, game_at("shipment_movement", advanced=True, factions=HOLDINGS))
    await t.players[GUILD].click(latest(t, GUILD), label="Decline")
    holder, role = t.role_holder, t.role
    assert holder is not None and role is not None
    preview = await holder.slash(
        t.table, "ship", to="Carthag", sector=10, forces=2, faction="harkonnen"
    )
    assert preview.response.content.startswith("**Preview**")
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, role.id)
    before, seen = t.state().to_dict(), posted(t)
    result = await holder.click(preview.response.message, label="Confirm")
    assert text_of(result) == "Refused: you do not hold the Harkonnen seat in this game."
    assert t.state().to_dict() == before and not t.state().open_prompts()
    assert public_since(t, seen) == ""
    refusals(simcord_env)


async def test_an_advisor_kept_for_a_stopped_shipment_never_lands(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """The Bene Gesserit send their advisor ahead while the window runs; the Guild stops
    the shipment with Karama. The kept advisor goes nowhere, and the Bene Gesserit's
    message no longer offers it."""
    t = await at_shipment(simcord_env, **HOLDINGS, spacing_guild={"cards": ("Karama",)})
    await ship_to_carthag(t)
    bg = latest(t, BG)
    await t.players[BG].click(bg, label="Advise to Carthag (sector 10)")
    stop = await t.players[GUILD].click(latest(t, GUILD), label="Stop the shipment (Karama)")
    assert text_of(stop) == "Shipment stopped with Karama."
    assert not t.state().open_prompts() and t.session.windows.offer.kept == {}
    await advance(t, bots, 5 * 60 + 1)
    assert t.state().stack(BG, "Carthag", 10) == Stack()
    assert t.state().factions[BG].reserves == 10
    assert now(t, BG, bg).components == []
    late = await t.players[BG].slash(t.table, "bg advise", to="Carthag")
    assert text_of(late).startswith("Refused"), text_of(late)
    refusals(simcord_env)


async def test_a_doubled_click_on_one_answer_leaves_the_others_of_the_message(
    simcord_env: simcord.Env, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Bene Gesserit's message asks the window and the advisor. A double click on
    "Decline: Karama" declines once; the second click is refused, and the message still
    offers the advisor (the refusal closed the whole message, advisor buttons included)."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    bg = latest(t, BG)

    async def not_yet(**_: object) -> None:
        return None  # the first click is dispatched, not yet handled

    with monkeypatch.context() as held:
        held.setattr(simcord_env, "_settle_internal", not_yet)
        first = await t.players[BG].click(bg, label="Decline: Karama")
    second = await t.players[BG].click(bg, label="Decline: Karama")
    answers = sorted([text_of(first), text_of(second)])
    assert answers[0].startswith("Noted: Decline"), answers
    assert answers[1] == "Refused: you already answered that; your first answer stands.", answers
    message = now(t, BG, bg)
    assert "**Closed" not in message.content
    assert labels(message) == [
        "Advise to the Polar Sink",
        "Advise to Carthag (sector 10)",
        "Decline",
    ]
    await advance(t, bots, 5 * 60 + 1)
    sent = await t.players[BG].click(now(t, BG, bg), label="Advise to the Polar Sink")
    assert text_of(sent) == "Advisor sent to the Polar Sink.", text_of(sent)
    refusals(simcord_env)


@pytest.mark.parametrize("card", ["Baliset", "@everyone", "x" * 1900])
async def test_a_karama_holder_naming_a_card_it_lacks_is_told_so(
    simcord_env: simcord.Env, card: str
) -> None:
    """The Atreides hold a Karama card and name another one (junk, a card they lack):
    refused, quoting the name short, without being told they hold no Karama card; the
    window stays open and their own Karama still plays."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    before = t.state().to_dict()
    result = await t.players[ATREIDES].slash(t.table, "karama cancel", card=card)
    text = text_of(result)
    assert is_ephemeral(result) and text.startswith("Refused: Atreides holds no card "), text
    assert text.endswith(" to play as a Karama (rule 3.01.11).") and len(text) < 200, text
    assert t.state().to_dict() == before
    played = await t.players[ATREIDES].slash(t.table, "karama cancel", card="karama")
    assert text_of(played) == "Done: Karama played to cancel the ability just used."
    refusals(simcord_env)


async def test_a_step_button_of_an_earlier_turn_passes_nothing(
    simcord_env: simcord.Env, edits_lost: None
) -> None:
    """The Harkonnen's shipment-step Pass of turn 2, pressed in turn 3's Shipment &
    Movement phase, in the Harkonnen's shipment step again (the moderator ended every
    phase between them with its defaults, then skipped the steps before theirs)."""
    t = await at_shipment(simcord_env)
    old = latest(t, HARKONNEN)
    assert "Pass" in labels(old)
    for _ in range(40):
        state = t.state()
        if state.turn == 3 and state.game_phase.value == "shipment_movement":
            break
        await t.moderator.slash(t.table, "mod end-phase")
    assert t.state().turn == 3 and t.state().game_phase.value == "shipment_movement"
    for _ in range(30):  # the others' steps and prompts run out, until the Harkonnen ship
        state = t.state()
        if state.to_act() is HARKONNEN and not state.open_prompts():
            break
        await t.moderator.slash(t.table, "mod skip")
    assert t.state().to_act() is HARKONNEN and t.state().public_view().step == "ship"
    assert t.state().turn == 3
    before = t.state().to_dict()
    stale = await t.players[HARKONNEN].click(old, label="Pass")
    assert text_of(stale).startswith("Refused: this prompt has closed"), text_of(stale)
    assert t.state().to_dict() == before
    refusals(simcord_env)


async def test_the_advisors_decline_given_during_the_window_is_kept_like_its_advise(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """The Bene Gesserit's message offers "Decline: advisor" while the shipment's window
    runs: pressed, it is noted like an advisor sent ahead (it was refused, "please wait"),
    and applied when the advisor's stage opens: nobody asks the Bene Gesserit again."""
    t = await at_shipment(simcord_env)
    await ship_to_carthag(t)
    bg = latest(t, BG)
    result = await t.players[BG].click(bg, label="Decline: advisor")
    assert is_ephemeral(result) and text_of(result).startswith("Noted: Decline"), text_of(result)
    assert labels(now(t, BG, bg)) == ["Cancel it with Karama", "Decline"]
    assert kinds(t)[0] == "karama"  # the window runs on
    asked = len(t.private(BG).history())
    await advance(t, bots, 5 * 60 + 1)
    assert not t.state().open_prompts() and t.state().to_act() is HARKONNEN
    assert t.state().public_view().step == "move" and t.state().factions[BG].reserves == 10
    assert len(t.private(BG).history()) == asked  # not asked again
    assert now(t, BG, bg).components == []
    refusals(simcord_env)
