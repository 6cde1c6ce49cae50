"""Issue 11, words not ids: a whole phase played through simcord, every text a player
could read (messages, edits, ephemeral answers, button labels, autocomplete choices)
scanned for the engine's snake_case ids."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord

from cogs.common import FactionChoice
from rules.errors import MentatError
from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, make_table, position, refusals, text_of

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b(?!:)")  # an option to type (from_sector:) is no id
ORDER_VALUE = re.compile(r"\bbefore:[a-z]")
READ_KEYS = ("content", "label", "placeholder", "title", "description", "value")


def buttons(message: Any) -> list[str]:
    rows = getattr(message, "components", [])
    return [c["label"] for row in rows for c in row.to_dict()["components"]]


def _texts(payload: Any, key: str = "") -> Iterator[str]:
    """Every string a player could read in a REST payload the bot sent."""
    if isinstance(payload, dict):
        if "custom_id" in payload and "label" in payload:  # a button: its label only
            yield str(payload["label"])
            return
        for k, v in payload.items():
            if k == "choices" and isinstance(v, list):  # autocomplete: the names shown
                yield from (str(c.get("name", "")) for c in v if isinstance(c, dict))
            else:
                yield from _texts(v, k)
    elif isinstance(payload, list):
        for item in payload:
            yield from _texts(item, key)
    elif isinstance(payload, str) and key in READ_KEYS:
        yield payload


def player_texts(env: simcord.Env) -> list[str]:
    """Every text the bot sent to Discord, except the commands' own definitions."""
    found: list[str] = []
    for request in env.http_requests:
        if "/commands" in request.path:  # the slash commands' names and options
            continue
        found += [t for t in _texts(request.json) if t]
    return found


def ids_in(texts: list[str]) -> list[str]:
    """The snake_case ids (``cross_ship``, ``before:harkonnen``) in ``texts``."""
    return [m for text in texts for m in SNAKE.findall(text) + ORDER_VALUE.findall(text)]


def latest_prompt(t: Table, faction: Faction) -> Any:
    return next((m for m in reversed(t.private(faction).history()) if buttons(m)), None)


async def _ship(t: Table, faction: Faction) -> bool:
    player = t.players[faction]
    shown = await player.autocomplete(t.table, "ship", "to", "", forces=1)
    if not shown:
        return False
    preview = await player.slash(t.table, "ship", to=shown[0]["value"], forces=1)
    if preview.response is None or "Confirm" not in buttons(preview.response.message):
        return False
    await player.click(preview.response.message, label="Confirm")
    return True


async def _move(t: Table, faction: Faction) -> bool:
    player = t.players[faction]
    own = [s for s in t.state().public_view().stacks if s.faction is faction]
    for stack in own:
        shown = await player.autocomplete(
            t.table, "move", "to", "", **{"from": stack.territory, "forces": 1}
        )
        if not shown:
            continue
        options = {"to": shown[0]["value"], "forces": 1, "from": stack.territory}
        preview = await player.slash(t.table, "move", **options)
        if preview.response is not None and "Confirm" in buttons(preview.response.message):
            await player.click(preview.response.message, label="Confirm")
            return True
    return False


async def play_phase(t: Table, bots: Bots) -> int:
    """Every faction answers what it is asked (acting when it can) until the phase ends;
    returns how many answers it took."""
    for answered in range(300):
        wait = t.session.current_wait()
        if wait is None:
            return answered
        if not wait.factions:  # a Karama window nobody can act in runs its time
            await bots.clock.advance(5 * 60 + 1, settle=t.session.next_idle)
            await t.env.settle()
            continue
        faction = wait.factions[0]
        player = t.players[faction]
        await player.slash(t.table, "status")
        before = t.state().to_dict()
        if wait.kind == "step":
            step = t.state().public_view().step
            acted = await (_ship(t, faction) if step == "ship" else _move(t, faction))
            if acted and t.state().to_dict() != before:
                continue
        prompt = latest_prompt(t, faction)
        assert prompt is not None, f"{faction.label} was not asked"
        labels = buttons(prompt)
        yes = [label for label in labels if label not in ("Decline", "Pass")]
        pick = yes[0] if yes and answered % 2 else next(iter(labels[-1:]), "Pass")
        await player.click(prompt, label=pick)
        if t.state().to_dict() == before and t.session.current_wait() == wait:
            await player.click(prompt, label=labels[-1])
    raise AssertionError("the phase did not end")


async def test_a_whole_phase_shows_no_internal_id(simcord_env: simcord.Env, bots: Bots) -> None:
    t = await make_table(simcord_env)
    guild, bg = t.players[Faction.SPACING_GUILD], t.players[Faction.BENE_GESSERIT]
    await guild.slash(t.table, "guild standing-order", order="before", before="harkonnen")
    await guild.slash(t.table, "status")
    await bg.slash(t.table, "ship", to="Arakeen", forces=1)  # misspelt
    await bg.slash(t.table, "ship", to="Hagga Basin", forces=1)  # no sector
    await bg.slash(t.table, "bg standing-order", intrusion="never")
    await t.players[Faction.HARKONNEN].slash(t.table, "karama standing-order", order="never")
    await t.players[Faction.ATREIDES].slash(t.table, "pass")  # not its turn
    await t.players[Faction.ATREIDES].slash(t.table, "karama prevent", ability="voice")
    await t.outsider.slash(t.table, "status")
    answers = await play_phase(t, bots)
    assert answers > 6 and t.state().is_complete
    texts = player_texts(simcord_env)
    assert len(texts) > 50
    assert ids_in(texts) == [], sorted(set(ids_in(texts)))
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))


