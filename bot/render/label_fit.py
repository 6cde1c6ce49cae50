"""Choose where each territory's name goes so it lies wholly inside its territory.

Run offline (``python -m bot.render.label_fit``): every name that already fits
where ``labels.json`` (or the layout) puts it stays; for the others it tries
sizes, line breaks and turns, best-looking first, each at the fitting spot
nearest the layout point, and writes the first fit into ``labels.json``.
The renderer only reads that file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from bot.render.geometry import DISC_RADIUS, Point, to_polar
from bot.render.names import LABEL_SIZE, Label, inside_its_territory, labels, make_label
from bot.render.regions import territory_indexes, territory_raster

SIZES = (LABEL_SIZE, 16, 15, 14, 13, 12)
ANGLES = (0, 15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 90)
STEP = 2


def line_breaks(name: str) -> Iterator[tuple[str, ...]]:
    """The name on one line, on two lines (each break), then one word a line."""
    words = name.split(" ")
    yield (name,)
    for cut in range(1, len(words)):
        yield (" ".join(words[:cut]), " ".join(words[cut:]))
    if len(words) > 2:
        yield tuple(words)


def _choices(name: str) -> list[tuple[tuple[str, ...], int, int]]:
    """(lines, size, angle), the more readable first: big, few lines, level."""
    options = [
        (lines, size, angle) for lines in line_breaks(name) for size in SIZES for angle in ANGLES
    ]
    return sorted(
        options,
        key=lambda o: (
            (LABEL_SIZE - o[1]) + 2 * (len(o[0]) - 1) + (3 if o[2] else 0) + abs(o[2]) / 90,
            max(len(line) for line in o[0]),
        ),
    )


def best_place(label: Label) -> Label | None:
    points = _territory_points(label.territory)
    for lines, size, angle in _choices(label.territory):
        for point in sorted(points, key=lambda p: math.dist(p, label.centre)):
            candidate = make_label(label.territory, lines, size, angle, point)
            if inside_its_territory(candidate):
                return candidate
    return None


def _territory_points(territory: str) -> list[Point]:
    """The territory's pixels every STEP, as candidate centres."""
    index = territory_indexes()[territory]
    raster = territory_raster()
    box = raster.point(lambda v: 255 if v == index else 0).getbbox()
    assert box is not None
    left, top, right, bottom = box
    return [
        (float(x), float(y))
        for y in range(top, bottom, STEP)
        for x in range(left, right, STEP)
        if raster.getpixel((x, y)) == index
    ]


def main() -> None:
    path = Path(str(resources.files("bot.render").joinpath("labels.json")))
    data = json.loads(path.read_text(encoding="utf-8"))
    for label in labels():
        if inside_its_territory(label):
            continue
        placed = best_place(label)
        if placed is None:
            print(f"{label.territory}: no place fits")
            continue
        radius, angle = to_polar(placed.centre)
        data["territories"][label.territory] = {
            "at": [round(radius / DISC_RADIUS, 7), round(angle, 5)],
            "lines": list(placed.lines),
            "size": placed.size,
            "angle": placed.angle,
        }
        print(f"{label.territory}: size {placed.size}, {placed.lines}, turned {placed.angle}")
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
