"""``/game new`` offers each variant switch's values as the rules define them, and reads
them through the rules' own parser into a typed RuleSet."""

from __future__ import annotations

import simcord
from discord import app_commands

from rules.variants import FremenStormMovement, GuildAllyPays, allowed
from tests.cogs.conftest import make_table


def _choices(env: simcord.Env, option: str) -> list[object]:
    game = env.bot.tree.get_command("game")  # type: ignore[attr-defined]
    assert isinstance(game, app_commands.Group)
    new = game.get_command("new")
    assert isinstance(new, app_commands.Command)
    return [c.value for c in new.get_parameter(option).choices]  # type: ignore[union-attr]


async def test_the_storm_and_payment_options_are_the_switches_values(
    simcord_env: simcord.Env,
) -> None:
    assert _choices(simcord_env, "fremen_storm_movement") == list(allowed("fremen_storm_movement"))
    assert _choices(simcord_env, "guild_ally_pays") == list(allowed("guild_ally_pays"))


async def test_the_chosen_values_become_typed_rules(simcord_env: simcord.Env) -> None:
    t = await make_table(
        simcord_env, start=False, fremen_storm_movement="free", guild_ally_pays="bank"
    )
    rules = t.state().rules
    assert rules.fremen_storm_movement is FremenStormMovement.FREE
    assert rules.guild_ally_pays is GuildAllyPays.BANK
