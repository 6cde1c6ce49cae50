"""Issue 23 §4: a ``/pass`` sent twice (a double submit) passes once. In the Bidding phase
the second one never passes on the next card, which its player never saw: it is refused,
saying what was passed on, and a ``/pass`` sent after that refusal is meant for what is
asked now (bot.session.passes)."""

from __future__ import annotations

import simcord

from rules.actions import Pass
from rules.factions import Faction
from rules.game_model import GamePhase
from tests.bot.auction_helpers import new_game, to_phase
from tests.cogs.conftest import Table, is_ephemeral, refusals, text_of
from tests.cogs.test_bidding import auction, prompt_of
from tests.cogs.turn_helpers import WORM, start_at, whole_table
from tests.rules.game_helpers import game_at


async def answer_by_button(t: Table, faction: Faction, label: str) -> None:
    result = await t.players[faction].click(prompt_of(t, faction), label=label)
    assert is_ephemeral(result) and text_of(result).startswith(("Done", "Passed")), text_of(result)


async def double_pass(t: Table, faction: Faction) -> list[str]:
    """``faction``'s player sends ``/pass`` twice (the session takes requests one at a time,
    so a double submit reaches it as one after the other; simcord runs one operation at a
    time); what each answer read."""
    player = t.players[faction]
    results = [await player.slash(t.table, "pass"), await player.slash(t.table, "pass")]
    assert all(is_ephemeral(r) for r in results)
    return [text_of(r) for r in results]


def in_turn_order(t: Table) -> list[Faction]:
    """The factions in the order the auction of the card on offer asks them."""
    order = list(t.state().whole.order)
    opener = auction(t).opener
    return order[order.index(opener) :] + order[: order.index(opener)]


async def bidding_table(env: simcord.Env) -> Table:
    t = await whole_table(env)
    await start_at(t, to_phase(new_game(), GamePhase.BIDDING))
    assert auction(t).number == 1 and auction(t).of >= 2
    return t


async def test_a_double_pass_ending_a_card_never_passes_on_the_next(
    simcord_env: simcord.Env,
) -> None:
    """The second faction's pass sells card 1 to the third; card 2 opens with the second
    faction (1.04.07), whose double /pass must not pass on it."""
    t = await bidding_table(simcord_env)
    first, second, third, *rest = in_turn_order(t)
    await answer_by_button(t, first, "Pass")
    await answer_by_button(t, second, "Pass")
    await answer_by_button(t, third, "Bid 1 (+1)")
    for faction in [*rest, first]:
        await answer_by_button(t, faction, "Pass")
    assert auction(t).bidder is second and auction(t).number == 1
    of = auction(t).of
    accepted, repeated = await double_pass(t, second)
    assert accepted == f"Done: you pass on card 1 of {of}."
    assert repeated.startswith(f"Refused: you already passed on card 1 of {of}."), repeated
    assert f"You are now asked about card 2 of {of}: to pass on it too" in repeated
    assert "(rule 1.04.05)" in repeated
    now = auction(t)
    assert (now.number, now.bidder, now.passed) == (2, second, ())
    # a /pass after the refusal is meant for card 2: it passes on it
    said = text_of(await t.players[second].slash(t.table, "pass"))
    assert said == f"Done: you pass on card 2 of {of}."
    assert auction(t).number == 2 and second in auction(t).passed
    refusals(simcord_env)


async def test_a_double_pass_on_one_card_passes_once(simcord_env: simcord.Env) -> None:
    t = await bidding_table(simcord_env)
    first, second, *_ = in_turn_order(t)
    accepted, repeated = await double_pass(t, first)
    assert accepted.startswith("Done: you pass on card 1 of")
    assert repeated.startswith("Refused: you already passed on card 1 of"), repeated
    assert "now asked" not in repeated
    assert (auction(t).bidder, auction(t).passed) == (second, (first,))
    refusals(simcord_env)


async def test_a_pass_by_the_button_then_by_the_command_is_already_passed(
    simcord_env: simcord.Env,
) -> None:
    t = await bidding_table(simcord_env)
    first, second, *_ = in_turn_order(t)
    await answer_by_button(t, first, "Pass")
    said = text_of(await t.players[first].slash(t.table, "pass"))
    assert said.startswith("Refused: you already passed on card 1 of"), said
    assert said.endswith("(rule 1.04.05).")
    assert (auction(t).bidder, auction(t).passed) == (second, (first,))
    refusals(simcord_env)


async def test_a_double_pass_ending_the_nexus_never_declines_the_worm_ride(
    simcord_env: simcord.Env,
) -> None:
    """The Fremen's pass ends the Nexus; their worm ride is asked next (2.04.08): a repeat
    of that pass must not decline the ride they never saw."""
    state = game_at(
        "spice_blow",
        storm=10,
        board=[("fremen", "Old Gap", 8, 3), ("harkonnen", "Carthag", 10, 2)],
        spice_deck=(WORM, "Red Chasm"),
        spice_discard=("Old Gap",),
    )
    for faction in state.waiting_on():
        if faction is not Faction.FREMEN:
            state.apply(Pass(faction))
    t = await whole_table(simcord_env)
    await start_at(t, state)
    accepted, repeated = await double_pass(t, Faction.FREMEN)
    assert accepted == "Done: you are done with this Nexus."
    assert repeated.startswith(
        "Refused: you already passed on this Nexus. You are now asked about the worm ride"
    ), repeated
    assert repeated.endswith("(rule 2.04.08)."), repeated
    assert t.state().whole.step.startswith("ride") and t.state().whole.waiting == (Faction.FREMEN,)
    said = text_of(await t.players[Faction.FREMEN].slash(t.table, "pass"))
    assert said == "Done: the Fremen stay where they are: no worm ride."
    refusals(simcord_env)
