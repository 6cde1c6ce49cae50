"""Truthtrance through Discord (3.01.21): the asker plays it with ``/truthtrance ask``, the
target alone reads the question (its private prompt, Yes and No buttons), the table sees who
asked whom and then the answer, never the question; the asker hears the answer privately.
Hostile use: another faction answering, an outsider, an ex-moderator, a stale button, twice."""

from __future__ import annotations

import re

import discord
import simcord

from rules.errors import IllegalActionError, InvalidActionError, MentatError
from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, is_ephemeral, refusals, text_of
from tests.cogs.faults import STEP, advance
from tests.cogs.turn_helpers import (
    done,
    private_words,
    public_messages,
    public_since,
    start_at,
    whole_table,
)
from tests.rules.game_helpers import game_at

F = Faction
SECRET = "Will you ship to Carthag this turn? (secret-words-17)"
HOLDING = {"atreides": {"cards": ("Truthtrance", "Truthtrance")}, "bene_gesserit": {"tanks": 5}}
"""No card to sell: the game waits in the Revival phase (the Bene Gesserit choose); the
Atreides hold both Truthtrances."""


def buttons(message: discord.Message) -> dict[str, str]:
    """A message's buttons: label -> custom id."""
    rows = [c for row in message.components for c in row.to_dict()["components"]]
    return {c["label"]: c["custom_id"] for c in rows}


def question_message(t: Table, faction: Faction) -> discord.Message:
    """``faction``'s newest private message with the Yes/No buttons."""
    for message in reversed(t.private(faction).history()):
        if {"Yes", "No"} <= set(buttons(message)):
            return message
    raise AssertionError(f"no Truthtrance prompt for {faction.label}")


def button(message: discord.Message, choice: str) -> str:
    """The Yes or No button (``truthtrance_yes``, ``truthtrance_no``)."""
    return buttons(message)[choice.removeprefix("truthtrance_").capitalize()]


def no_leak_for(t: Table, *, asker: Faction, target: Faction) -> None:
    """The question is nowhere but the asker's and the target's private channels (and the
    moderators')."""
    assert SECRET not in "\n".join(public_messages(t).values())
    for faction in F:
        if faction not in (asker, target):
            assert SECRET not in private_words(t, faction), faction


async def asked(simcord_env: simcord.Env, **options: object) -> tuple[Table, dict[int, str]]:
    t = await whole_table(simcord_env, **options)
    await start_at(t, game_at("bidding", factions=HOLDING))
    before = public_messages(t)
    said = await done(t, F.ATREIDES, "truthtrance ask", target="harkonnen", question=SECRET)
    assert SECRET in said  # echoed to the asker alone, ephemerally
    return t, before


def no_leak(t: Table) -> None:
    """The question is nowhere but the asker's and the target's private channels."""
    no_leak_for(t, asker=F.ATREIDES, target=F.HARKONNEN)


