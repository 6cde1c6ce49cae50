"""Regenerate the example pictures in docs/ (run from the repository root)."""

from __future__ import annotations

from pathlib import Path

from bot.render import LastMove, LastShipment, render_map
from bot.render.examples import busy_view, crowded_view
from mentat.cli import main
from rules.factions import Faction

DOCS = Path(__file__).resolve().parent
SCENARIO = str(DOCS.parent / "examples" / "advanced-phase.json")

busy = render_map(
    busy_view(),
    turn=4,
    last_move=LastMove(
        Faction.FREMEN, (("Carthag", 10), ("Imperial Basin", None), ("Arrakeen", 9))
    ),
    last_shipment=LastShipment(Faction.EMPEROR, "Pasty Mesa", 7, 2),
)
(DOCS / "map-busy.png").write_bytes(busy)
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
