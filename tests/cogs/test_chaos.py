"""Issue 18's chaos test: a whole phase played through simcord while random faults are
injected (HTTP 500/503/429 on any call, a channel deleted, a permission denied and given
back, a restart), against the same phase played without faults.

Players answer only through their private prompt messages (so every one of them was
asked), and act again when Discord lost their click (a new interaction, as a person
would). Nothing waits long enough for a deadline, so the positions must be equal."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import simcord

from bot.ledger import Ledger
from bot.store import Store
from tests.cogs.conftest import Bots, Table, make_table
from tests.cogs.faults import delete, deny, restore

SEED = 18
WAIT = 180.0  # seconds of game time between answers: retries happen, no deadline passes
HTTP = ("500", "503", "429")


@dataclass
class Chaos:
    """The faults of one run, drawn from a seeded random generator."""

    rng: random.Random
    injected: dict[str, int] = field(default_factory=dict)
    broken: list[tuple[str, simcord.ChannelHandle]] = field(default_factory=list)
    survived: int = 0  # failed Discord calls the deliveries got past

    def count(self, kind: str) -> None:
        self.injected[kind] = self.injected.get(kind, 0) + 1

    @property
    def total(self) -> int:
        return sum(self.injected.values())


def buttons(message: object) -> list[str]:
    rows = getattr(message, "components", [])
    return [c["label"] for row in rows for c in row.to_dict()["components"]]


async def settle(t: Table, bots: Bots) -> None:
    await t.session.until_idle()
    await bots.clock.advance(WAIT, settle=t.session.next_idle)
    await t.env.settle()


async def answer_one(t: Table) -> None:
    """The first faction the game waits on answers its latest prompt message."""
    wait = t.session.current_wait()
    assert wait is not None
    faction = wait.factions[0]
    prompt = next((m for m in reversed(t.private(faction).history()) if buttons(m)), None)
    assert prompt is not None, f"{faction.label} was not asked"
    assert "Closed" not in prompt.content, f"{faction.label} was not asked: {prompt.content}"
    label = "Decline" if "Decline" in buttons(prompt) else "Pass"
    await t.players[faction].click(prompt, label=label)
    t.env.errors.clear()  # a lost click is refused or apologised for: the player acts again


async def inject(t: Table, bots: Bots, chaos: Chaos, turn: int) -> Table:
    """Random faults, and each kind at least once (turns 2, 5, 8 and 11)."""
    rng = chaos.rng
    roll = {2: 0.6, 5: 0.7, 8: 0.79, 11: 0.7}.get(turn, rng.random())
    if roll < 0.55:
        status = int(rng.choice(HTTP))
        method = rng.choice(("POST", "PATCH", "GET", "*"))
        path = rng.choice(("/channels/*/messages", "/channels/*/messages/*", "/webhooks/*", "*"))
        t.env.inject_error(method, path, status=status, times=rng.randint(1, 3))
        chaos.count(f"HTTP {status}")
    elif roll < 0.65 and not chaos.broken:
        faction = rng.choice(sorted(t.state().factions, key=lambda f: f.value))
        channel = t.private(faction)
        delete(t, channel)
        chaos.broken.append(("deleted", channel))
        chaos.count("channel deleted")
    elif roll < 0.75 and not chaos.broken:
        channel = rng.choice([t.table, t.spectators])
        deny(t, channel, "send_messages")
        chaos.broken.append(("denied", channel))
        chaos.count("permission denied")
    elif roll < 0.80:
        chaos.survived += t.session.delivery.failures
        t.env.backend.faults.clear()  # the new connection starts clean
        await t.bot.app.stop()
        await t.bot.app.store.close()
        await t.env.restart_bot(await bots.new())
        chaos.count("restart")
    return t


async def repair(t: Table, chaos: Chaos) -> None:
    """The moderators put things right: permission given back, channels repaired, resumed."""
    t.env.backend.faults.clear()
    for kind, channel in chaos.broken:
        if kind == "denied":
            restore(t, channel)
    chaos.broken.clear()
    where = t.channel("dune-moderators")
    await t.moderator.slash(where, "mod channels")
    if t.session.deadline.paused_left is not None:
        await t.moderator.slash(where, "mod resume")
    t.env.errors.clear()


async def play(t: Table, bots: Bots, chaos: Chaos | None) -> None:
    for turn in range(400):
        if t.state().is_complete:
            return
        for _ in range(chaos.rng.randint(1, 3) if chaos is not None else 0):
            await inject(t, bots, chaos, turn)
        if chaos is not None and ((chaos.broken and chaos.rng.random() < 0.3) or turn % 25 == 24):
            await repair(t, chaos)
        await settle(t, bots)
        if t.session.deadline.paused_left is not None and chaos is not None:
            await repair(t, chaos)
            await settle(t, bots)
        try:
            await answer_one(t)
        except (AssertionError, KeyError):
            if chaos is None:
                raise
            await repair(t, chaos)  # a prompt lost with its channel: repaired, then asked
    raise AssertionError("the phase did not end")


async def run(env: simcord.Env, bots: Bots, chaos: Chaos | None) -> tuple[dict[str, object], Table]:
    t = await make_table(env)
    await play(t, bots, chaos)
    return t.state().to_dict(), t


def _what(body: dict[str, object]) -> tuple[object, object]:
    return body.get("action"), body.get("faction")


async def test_a_phase_under_faults_ends_where_it_ends_without(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    calm, quiet = await run(simcord_env, bots, None)
    chaos = Chaos(random.Random(SEED))
    stormy, t = await run(simcord_env, bots, chaos)
    assert stormy == calm
    survived = chaos.survived + t.session.delivery.failures
    print(f"faults injected: {chaos.total} {chaos.injected}; failed posts survived: {survived}")
    assert chaos.total >= 15 and survived >= 10
    path = bots.path
    await t.bot.app.stop()
    await t.bot.app.store.close()
    bots.made.remove(t.bot)
    store = await Store.open(path)  # closed cleanly: the game loads as it was left
    try:
        assert (await Ledger.open(store, t.game_id)).state.to_dict() == stormy
        # no action lost or applied twice: the same actions, in the same order (a default
        # on a deadline stands for the pass or decline it gave)
        logs = [(await store.log(g))[1:] for g in (quiet.game_id, t.game_id)]
        done = [[_what(e.body) for e in log] for log in logs]
        assert done[0] == done[1]
        defaults = sum(":deadline:" in e.key for e in logs[1])
        print(f"deadline defaults in the faulty run: {defaults}")
    finally:
        await store.close()
