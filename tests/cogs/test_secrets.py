"""Secrets reach only a faction's current player and the game's current moderators
(issue 10): autocomplete, seats and their private channels, the moderator role,
pings, and the moderators' channel."""

from __future__ import annotations

import discord
import simcord
from simcord.backend.errors import SetupError

from bot.publisher import PrivateNotice
from bot.session.session import SessionError
from rules.factions import Faction
from tests.cogs.conftest import is_ephemeral, make_table, refusals, text_of

ATREIDES, BG, EMPEROR, HARKONNEN = (
    Faction.ATREIDES,
    Faction.BENE_GESSERIT,
    Faction.EMPEROR,
    Faction.HARKONNEN,
)


def can_read(channel: simcord.ChannelHandle, member: simcord.MemberActor) -> bool:
    """Whether ``member`` can read ``channel``'s history (Discord's permissions)."""
    try:
        channel.history(viewer=member)
    except SetupError:
        return False
    return True


def pinged(env: simcord.Env, channel: simcord.ChannelHandle) -> list[int]:
    """Whom the channel's last message notified (Discord's allowed mentions applied;
    ``Message.mentions`` lists every user named in the text)."""
    message = channel.last_message
    assert message is not None
    return list(env.backend.messages[channel.id][message.id].ping_user_ids)


def values(choices: list[dict[str, object]]) -> list[object]:
    return [c["value"] for c in choices]


# -- 1. autocomplete answers for the caller's own faction only -----------------------


AUTOCOMPLETES = (
    ("ship", "to", {"forces": 5}),
    ("ship", "sector", {"to": "Arrakeen", "forces": 1}),
    ("send", "to", {}),
    ("move", "from", {}),
    ("move", "to", {"from": "Polar Sink"}),
    ("cross-ship", "from", {}),
    ("bg advise", "to", {}),
    ("bg flip", "territory", {}),
    ("map", "highlight", {}),
)


