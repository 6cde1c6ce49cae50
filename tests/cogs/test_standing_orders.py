"""Issue 11: every standing order the session knows is reachable from Discord
(/karama standing-order, /bg standing-order, /guild standing-order), private, shown in
the faction's own /status only, and withdrawn with "ask me each time"; hostile callers
are refused and change nothing."""

from __future__ import annotations

import pytest
import simcord

from bot.orders import OrderError, StandingOrders
from bot.session.session import SessionError
from rules.errors import MentatError
from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, is_ephemeral, make_table, refusals, text_of
from tests.cogs.turn_helpers import start_at, whole_table
from tests.rules.game_helpers import game_at

ATREIDES, BG, GUILD = Faction.ATREIDES, Faction.BENE_GESSERIT, Faction.SPACING_GUILD
HARKONNEN, EMPEROR, FREMEN = Faction.HARKONNEN, Faction.EMPEROR, Faction.FREMEN
KARAMA_NEVER = "Karama windows: always decline (never play Karama in a window)"
SINK = "Spiritual Advisors: always send the advisor to the Polar Sink"


async def status(t: Table, faction: Faction) -> str:
    result = await t.players[faction].slash(t.table, "status")
    assert is_ephemeral(result)
    return text_of(result)


async def test_a_karama_order_is_saved_shown_to_its_faction_only_and_withdrawn(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    table_before = len(t.table.history())
    saved = await t.players[HARKONNEN].slash(t.table, "karama standing-order", order="never")
    assert is_ephemeral(saved)
    assert text_of(saved) == f"Standing order saved (only you see it): {KARAMA_NEVER}."
    assert t.session.orders[HARKONNEN].karama == "never"
    assert KARAMA_NEVER in t.private(HARKONNEN).last_message.content  # its own channel
    assert len(t.table.history()) == table_before  # nothing public
    mine = await status(t, HARKONNEN)
    assert "Your standing orders:" in mine and KARAMA_NEVER in mine
    assert "`/karama standing-order` order: “ask me each time”" in mine
    for other in (ATREIDES, BG, GUILD):
        assert "Karama windows" not in await status(t, other)
    withdrawn = await t.players[HARKONNEN].slash(t.table, "karama standing-order", order="ask")
    assert text_of(withdrawn) == "Standing order withdrawn: Karama windows: ask me each time."
    assert t.session.orders[HARKONNEN] == StandingOrders()
    assert "Standing orders: none" in await status(t, HARKONNEN)
    assert refusals(simcord_env) == []


async def test_a_karama_order_spares_the_question_and_the_window_runs_its_time(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """Karama "never" answers for the faction: it is not asked, and (docs/windows.md) the
    window still runs its whole time, so that its end tells nothing about the orders."""
    t = await make_table(simcord_env)
    await t.moderator.slash(t.table, "mod card", faction="atreides", card="Karama")
    for faction in (ATREIDES, BG, Faction.EMPEROR, Faction.FREMEN, HARKONNEN):
        await t.players[faction].slash(t.table, "karama standing-order", order="never")
    seen = len(t.private(ATREIDES).history())
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Act now")
    assert [p.kind.value for p in t.state().open_prompts()] == ["karama"]
    assert len(t.private(ATREIDES).history()) == seen  # the holder is not asked
    await bots.clock.advance(5 * 60 + 1, settle=t.session.next_idle)
    assert not [p for p in t.state().open_prompts() if p.kind.value == "karama"]
    assert t.state().to_act() is GUILD


async def test_bg_orders_advise_to_the_polar_sink_and_never_flip(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    bg = t.players[BG]
    both = await bg.slash(t.table, "bg standing-order", advise="polar_sink", intrusion="never")
    assert is_ephemeral(both)
    assert text_of(both).splitlines() == [
        f"Standing order saved (only you see it): {SINK}.",
        "Standing order saved (only you see it): Intrusion: never flip to advisors.",
    ]
    mine = await status(t, BG)
    assert SINK in mine and "Intrusion: never flip to advisors" in mine
    assert mine.count("`/bg standing-order`") == 2
    assert SINK not in await status(t, GUILD) and SINK not in await status(t, ATREIDES)
    # the Guild ships: the advisor goes to the Polar Sink without asking the Bene Gesserit
    for faction in (ATREIDES, BG, Faction.EMPEROR, Faction.FREMEN, HARKONNEN):
        await t.players[faction].slash(t.table, "karama standing-order", order="never")
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Act now")
    reserves = t.state().factions[BG].reserves
    await bots.clock.advance(5 * 60 + 1, settle=t.session.next_idle)  # the timing's window
    preview = await t.players[GUILD].slash(t.table, "ship", to="Arrakeen", forces=1)
    await t.players[GUILD].click(preview.response.message, label="Confirm")
    await bots.clock.advance(5 * 60 + 1, settle=t.session.next_idle)  # the shipment's window
    await t.env.settle()
    assert "spiritual fighter to the Polar Sink" in "\n".join(m.content for m in t.table.history())
    assert t.state().factions[BG].reserves == reserves - 1
    off = await bg.slash(t.table, "bg standing-order", advise="ask")
    assert text_of(off) == "Standing order withdrawn: Spiritual Advisors: ask me each time."
    assert t.session.orders[BG].advise == "ask" and t.session.orders[BG].intrusion == "never"
    assert SINK not in await status(t, BG)


async def test_bg_standing_order_refuses_others_outsiders_and_no_order(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, moderator_role="Mentats")
    for who, options in (
        (t.players[ATREIDES], {}),  # another faction, for itself
        (t.players[ATREIDES], {"faction": "bene_gesserit"}),  # another faction, for the BG
        (t.outsider, {}),
        (t.outsider, {"faction": "bene_gesserit"}),
    ):
        refused = await who.slash(t.table, "bg standing-order", advise="never", **options)
        assert is_ephemeral(refused) and text_of(refused).startswith("Refused:")
    holder = t.role_holder
    assert holder is not None and t.role is not None
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)  # ex-moderator
    for _ in range(2):
        refused = await holder.slash(
            t.table, "bg standing-order", advise="never", faction="bene_gesserit"
        )
        assert "Bene Gesserit seat" in text_of(refused)
    empty = await t.players[BG].slash(t.table, "bg standing-order")
    assert text_of(empty) == "Refused: name an order: advise:, intrusion: or both."
    assert BG not in t.session.orders and ATREIDES not in t.session.orders
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))
    assert len(refusals(simcord_env)) == 7


