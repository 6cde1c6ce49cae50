"""Issue 25's whole game: two players leave and one goes silent, and the game still ends
with a winner. Played through Discord (simcord) to its end: the leavers open their own
seats with /leave and volunteers take them with Join (the game seats its first
volunteer); the silent player never answers, misses its deadlines and goes on autopilot.
The moderator's actions it needed are counted."""

from __future__ import annotations

from dataclasses import dataclass, field

import simcord

from bot.waits import CHOICE, MODERATORS, PROMPT
from rules.actions import Decline
from rules.bidding.actions import Bid
from rules.factions import Faction
from rules.game_model import GamePhase
from tests.cogs.conftest import Bots, Table, make_table, text_of
from tests.cogs.faults import STEP, advance
from tests.cogs.test_substitute import posted
from tests.cogs.test_whole_game_leaks import choice

LEAVERS = (Faction.ATREIDES, Faction.HARKONNEN)
SILENT = Faction.EMPEROR
MOVES = 4000


@dataclass
class Seated:
    """Who plays each faction now, and what the moderator had to do."""

    t: Table
    bots: Bots
    members: dict[Faction, simcord.MemberActor] = field(default_factory=dict)
    moderator_actions: int = 0
    missed: int = 0

    def player(self, faction: Faction) -> simcord.MemberActor:
        return self.members.get(faction, self.t.players[faction])


async def leave_and_replace(g: Seated, faction: Faction, n: int) -> None:
    """``faction``'s player opens their seat; a volunteer's Join takes it."""
    t = g.t
    left = await g.player(faction).slash(t.table, "leave")
    assert text_of(left).startswith(f"Your {faction.label} seat is open"), text_of(left)
    volunteer = t.guild.add_member(t.env.create_user(f"volunteer-{n}"))
    head = f"**Seat open in game #{t.game_id}: {faction.label}.**"
    taken = await volunteer.click(posted(t.table, head), label="Join")
    assert text_of(taken).startswith(f"You play {faction.label} now."), text_of(taken)
    g.members[faction] = volunteer


async def answer(g: Seated, keys: int, bought: set[int]) -> None:
    """Everyone awaited but the silent player answers; when only it is awaited, its
    deadline runs out."""
    t = g.t
    state = t.state()
    wait = t.session.current_wait()
    assert wait is not None
    awaited = [f for f in wait.factions if f is not SILENT]
    if wait.kind == MODERATORS:
        g.moderator_actions += 1
        preview = await t.moderator.slash(t.table, "mod record done")
        assert preview.response is not None, preview
        await t.moderator.click(preview.response.message, label="Confirm")
        return
    if not awaited:
        g.missed += 1
        await advance(t, g.bots, STEP + 1)
        return
    faction = awaited[0]
    player = g.player(faction)
    if wait.kind == PROMPT:
        prompt = next(p for p in state.open_prompts() if faction in p.waiting_on())
        action = Decline(faction, prompt.kind)
        await t.session.submit(faction, action, actor=player.id, key=f"f-{keys}")
    elif wait.kind == CHOICE and state.game_phase is GamePhase.BIDDING:
        bid = state.turn not in bought and state.is_legal(Bid(faction, 1))
        if bid:
            bought.add(state.turn or 0)
        action = Bid(faction, 1) if bid else choice(t, faction)
        await t.session.submit(faction, action, actor=player.id, key=f"f-{keys}")
    elif wait.kind == CHOICE:
        await t.session.submit(faction, choice(t, faction), actor=player.id, key=f"f-{keys}")
    else:
        turn = state.phase.turn
        step = "movement" if turn is not None and turn.step.value == "move" else "shipment"
        result = await player.slash(t.table, "pass", step=step)
        assert text_of(result).startswith("Done"), text_of(result)


async def test_two_leave_one_goes_silent_and_the_game_still_ends_with_a_winner(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(
        simcord_env,
        kind="whole_game",
        maps="never",
        players_may_leave=True,
        first_volunteer=True,
        autopilot_after=2,
    )
    g = Seated(t, bots)
    bought: set[int] = set()
    replaced = 0
    for keys in range(MOVES):
        state = t.state()
        if state.game_phase is GamePhase.OVER:
            break
        if (state.turn or 0) >= 2 and replaced < len(LEAVERS):
            await leave_and_replace(g, LEAVERS[replaced], replaced)
            replaced += 1
            continue
        await answer(g, keys, bought)
    state = t.state()
    assert state.game_phase is GamePhase.OVER and state.winner is not None, state.turn
    assert replaced == 2 and t.session.autopilot.on(SILENT)
    assert g.missed == 2  # two deadlines ran out on the silent player; then autopilot
    seats = await t.bot.app.seats(t.game_id)
    assert all(seats[f] == g.members[f].id for f in LEAVERS)
    table = "\n".join(m.content for m in t.table.history())
    assert table.count(f"{SILENT.label} missed 2 deadlines in a row") == 1
    print(  # the figure for the note (pytest -s shows it)
        f"winner: {', '.join(f.label for f in state.winner.factions)} ({state.winner.how}) "
        f"on turn {state.turn}; moderator actions: {g.moderator_actions}"
    )
