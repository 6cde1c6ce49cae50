"""The game's summary at the end of the record (issue 26): the winner and how, each
faction's path, the turning battles; and the record's charts. Worked small games, built of
public views and events, and whole random games."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.charts import Chart, charts
from bot.record.summary import LIMIT, Step, game_summary
from bot.render.charts import render_charts
from rules.battle.events import BattlesOver, BattleStarted, BattleWon, TraitorCalled
from rules.events import (
    AllianceFormed,
    CardWon,
    Event,
    ForcesLost,
    GameWon,
    LeaderKilled,
    PhaseBegan,
)
from rules.factions import Faction
from rules.view import PublicView, StackView
from tests.bot.whole_games import games, played

F = Faction
BASE = played(0)[-1].view  # a whole game's public view, to shape the worked games from


def view(turn: int, *stacks: StackView, alliances: tuple[tuple[F, ...], ...] = ()) -> PublicView:
    return replace(BASE, stacks=stacks, alliances=alliances, game=replace(BASE.game, turn=turn))


def at(faction: F, territory: str, forces: int) -> StackView:
    return StackView(faction, territory, None, forces, 0, 0)


def step(
    turn: int,
    *stacks: StackView,
    events: tuple[Event, ...] = (),
    alliances: tuple[tuple[F, ...], ...] = (),
) -> Step:
    return Step(events, view(turn, *stacks, alliances=alliances))


def storm(turn: int) -> PhaseBegan:
    return PhaseBegan(turn, "storm")


def stronghold_game() -> list[Step]:
    """Turn 1: Atreides in Arrakeen, Harkonnen in Carthag; turn 2: Harkonnen attack
    Arrakeen and win; turn 3: Harkonnen alone in three strongholds win."""
    a, h = at(F.ATREIDES, "Arrakeen", 10), at(F.HARKONNEN, "Carthag", 10)
    both = (a, h, at(F.HARKONNEN, "Arrakeen", 5))
    taken = (h, at(F.HARKONNEN, "Arrakeen", 3))
    three = (*taken, at(F.HARKONNEN, "Sietch Tabr", 4))
    return [
        step(1),
        step(1, a, h, events=(storm(1), CardWon(F.HARKONNEN, 4, F.EMPEROR, "1.04"))),
        step(2, a, h, events=(storm(2),)),
        step(2, *both),
        step(2, *both, events=(BattleStarted(F.HARKONNEN, F.ATREIDES, "Arrakeen", None, "r"),)),
        step(
            2,
            *taken,
            events=(
                BattleWon(F.HARKONNEN, F.ATREIDES, "Arrakeen", 7, 3, "1.07.06"),
                ForcesLost(F.ATREIDES, "Arrakeen", None, 10, 0, 0, "r"),
                ForcesLost(F.HARKONNEN, "Arrakeen", None, 2, 0, 0, "r"),
                LeaderKilled(F.ATREIDES, "Duncan Idaho", "r"),
                BattlesOver("r"),
            ),
        ),
        step(3, *taken, events=(storm(3),)),
        step(3, *three, events=(GameWon((F.HARKONNEN,), "strongholds", "1.09.02.01"),)),
    ]


def test_a_stronghold_win_says_who_how_each_path_and_the_battle_that_turned_it() -> None:
    result, paths, turning = game_summary(stronghold_game())
    assert result == (
        "**The game in short**\n**Harkonnen wins the game** in turn 3, holding 3 "
        "strongholds alone at the Mentat Pause (Arrakeen, Carthag and Sietch Tabr)."
    )
    lines = paths.splitlines()
    assert lines[0] == "**Each faction's path**"
    assert "- **Atreides**: in Arrakeen at the end of turn 1; won 0 of 1 battle; " in paths
    assert "lost 10 forces in battle; leaders killed: Duncan Idaho (turn 2)." in paths
    harkonnen = next(line for line in lines if line.startswith("- **Harkonnen**"))
    assert harkonnen == (
        "- **Harkonnen**: in Carthag at the end of turns 1-3; Arrakeen at the end of turns 2-3; "
        "Sietch Tabr at the end of turn 3; won 1 of 1 battle; lost 2 forces in battle; "
        "bought 1 treachery card for 4 spice."
    )
    assert "- **Fremen**: in no stronghold at any turn's end; fought no battle." in paths
    assert turning == (
        "**The turning battles**\n- Turn 2, Arrakeen: Harkonnen beat Atreides 7 to 3 and took "
        "Arrakeen. Losses: Atreides 10 forces; Harkonnen 2 forces; Atreides' Duncan Idaho killed."
    )


def test_an_alliance_win_counts_the_strongholds_the_allies_hold_together() -> None:
    allied = ((F.ATREIDES, F.EMPEROR),)
    four = (
        at(F.ATREIDES, "Arrakeen", 5),
        at(F.ATREIDES, "Carthag", 3),
        at(F.EMPEROR, "Sietch Tabr", 2),
        at(F.EMPEROR, "Tuek's Sietch", 2),
    )
    steps = [
        step(1),
        step(2, events=(storm(2), AllianceFormed((F.ATREIDES, F.EMPEROR), "1.03.04"))),
        step(
            2,
            *four,
            alliances=allied,
            events=(GameWon((F.ATREIDES, F.EMPEROR), "alliance", "1.09.02.02"),),
        ),
    ]
    result, paths, turning = game_summary(steps)
    assert "**Atreides and Emperor win the game** in turn 2, as allies, holding 4 " in result
    assert "(Arrakeen, Carthag, Sietch Tabr and Tuek's Sietch)." in result
    assert "Alliances at the end: Atreides and Emperor." in result
    assert "allied with Emperor (from turn 2)" in paths
    assert "allied with Atreides (from turn 2)" in paths
    assert turning == "**The turning battles**\nNo battle was fought."


def test_a_fremen_special_win_and_a_battle_won_by_a_traitor() -> None:
    fremen = at(F.FREMEN, "Sietch Tabr", 6)
    steps = [
        step(10, fremen),
        step(10, fremen, events=(BattleStarted(F.FREMEN, F.EMPEROR, "Red Chasm", 6, "r"),)),
        step(
            10,
            fremen,
            events=(
                TraitorCalled(F.FREMEN, "Bashar", F.EMPEROR, "1.07.06.06"),
                BattleWon(F.FREMEN, F.EMPEROR, "Red Chasm", 0, 0, "1.07.06.06"),
                ForcesLost(F.EMPEROR, "Red Chasm", 6, 2, 1, 0, "r"),
                LeaderKilled(F.EMPEROR, "Bashar", "r"),
            ),
        ),
        step(10, fremen, events=(GameWon((F.FREMEN,), "fremen", "2.04.09"),)),
    ]
    result, _, turning = game_summary(steps)
    assert result == (
        "**The game in short**\n**Fremen wins the game** in turn 10, by the Fremen special "
        "victory: no one held enough strongholds by the end of the last turn (turn 10); only "
        "Fremen (or no one) were in Sietch Tabr and Habbanya Sietch, and no Atreides, Harkonnen "
        "or Emperor force in Tuek's Sietch."
    )
    assert turning.endswith(
        "- Turn 10, Red Chasm: Fremen beat Emperor by treachery (Bashar was a traitor). "
        "Losses: Emperor 3 forces; Emperor's Bashar killed."
    )


def test_no_summary_before_the_game_is_won() -> None:
    assert game_summary(stronghold_game()[:-1]) == []
    assert game_summary([]) == []


@pytest.mark.parametrize("number", range(6))
def test_a_whole_games_summary_fits_discord_and_names_people_in_words(number: int) -> None:
    game = games()[number]
    steps = [Step(s.events, s.view) for s in game]
    parts = game_summary(steps)
    assert len(parts) == 3
    assert all(len(part) <= LIMIT < 2000 for part in parts)
    assert "the game** in turn" in parts[0]
    for faction in game[-1].view.factions:
        assert f"- **{faction.faction.label}**: " in parts[1]
        assert faction.faction.value not in "".join(parts).replace("_", " ")  # no ids
    assert "{" not in "".join(parts) and "None" not in "".join(parts)


def test_the_turning_battles_are_the_costliest_few_in_the_games_order() -> None:
    fights: list[Step] = [step(1)]
    for n in range(1, 7):  # six battles, each costing n forces
        started = BattleStarted(F.ATREIDES, F.FREMEN, "The Great Flat", None, "r")
        won = BattleWon(F.ATREIDES, F.FREMEN, "The Great Flat", 2, 1, "1.07.06")
        lost = ForcesLost(F.FREMEN, "The Great Flat", None, n, 0, 0, "r")
        fights += [step(n, events=(storm(n), started)), step(n, events=(won, lost))]
    fights.append(step(6, events=(GameWon((F.ATREIDES,), "default", "1.09.05"),)))
    turning = game_summary(fights)[2].splitlines()
    assert [line.split(":")[0] for line in turning[1:-1]] == [
        f"- Turn {n}, The Great Flat" for n in (3, 4, 5, 6)
    ]
    assert turning[-1] == "(2 other battles changed less.)"


def test_the_charts_picture_draws_each_chart_from_public_views() -> None:
    views = [s.view for s in played(0)]
    png = render_charts(charts(views))
    with Image.open(io.BytesIO(png)) as picture:
        assert picture.format == "PNG" and picture.size == (800, 660)
    one = Chart("Cards", (1, 2), ((F.ATREIDES, (1, 2)), (F.HARKONNEN, (2, 2))))
    with Image.open(io.BytesIO(render_charts([one]))) as picture:
        colours = {c for _, c in picture.getcolors(1 << 20) or []}
    assert (0, 0, 0) in colours or any(max(c) < 40 for c in colours)  # Harkonnen's line
    with pytest.raises(ValueError, match="no chart"):
        render_charts([])