async def test_asked_privately_answered_in_public(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, game_at("bidding", factions=HOLDING))
    atreides = t.players[F.ATREIDES]
    offered = await atreides.autocomplete(t.table, "truthtrance ask", "target", "")
    assert {c["value"] for c in offered} == {f.value for f in F if f is not F.ATREIDES}
    assert all("_" not in str(c["name"]) for c in offered)  # words, not ids
    harkonnen = t.players[F.HARKONNEN]
    assert await harkonnen.autocomplete(t.table, "truthtrance ask", "target", "") == []
    for_them = await t.moderator.autocomplete(
        t.table, "truthtrance ask", "target", "", faction="atreides"
    )
    assert for_them == offered  # a moderator acting for the holder
    waiting = t.state().waiting_on()
    before = public_messages(t)
    await done(t, F.ATREIDES, "truthtrance ask", target="harkonnen", question=SECRET)
    table = public_since(t, before)
    assert "Atreides plays Truthtrance on Harkonnen" in table, table
    assert "Waiting for Harkonnen to answer the Atreides' Truthtrance question" in table
    prompt = question_message(t, F.HARKONNEN)
    assert SECRET in (prompt.content or "") and "<t:" in (prompt.content or "")
    assert SECRET in private_words(t, F.ATREIDES)
    moderators = [m.content or "" for m in t.channel("dune-moderators").history()]
    assert any(SECRET in m and "Atreides ask Harkonnen" in m for m in moderators)
    no_leak(t)
    clicked = await harkonnen.click(prompt, custom_id=button(prompt, "truthtrance_yes"))
    assert "You answered Yes" in text_of(clicked)
    table = public_since(t, before)
    assert "Harkonnen answer the Atreides' Truthtrance question: **Yes**" in table, table
    assert "Harkonnen answered your Truthtrance question" in private_words(t, F.ATREIDES)
    no_leak(t)
    channels = [t.table, t.spectators, t.channel("dune-moderators"), *map(t.private, F)]
    every = [m.content or "" for c in channels for m in c.history()]
    assert not any("truthtrance_" in m for m in every)  # words, never the engine's ids
    assert t.state().waiting_on() == waiting  # the Revival phase resumes
    assert refusals(simcord_env) == []


async def test_the_answer_by_command_with_a_remark(simcord_env: simcord.Env) -> None:
    t, before = await asked(simcord_env)
    said = await done(t, F.HARKONNEN, "truthtrance answer", answer="no", remark="not  Carthag")
    assert said.startswith("Done: you answer No (“not Carthag”)")
    table = public_since(t, before)
    assert "question: **No** (“not Carthag”)." in table, table
    no_leak(t)
    mine = text_of(await t.players[F.ATREIDES].slash(t.table, "status"))
    assert f"Truthtrance: you asked Harkonnen “{SECRET}” (answer: No (“not Carthag”))." in mine
    theirs = text_of(await t.players[F.HARKONNEN].slash(t.table, "status"))
    assert f"Truthtrance: Atreides asked you “{SECRET}”" in theirs
    assert SECRET not in text_of(await t.players[F.FREMEN].slash(t.table, "status"))


async def test_no_answer_by_the_deadline(simcord_env: simcord.Env, bots: Bots) -> None:
    t, before = await asked(simcord_env)
    await advance(t, bots, STEP + 1)
    table = public_since(t, before)
    assert "Harkonnen gives no answer to the Atreides' Truthtrance question in time." in table
    assert "no answer is given" in private_words(t, F.HARKONNEN)
    assert t.state().whole.truthtrance.answer == "none"
    no_leak(t)


async def test_a_moderator_answers_for_the_target(simcord_env: simcord.Env) -> None:
    t, before = await asked(simcord_env)
    result = await t.moderator.slash(
        t.table, "truthtrance answer", answer="yes", faction="harkonnen"
    )
    assert is_ephemeral(result) and text_of(result).startswith("Done: you answer Yes")
    assert "**Yes**" in public_since(t, before)


