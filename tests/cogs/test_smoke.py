from __future__ import annotations

import simcord

from rules.factions import Faction
from tests.cogs.conftest import make_table


async def test_game_new_seat_start(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    assert t.state().public_view().to_act is not None
    print([m.content for m in t.table.history()])
    print([m.content for m in t.private(Faction.BENE_GESSERIT).history()])