async def test_an_outsider_naming_a_faction_gets_no_choices(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    for command, option, options in AUTOCOMPLETES:
        for faction in Faction:
            found = await t.outsider.autocomplete(
                t.table, command, option, "", faction=faction.value, **options
            )
            assert found == [], (command, option, faction, found)


async def test_a_player_naming_another_faction_gets_their_own_choices(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    atreides, bg = t.players[ATREIDES], t.players[BG]
    own = await bg.autocomplete(t.table, "ship", "to", "", forces=5)  # its shipment
    named = await bg.autocomplete(t.table, "ship", "to", "", forces=5, faction="emperor")
    assert own and values(named) == values(own)
    origins = await atreides.autocomplete(t.table, "move", "from", "", faction="bene_gesserit")
    assert values(origins) == ["Arrakeen"]  # the Atreides' forces, not the advisor's Polar Sink


async def test_a_moderator_naming_a_faction_gets_its_choices(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, moderator_role="Mentats")
    holder = t.role_holder
    assert holder is not None and t.role is not None
    bg_own = await t.players[BG].autocomplete(t.table, "ship", "to", "", forces=5)
    for moderator in (t.moderator, holder):
        named = await moderator.autocomplete(
            t.table, "ship", "to", "", forces=5, faction="bene_gesserit"
        )
        assert named and values(named) == values(bg_own)
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    after = await holder.autocomplete(t.table, "ship", "to", "", forces=5, faction="bene_gesserit")
    assert after == []


# -- 3. seats: the private channel follows the seat; one player, one seat -------------


async def test_reseating_moves_the_private_channel(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    old, new = t.players[ATREIDES], t.outsider
    private = t.private(ATREIDES)
    assert can_read(private, old) and not can_read(private, new)
    result = await t.moderator.slash(t.table, "game seat", player=new, faction="atreides")
    assert is_ephemeral(result) and "plays Atreides" in text_of(result)
    assert can_read(private, new)
    assert not can_read(private, old)
    assert await t.bot.app.faction_of(t.game_id, new.id) is ATREIDES
    refused = await old.slash(t.table, "status")
    assert refused.ephemeral and "no seat" in text_of(refused)
    assert all(can_read(t.private(f), t.players[f]) for f in Faction if f is not ATREIDES)
    assert [type(e) for e in refusals(simcord_env)] == [SessionError]


async def test_one_player_holds_one_seat(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    atreides = t.players[ATREIDES]
    result = await t.moderator.slash(t.table, "game seat", player=atreides, faction="harkonnen")
    assert result.ephemeral
    assert "already plays Atreides" in text_of(result) and "one seat" in text_of(result)
    assert await t.bot.app.faction_of(t.game_id, t.players[HARKONNEN].id) is HARKONNEN
    assert await t.bot.app.faction_of(t.game_id, atreides.id) is ATREIDES
    assert not can_read(t.private(HARKONNEN), atreides)
    again = await t.moderator.slash(t.table, "game seat", player=atreides, faction="atreides")
    assert is_ephemeral(again) and "plays Atreides" in text_of(again)  # the same seat: fine
    assert len(refusals(simcord_env)) == 1
    assert isinstance(refusals(simcord_env)[0], SessionError)


async def test_seating_a_faction_not_in_the_game_is_refused(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, seats="atreides,harkonnen,fremen")
    result = await t.moderator.slash(t.table, "game seat", player=t.outsider, faction="emperor")
    assert result.ephemeral
    assert text_of(result) == "Refused: Emperor is not in this game."
    assert await t.bot.app.faction_of(t.game_id, t.outsider.id) is None
    assert [type(e) for e in refusals(simcord_env)] == [SessionError]


# -- 4. the moderator role counts only while it is held ---------------------------------


async def test_moderator_rights_end_with_the_role(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, moderator_role="Mentats")
    holder = t.role_holder
    assert holder is not None and t.role is not None
    paused = await holder.slash(t.table, "mod pause")
    assert is_ephemeral(paused) and "Paused by" in t.table.last_message.content
    await holder.slash(t.table, "mod resume")
    status = await holder.slash(t.table, "status", faction="atreides")
    assert status.ephemeral and "Spice:" in text_of(status)

    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    paused = await holder.slash(t.table, "mod pause")
    assert paused.ephemeral and "only this game's moderators" in text_of(paused)
    status = await holder.slash(t.table, "status", faction="atreides")
    assert status.ephemeral and "Atreides seat" in text_of(status)
    assert "Spice:" not in text_of(status)
    undone = await holder.slash(t.table, "mod undo")
    assert undone.ephemeral and "only this game's moderators" in text_of(undone)
    before = t.state().to_dict()
    for command in ("mod channels", "mod channels", "mod set-storm"):  # twice, and a correction
        options = {"sector": 7} if command == "mod set-storm" else {}
        refused = await holder.slash(t.table, command, **options)
        assert refused.ephemeral and "only this game's moderators" in text_of(refused)
    assert t.state().to_dict() == before
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))
    assert not await t.bot.app.store.is_moderator(t.game_id, holder.id)  # never listed


async def test_players_and_outsiders_cannot_repair_or_correct(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    before = t.state().to_dict()
    tables = len(t.guild.channels)
    for who in (t.players[BG], t.outsider):
        for command, options in (
            ("mod channels", {}),
            ("mod card", {"faction": "atreides", "card": "Karama"}),
            ("mod set-storm", {"sector": 7}),
        ):
            refused = await who.slash(t.table, command, **options)
            assert refused.ephemeral and "moderators" in text_of(refused)
    assert t.state().to_dict() == before and len(t.guild.channels) == tables
    assert len(refusals(simcord_env)) == 6
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_a_role_holder_undoes_in_their_own_name(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, moderator_role="Mentats", maps="never")
    holder = t.role_holder
    assert holder is not None
    await t.players[Faction.SPACING_GUILD].click(
        t.private(Faction.SPACING_GUILD).last_message, label="Decline"
    )
    await t.players[BG].slash(t.table, "pass")
    undone = await holder.slash(t.table, "mod undo")
    assert is_ephemeral(undone) and text_of(undone) == "Done: undone."
    last = (await t.bot.app.store.log(t.game_id))[-1]
    assert last.kind == "undo" and last.actor == holder.id
    corrected = await holder.slash(t.table, "mod set-storm", sector=5)
    assert is_ephemeral(corrected) and t.state().storm_sector == 5
    logged = (await t.bot.app.store.log(t.game_id))[-1]
    assert logged.kind == "action" and logged.actor == holder.id  # a correction is an action
    assert not await t.bot.app.store.is_moderator(t.game_id, holder.id)
    assert refusals(simcord_env) == []


# -- 13. announcements ping no one; a faction's channel may ping only its player ------


async def test_announcements_ping_no_one(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    moderators = t.channel("dune-moderators")
    await t.moderator.slash(t.table, "mod pause")
    assert "Paused by" in t.table.last_message.content
    assert pinged(simcord_env, t.table) == []
    assert pinged(simcord_env, moderators) == []
    await t.moderator.slash(t.table, "mod resume")
    assert "Resumed by" in t.table.last_message.content
    assert pinged(simcord_env, t.table) == []
    await t.moderator.slash(t.table, "mod set-storm", sector=4)
    assert "Correction by" in t.table.last_message.content
    assert pinged(simcord_env, t.table) == [] and pinged(simcord_env, t.spectators) == []


async def test_a_private_notice_pings_only_its_player(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    player = t.players[ATREIDES]
    text = f"your turn (and not {t.moderator.mention}'s, {player.mention}'s or @everyone's)."
    await t.bot.app.publisher.private(t.game_id, PrivateNotice(ATREIDES, text))
    message = t.private(ATREIDES).last_message
    assert message.content == text and not message.mention_everyone
    assert pinged(simcord_env, t.private(ATREIDES)) == []  # a notice that does not ping
    await t.bot.app.publisher.private(t.game_id, PrivateNotice(ATREIDES, text, ping=True))
    message = t.private(ATREIDES).last_message
    assert message.content == f"{player.mention} {text}" and not message.mention_everyone
    assert pinged(simcord_env, t.private(ATREIDES)) == [player.id]  # its player alone


# -- 14. the game's creator reads the moderators' channel ------------------------------


async def test_the_creator_reads_the_moderators_channel(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    lobby = guild.create_text_channel("lobby")
    managers = guild.create_role(
        "Channel managers", permissions=discord.Permissions(manage_channels=True)
    )
    creator = guild.add_member(simcord_env.create_user("creator"), roles=[managers])
    other_manager = guild.add_member(simcord_env.create_user("manager"), roles=[managers])
    player = guild.add_member(simcord_env.create_user("player"))
    await simcord_env.bot.sync_commands(guild.id)  # type: ignore[attr-defined]
    result = await creator.slash(lobby, "game new", seats="atreides,harkonnen")
    assert is_ephemeral(result) and "is set up" in text_of(result)
    moderators = guild.channels["dune-moderators"]
    assert can_read(moderators, creator)
    assert "Paused by" in moderators.last_message.content
    assert not can_read(moderators, other_manager) and not can_read(moderators, player)
    assert not can_read(guild.channels["dune-atreides"], creator)  # private: its player only