async def test_hostile_answers_change_nothing(simcord_env: simcord.Env) -> None:
    t, _ = await asked(simcord_env, moderator_role="Mentats")
    prompt = question_message(t, F.HARKONNEN)
    state, seen = t.state().to_dict(), public_messages(t)

    def refused(result: simcord.InteractionResult, *, rule: bool = False) -> str:
        text = text_of(result)
        assert is_ephemeral(result) and text.startswith("Refused"), text
        assert len(text) <= 2000 and ("(rule " in text) is rule, text
        return text

    # another faction: its own answer (not asked), then naming the target (the buttons are in
    # the target's private channel, which no other player sees)
    refused(await t.players[F.FREMEN].slash(t.table, "truthtrance answer", answer="yes"), rule=True)
    named = {"answer": "yes", "faction": "harkonnen"}
    refused(await t.players[F.FREMEN].slash(t.table, "truthtrance answer", **named))
    # the asker cannot answer its own question; an outsider; an ex-moderator
    refused(
        await t.players[F.ATREIDES].slash(t.table, "truthtrance answer", answer="yes"), rule=True
    )
    refused(await t.outsider.slash(t.table, "truthtrance answer", **named))
    holder = t.role_holder
    assert holder is not None and t.role is not None
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    refused(await holder.slash(t.table, "truthtrance answer", **named))
    # an oversized remark, a second question while this one is open
    long = {"answer": "yes", "remark": "r" * 400}
    assert "r" * 100 not in refused(
        await t.players[F.HARKONNEN].slash(t.table, "truthtrance answer", **long), rule=True
    )
    again = {"target": "fremen", "question": "Another?"}
    refused(await t.players[F.ATREIDES].slash(t.table, "truthtrance ask", **again), rule=True)
    assert t.state().to_dict() == state and public_messages(t) == seen
    # answered once; the prompt closes, the command again is refused
    await t.players[F.HARKONNEN].click(prompt, custom_id=button(prompt, "truthtrance_yes"))
    after = t.state().to_dict()
    closed = next(m for m in t.private(F.HARKONNEN).history() if m.id == prompt.id)
    assert not buttons(closed) and "Closed" in (closed.content or "")  # no stale button left
    refused(
        await t.players[F.HARKONNEN].slash(t.table, "truthtrance answer", answer="no"), rule=True
    )
    assert t.state().to_dict() == after
    no_leak(t)
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))  # no crash


async def test_hostile_questions_change_nothing(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, game_at("bidding", factions=HOLDING))
    state, seen = t.state().to_dict(), public_messages(t)
    atreides, fremen = t.players[F.ATREIDES], t.players[F.FREMEN]
    for options in (
        {"target": "atreides", "question": "Me?"},
        {"target": "x" * 500, "question": "Who?"},
        {"target": "harkonnen", "question": "   "},
        {"target": "harkonnen", "question": "q" * 1000},
    ):
        result = await atreides.slash(t.table, "truthtrance ask", **options)
        text = text_of(result)
        assert is_ephemeral(result) and text.startswith("Refused") and "(rule 3.01.21)" in text
        assert "q" * 100 not in text and "x" * 100 not in text
    no_card = await fremen.slash(t.table, "truthtrance ask", target="harkonnen", question="Hi?")
    assert "Fremen holds no Truthtrance" in text_of(no_card)
    assert t.state().to_dict() == state and public_messages(t) == seen
    assert [type(e) for e in refusals(simcord_env)] == [IllegalActionError] * 2 + [
        InvalidActionError
    ] * 2 + [IllegalActionError]