async def test_an_ex_moderator_reads_no_orders_and_sets_none(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, moderator_role="Mentats")
    holder = t.role_holder
    assert holder is not None and t.role is not None
    await t.players[HARKONNEN].slash(t.table, "karama standing-order", order="never")
    seen = await holder.slash(t.table, "status", faction="harkonnen")  # a moderator may look
    assert KARAMA_NEVER in text_of(seen)
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    looked = await holder.slash(t.table, "status", faction="harkonnen")
    assert "Karama" not in text_of(looked) and "Harkonnen seat" in text_of(looked)
    for _ in range(2):  # twice
        refused = await holder.slash(
            t.table, "karama standing-order", order="ask", faction="harkonnen"
        )
        assert "Harkonnen seat" in text_of(refused)
    assert t.session.orders[HARKONNEN].karama == "never"
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_the_same_order_twice_is_saved_once(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    first = await t.players[BG].slash(t.table, "bg standing-order", intrusion="never")
    again = await t.players[BG].slash(t.table, "bg standing-order", intrusion="never")
    assert text_of(first) == text_of(again)
    assert t.session.orders[BG] == StandingOrders(intrusion="never")
    assert (await status(t, BG)).count("Intrusion: never flip") == 1


async def test_junk_and_oversized_orders_are_refused_in_words(simcord_env: simcord.Env) -> None:
    """Discord sends only the listed choices; the application refuses anything else
    itself, quoting it short, and keeps the orders it had."""
    t = await make_table(simcord_env)
    app = t.bot.app
    await app.set_standing_order(t.game_id, BG, "advise", "polar_sink")
    for name, value in (("advise", "x" * 5000), ("karama", "always"), ("x" * 300, "never")):
        with pytest.raises(OrderError) as refused:
            await app.set_standing_order(t.game_id, BG, name, value)
        assert len(str(refused.value)) < 200 and "_" not in str(refused.value)
    assert t.session.orders[BG] == StandingOrders(advise="polar_sink")
    with pytest.raises(simcord.OptionError):  # Discord itself offers only the choices
        await t.players[BG].slash(t.table, "bg standing-order", advise="x" * 5000)


ORDER_COMMANDS = [
    ("karama standing-order", {"order": "never"}, HARKONNEN),
    ("bg standing-order", {"intrusion": "never"}, BG),
    ("guild standing-order", {"order": "last"}, GUILD),
]


async def test_no_one_gives_another_faction_an_order(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    for command, options, owner in ORDER_COMMANDS:
        other = ATREIDES if owner is not ATREIDES else BG
        for who, named in (
            (t.players[other], {"faction": owner.value}),
            (t.outsider, {}),
            (t.outsider, {"faction": owner.value}),
        ):
            refused = await who.slash(t.table, command, **options, **named)
            assert is_ephemeral(refused) and text_of(refused).startswith("Refused:")
    assert t.session.orders == {}
    assert len(refusals(simcord_env)) == 9
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))
    guild = await t.players[GUILD].slash(t.table, "guild standing-order", order="last")
    assert "Guild timing: delay to act last" in text_of(guild)
    assert "Guild timing: delay to act last" in await status(t, GUILD)
    withdrawn = await t.players[GUILD].slash(t.table, "guild standing-order", order="ask")
    assert text_of(withdrawn) == "Standing order withdrawn: Guild timing: ask me each time."
    assert "Standing orders: none" in await status(t, GUILD)


