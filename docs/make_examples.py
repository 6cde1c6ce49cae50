"""Regenerate the example pictures in docs/ (run from the repository root)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.render import (
    LastKarama,
    LastMove,
    LastShipment,
    render_closeup,
    render_map,
)
from bot.render.battle import examples as battle_examples
from bot.render.battle.plans import render_battle
from bot.render.examples import busy_view, crowded_view
from bot.render.marks import last_shipment_of, storm_path_of, touched_pieces, worms_of
from bot.render.turn_example import mid_turn, turn_events
from mentat.cli import main
from rules.factions import Faction

DOCS = Path(__file__).resolve().parent
SCENARIO = str(DOCS.parent / "examples" / "advanced-phase.json")

PHONE_WIDTH = 400
"""Discord on a phone shows a picture about this wide."""

move = LastMove(Faction.FREMEN, (("Carthag", 10), ("Imperial Basin", None), ("Arrakeen", 9)))
shipment = LastShipment(Faction.EMPEROR, "Pasty Mesa", 7, 2)
karama = LastKarama(Faction.ATREIDES, "the Fremen move of two territories")
busy = render_map(busy_view(), turn=4, last_move=move, last_shipment=shipment, last_karama=karama)
(DOCS / "map-busy.png").write_bytes(busy)
closeup = render_closeup(
    busy_view(),
    touched_pieces(move, None),
    turn=4,
    last_move=move,
    last_shipment=shipment,
    last_karama=karama,
)
(DOCS / "map-closeup.png").write_bytes(closeup)


def phone_size(png: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(picture.height * PHONE_WIDTH / picture.width)
    return picture.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)


# The whole map and the close-up side by side, each as a phone shows it (400 px wide).
whole_small, closeup_small = phone_size(busy), phone_size(closeup)
side_by_side = Image.new(
    "RGB", (2 * PHONE_WIDTH + 16, max(whole_small.height, closeup_small.height)), (255, 255, 255)
)
side_by_side.paste(whole_small, (0, 0))
side_by_side.paste(closeup_small, (PHONE_WIDTH + 16, 0))
side_by_side.save(DOCS / "map-400px.png", optimize=True)
crowded = crowded_view((("Harg Pass", 4), ("Imperial Basin", 8), ("Arrakeen", 9)))
(DOCS / "map-crowded.png").write_bytes(render_map(crowded, turn=4))
main(["render", SCENARIO, "--after", "--turn", "3", "--out", str(DOCS / "map-after-scenario.png")])
main(
    [
        "render",
        SCENARIO,
        "--turn",
        "3",
        "--highlight",
        "fremen:Sietch Tabr",
        "--out",
        str(DOCS / "map-highlight.png"),
    ]
)

# A whole game in the middle of turn 3 (played by the engine): the storm's path this turn,
# the worm's territory and what it took, turn and phase in the panel.
whole_turn = render_map(
    mid_turn().view,
    last_shipment=last_shipment_of(mid_turn().events),
    storm_path=storm_path_of(turn_events()),
    worms=worms_of(turn_events()),
)
(DOCS / "map-whole-turn.png").write_bytes(whole_turn)

# Issue 17: a battle's reveal, both plans side by side and how it ended (bot.render.battle.plans).
(DOCS / "battle-reveal.png").write_bytes(render_battle(battle_examples.fought()))