async def test_in_shipment_and_movement_the_step_waits_and_is_asked_again(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    cards = {"fremen": {"cards": ("Truthtrance",)}}
    await start_at(t, game_at("shipment_movement", factions=cards))
    first = t.state().to_act()
    assert first is not None and first is not F.FREMEN
    asked_before = len(t.private(first).history())
    await done(t, F.FREMEN, "truthtrance ask", target=first.value, question=SECRET)
    refused = await t.players[first].slash(t.table, "pass")
    assert "Refused" in text_of(refused) and "(rule 3.01.21)" in text_of(refused)
    prompt = question_message(t, first)
    await t.players[first].click(prompt, custom_id=button(prompt, "truthtrance_no"))
    assert t.state().to_act() is first  # its step goes on, asked again
    newest = t.private(first).history()[-1].content or ""
    assert len(t.private(first).history()) > asked_before + 1 and "ship" in newest, newest
    no_leak_for(t, asker=F.FREMEN, target=first)
    refusals(simcord_env)


async def test_a_long_question_reaches_the_target_whole_and_is_quoted_short(
    simcord_env: simcord.Env,
) -> None:
    """A question of the longest length allowed: the asker's reply quotes at most 80
    characters of it; the target's prompt holds all of it."""
    t = await whole_table(simcord_env)
    await start_at(t, game_at("bidding", factions=HOLDING))
    question = ("Do you hold a Lasgun? " * 20)[:300].strip()
    said = await done(t, F.ATREIDES, "truthtrance ask", target="harkonnen", question=question)
    assert question[:70] in said and question[:81] not in said
    assert question in question_message(t, F.HARKONNEN).content


MARKUP = (
    "<@123456789012345678> <#1456074443980800005> @everyone [Yes](https://evil.example) ||y|| "
    "Deadline: <t:1000000000:R>"
)
MENTIONS = re.compile(r"<(@[!&]?|#)\d+>|@everyone|@here|<t:1000000000")


def live_markup(text: str) -> list[str]:
    """Mentions that would render (or ping) and markdown that would apply in ``text``."""
    unescaped = re.findall(r"(?<!\\)(\[|\|\|)", text)
    return MENTIONS.findall(text) + unescaped


async def test_a_question_and_a_remark_can_neither_ping_link_nor_spoof(
    simcord_env: simcord.Env,
) -> None:
    """A hostile asker's question and a hostile target's remark with mentions, a masked
    link posing as the answer, a spoiler and a player mark: shown as typed everywhere
    (escaped), never as a mention, a link or markup, at the table or in private."""
    t = await whole_table(simcord_env)
    await start_at(t, game_at("bidding", factions=HOLDING))
    watched = (t.table, t.spectators, t.private(F.ATREIDES), t.channel("dune-moderators"))
    seen = {m.id for c in watched for m in c.history()}

    def raw(*channels: simcord.ChannelHandle) -> str:
        """The new messages as posted (mentions kept)."""
        return "\n".join(m.content or "" for c in channels for m in c.history() if m.id not in seen)

    asked = await done(
        t, F.ATREIDES, "truthtrance ask", target="harkonnen", question=MARKUP + " {player:fremen}"
    )
    prompt = question_message(t, F.HARKONNEN).content or ""
    own = f"<@{t.players[F.HARKONNEN].id}> "  # the prompt pings its own player, no one else
    assert prompt.startswith(own)
    prompt = prompt.removeprefix(own)
    said = await done(t, F.HARKONNEN, "truthtrance answer", answer="no", remark=MARKUP)
    table = raw(t.table, t.spectators)
    assert "question: **No** (“<@\u200b123456789012345678>" in table, table
    assert "\\[Yes\\](https://evil.example)" in table and "player:fremen" not in table
    mine = text_of(await t.players[F.ATREIDES].slash(t.table, "status"))
    moderators = raw(t.channel("dune-moderators"))
    for text in (table, prompt, said, asked, raw(t.private(F.ATREIDES)), mine, moderators):
        assert live_markup(text) == [], text
    assert "\\[Yes\\](https://evil.example)" in prompt and "\\[Yes\\]" in mine
    assert refusals(simcord_env) == []


async def test_status_quotes_a_long_question_and_remark_short(simcord_env: simcord.Env) -> None:
    """The longest question and remark, all markup: /status quotes at most 80 characters of
    each (the prompt and the asker's private lines hold them whole), so the rest of the
    status (the standing orders last) is never cut to Discord's limit."""
    t = await whole_table(simcord_env)
    await start_at(t, game_at("bidding", factions=HOLDING))
    question, remark = "*_" * 150, "|[" * 100
    await done(t, F.ATREIDES, "truthtrance ask", target="harkonnen", question=question)
    await done(t, F.HARKONNEN, "truthtrance answer", answer="no", remark=remark)
    for faction in (F.ATREIDES, F.HARKONNEN):
        status = text_of(await t.players[faction].slash(t.table, "status"))
        (line,) = [x for x in status.splitlines() if x.startswith("Truthtrance:")]
        assert "\\*\\_" * 39 + "\\*…" in line and "\\*\\_" * 41 not in line, line
        assert "\\|\\[" * 39 + "\\|…" in line and len(line) <= 400, line
        assert status.splitlines()[-1].startswith("Standing orders")
    prompts = [m.content or "" for m in t.private(F.HARKONNEN).history()]
    assert any("\\*\\_" * 150 in m for m in prompts)  # the target read it whole