BG_TABLE = ["atreides", "bene_gesserit", "fremen", None, None, None]


async def _bg_asked(env: simcord.Env, *, advanced: bool) -> tuple[Table, Any]:
    """Atreides shipped to Arrakeen: the Bene Gesserit's advisor prompt."""
    t = await make_table(env, start=False)
    three = {f: {"spice": 10, "reserves": 10} for f in ("atreides", "bene_gesserit", "fremen")}
    scenario = position(advanced=advanced, seats=BG_TABLE, alliances=[], factions=three)
    await t.moderator.slash(t.table, "game start", position=scenario)
    atreides = t.players[Faction.ATREIDES]
    while t.state().to_act() is not Faction.ATREIDES:
        faction = t.state().to_act()
        await t.players[faction].slash(t.table, "pass")
    preview = await atreides.slash(t.table, "ship", to="Arrakeen", forces=2)
    await atreides.click(preview.response.message, label="Confirm")
    prompt = latest_prompt(t, Faction.BENE_GESSERIT)
    assert prompt is not None and "Spiritual Advisors" in prompt.content
    return t, prompt


async def test_the_advisor_buttons_name_the_place_and_answer_in_its_words(
    simcord_env: simcord.Env,
) -> None:
    t, prompt = await _bg_asked(simcord_env, advanced=True)
    assert buttons(prompt) == [
        "Advise to the Polar Sink",
        "Advise to Arrakeen (sector 9)",
        "Decline",
    ]
    result = await t.players[Faction.BENE_GESSERIT].click(
        prompt, label="Advise to Arrakeen (sector 9)"
    )
    assert text_of(result) == "Advisor sent to Arrakeen (sector 9)."
    assert "spiritual advisor to Arrakeen (sector 9)" in t.table.last_message.content


async def test_the_basic_game_offers_the_advisor_only_the_polar_sink(
    simcord_env: simcord.Env,
) -> None:
    t, prompt = await _bg_asked(simcord_env, advanced=False)
    assert buttons(prompt) == ["Advise to the Polar Sink", "Decline"]
    result = await t.players[Faction.BENE_GESSERIT].click(prompt, label="Decline")
    assert text_of(result) == "Declined."


def _choice_names(payload: Any) -> Iterator[str]:
    if isinstance(payload, dict):
        for k, v in payload.items():
            if k == "choices" and isinstance(v, list):
                yield from (str(c["name"]) for c in v)
            else:
                yield from _choice_names(v)
    elif isinstance(payload, list):
        for item in payload:
            yield from _choice_names(item)


async def test_the_commands_offer_their_choices_in_words(simcord_env: simcord.Env) -> None:
    """The fixed choices Discord lists under an option (faction:, ability:, order:...)."""
    await make_table(simcord_env)
    names = [
        n for r in simcord_env.http_requests if "/commands" in r.path for n in _choice_names(r.json)
    ]
    assert "Bene Gesserit" in names and "The Guild's cross-ship" in names
    assert "Never: decline every Karama window at once" in names
    assert ids_in(names) == []


async def test_an_extended_deadline_is_told_in_words_and_timestamps(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    await t.moderator.slash(t.table, "mod extend", minutes=90)
    note = t.table.last_message.content
    assert re.fullmatch(
        r"<@\d+> extended the deadline by 1 hour 30 minutes; it is now "
        r"<t:(\d+):f> \(<t:\1:R>\)\.",
        note,
    ), note
    prompt = latest_prompt(t, Faction.SPACING_GUILD)
    stamp = re.search(r"<t:(\d+):f>", note)
    assert stamp is not None and f"<t:{stamp[1]}:R>" in prompt.content  # the prompt follows


async def test_a_faction_option_that_is_no_faction_is_refused_short(
    simcord_env: simcord.Env,
) -> None:
    """Discord sends only the listed factions; anything else is refused at the door."""
    t = await make_table(simcord_env)
    option = FactionChoice()
    assert [c.name for c in option.choices] == [f.label for f in Faction]
    interaction: Any = None  # the transformer reads only the value
    with pytest.raises(discord.app_commands.CheckFailure) as refused:
        await option.transform(interaction, "x" * 5000)
    said = str(refused.value)
    assert said.startswith("there is no faction 'xxx") and len(said) <= 120
    assert await option.transform(interaction, "Bene Gesserit") == "bene_gesserit"
    status = await t.players[Faction.FREMEN].slash(t.table, "status", faction="fremen")
    assert "**Fremen**" in text_of(status)