async def test_charity_and_storm_orders_answer_whoever_is_asked_alike(
    simcord_env: simcord.Env,
) -> None:
    """Issue 23: charity and storm cards ask everyone alike; `/orders charity` "claim"
    claims when the faction may (0 or 1 spice) and declines otherwise, at once;
    `/orders storm` passes at once; `/orders only-pass` passes where a pass is all a faction
    can do. Each is saved privately and shown in its own /status only."""
    t = await whole_table(simcord_env)
    await start_at(t, game_at("choam_charity", factions={"atreides": {"spice": 0}}))
    for faction in (ATREIDES, HARKONNEN):
        saved = await t.players[faction].slash(t.table, "orders charity", order="claim")
        assert is_ephemeral(saved) and "always claim it when you may" in text_of(saved)
    assert t.state().factions[ATREIDES].spice == 2  # claimed at once
    assert t.state().factions[HARKONNEN].spice == 10  # 10 spice: declined at once
    assert not {ATREIDES, HARKONNEN} & set(t.state().waiting_on())
    public = "\n".join(m.content for m in t.table.history())
    assert "Harkonnen" in public and "Atreides" in public
    mine = await status(t, HARKONNEN)
    assert "Charity: always claim it when you may" in mine
    assert "`/orders charity` order: “ask me each time”" in mine  # how to withdraw it
    withdrawn = await t.players[HARKONNEN].slash(t.table, "orders charity", order="ask")
    assert text_of(withdrawn) == "Standing order withdrawn: Charity: ask me each time."
    only = await t.players[BG].slash(t.table, "orders only-pass", order="pass")
    assert "Pass only: pass at once whenever a pass is your only answer" in text_of(only)
    assert BG not in t.state().waiting_on()  # 10 spice: a pass was all it could do
    hands = {"emperor": {"cards": ("Weather Control",)}, "fremen": {"cards": ("Lasgun",)}}
    await start_at(t, game_at("storm", turn=3, dialers=(EMPEROR, FREMEN), factions=hands))
    never = await t.players[EMPEROR].slash(t.table, "orders storm", order="pass")
    assert "Storm: never play a storm card" in text_of(never)
    for dialer in (EMPEROR, FREMEN):
        await t.players[dialer].slash(t.table, "dial", value=1)
    assert t.state().waiting_on() == (FREMEN,)  # the Emperor's order passed at once
    assert not refusals(simcord_env)
