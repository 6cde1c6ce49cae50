"""The map picture: size, storm shading, token placement, and public data only."""

from __future__ import annotations

import io
import itertools
import json
import random
import typing
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.render import (
    LastMove,
    LastShipment,
    Placement,
    TokenKind,
    TokenLayout,
    layout_tokens,
    palette,
    render_map,
)
from bot.render.board_image import terrain_image
from bot.render.borders import Border, Radial, territory_borders
from bot.render.examples import all_pieces, busy_view, crowded_view, public_view
from bot.render.geometry import (
    HEIGHT,
    RIM_RADIUS,
    WIDTH,
    Box,
    Cell,
    cell_for,
    cells,
    piece_at,
    sector_angles,
    to_point,
)
from mentat.cli import main
from rules.factions import Faction
from rules.view import GameSecrets, PrivateView, PublicView, StackView

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "advanced-phase.json"

SECRETS = GameSecrets(prediction=None, dial=None)


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def smallest_pieces(count: int) -> tuple[tuple[str, int | None], ...]:
    by_area = sorted(
        cells().values(),
        key=lambda c: (c.r_outer**2 - c.r_inner**2) * (c.angle_max - c.angle_min),
    )
    return tuple(c.piece for c in by_area[:count])


def corners_and_middle(box: Box) -> list[tuple[float, float]]:
    left, top, right, bottom = box
    return [
        (left, top),
        (right, top),
        (left, bottom),
        (right, bottom),
        ((left + right) / 2, (top + bottom) / 2),
    ]


def assert_no_overlap(layout: TokenLayout) -> None:
    boxes = [t.box for t in layout.tokens]
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    for a, b in itertools.combinations([c.box for c in layout.callouts], 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def assert_every_stack_in_its_piece(view: PublicView, layout: TokenLayout) -> None:
    on_disc = [t for t in layout.tokens if t.placement is not Placement.CALLOUT]
    for stack in view.stacks:
        piece = cell_for(stack.territory, stack.sector).piece
        mine = [t for t in on_disc if t.token.faction == stack.faction and t.token.piece == piece]
        assert mine, f"no token for {stack}"
        for placed in mine:
            for point in corners_and_middle(placed.box):
                assert piece_at(point) == piece, (stack, placed.box, point)


# -- the picture -----------------------------------------------------------------------


def test_picture_has_the_expected_size_and_is_a_small_png() -> None:
    png = render_map(busy_view())
    assert png.startswith(b"\x89PNG")
    assert decode(png).size == (WIDTH, HEIGHT)
    assert len(png) < 1_000_000


def test_storm_sector_pixels_are_shaded() -> None:
    start, _ = sector_angles(5)
    points = [
        to_point(r / 100, start + a) for r in range(20, 100, 8) for a in (3.0, 7.0, 13.0, 17.0)
    ]
    storm_here = decode(render_map(public_view((), storm_sector=5)))
    storm_away = decode(render_map(public_view((), storm_sector=14)))
    darker = [_brightness(storm_here, p) < _brightness(storm_away, p) - 60 for p in points]
    assert sum(darker) >= 0.9 * len(points)  # a few samples fall on borders and names
    in_sector_14 = to_point(0.6, 290.0)
    assert _brightness(storm_away, in_sector_14) < _brightness(storm_here, in_sector_14) - 60
    in_neither = to_point(0.6, 250.0)
    assert _pixel(storm_here, in_neither) == _pixel(storm_away, in_neither)


def _brightness(picture: Image.Image, point: tuple[float, float]) -> int:
    return sum(_pixel(picture, point))


def _pixel(picture: Image.Image, point: tuple[float, float]) -> tuple[int, ...]:
    pixel = picture.getpixel((round(point[0]), round(point[1])))
    assert isinstance(pixel, tuple)
    return pixel


def test_a_forces_token_is_drawn_in_the_faction_colour_where_the_layout_says() -> None:
    view = public_view((StackView(Faction.ATREIDES, "Arrakeen", 9, 10, 0, 0),))
    (placed,) = layout_tokens(view).tokens
    picture = decode(render_map(view))
    left, top, right, bottom = placed.box
    x, y = left + (right - left) * 0.3, (top + bottom) / 2
    assert _pixel(picture, (x, y)) == (34, 139, 58)


def test_highlighted_pieces_are_tinted() -> None:
    view = public_view(())
    point = to_point(0.6, 265.0)
    assert piece_at(point) == ("Plastic Basin", 13)
    plain = _pixel(decode(render_map(view)), point)
    lit = _pixel(decode(render_map(view, highlight=[("Plastic Basin", 13)])), point)
    assert lit != plain


def test_last_move_and_shipment_are_drawn() -> None:
    view = busy_view()
    plain = render_map(view)
    marked = render_map(
        view,
        turn=4,
        last_move=LastMove(Faction.FREMEN, (("Sietch Tabr", 13), ("The Great Flat", 14))),
        last_shipment=LastShipment(Faction.EMPEROR, "Arrakeen", 9, 5),
    )
    assert marked != plain


# -- the static board: territory borders ---------------------------------------------


class Edge(typing.NamedTuple):
    """Where a cell meets a neighbour (None: off the disc), and the middle of that stretch."""

    cell: Cell
    neighbour: Cell | None
    radius: float
    angle: float
    along: str
    """``radial`` (on a line through the centre) or ``arc`` (on a circle)."""


def shared_edges() -> list[Edge]:
    """Every stretch where two cells touch, or a cell meets the disc's edge, found pairwise."""
    found = [
        Edge(c, None, 1.0, (c.angle_min + c.angle_max) / 2, "arc")
        for c in cells().values()
        if c.r_outer == 1.0
    ]
    for a, b in itertools.permutations(cells().values(), 2):
        found.extend(_side_by_side(a, b))
        found.extend(_one_inside_the_other(a, b))
    return found


def _side_by_side(a: Cell, b: Cell) -> list[Edge]:
    """``b`` starts at the angle where ``a`` ends, and their radii overlap."""
    if a.is_whole_ring or b.is_whole_ring or a.angle_max % 360 != b.angle_min:
        return []
    low, high = max(a.r_inner, b.r_inner), min(a.r_outer, b.r_outer)
    return [Edge(a, b, (low + high) / 2, b.angle_min, "radial")] if high > low else []


def _one_inside_the_other(a: Cell, b: Cell) -> list[Edge]:
    """``b`` starts at the radius where ``a`` ends, and their angles overlap."""
    start, end = max(a.angle_min, b.angle_min), min(a.angle_max, b.angle_max)
    if a.r_outer != b.r_inner or end <= start:
        return []
    return [Edge(a, b, a.r_outer, (start + end) / 2, "arc")]


def between_territories(edge: Edge) -> bool:
    return edge.neighbour is None or edge.neighbour.territory != edge.cell.territory


def _difference(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> int:
    return max(abs(a - b) for a, b in zip(pixel, colour, strict=True))


def _closest_to_border_colour(picture: Image.Image, point: tuple[float, float]) -> int:
    """How far (largest channel difference) the pixels within one of ``point`` come to it."""
    x, y = round(point[0]), round(point[1])
    around = [_pixel(picture, (x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    return min(_difference(p, palette.TERRITORY_BORDER) for p in around)


def test_the_layout_has_edges_between_and_inside_territories() -> None:
    edges = shared_edges()
    assert sum(between_territories(e) for e in edges) > 150
    assert sum(not between_territories(e) for e in edges) > 30  # sector lines in a territory


def test_a_border_is_drawn_wherever_two_territories_meet_and_only_there() -> None:
    terrain = terrain_image()
    for edge in shared_edges():
        closest = _closest_to_border_colour(terrain, to_point(edge.radius, edge.angle))
        if between_territories(edge):
            assert closest <= 8, edge
        else:
            assert closest >= 40, edge


def test_every_border_lies_between_two_territories_and_covers_their_edge() -> None:
    borders = territory_borders()
    for border in borders:
        if isinstance(border, Radial):
            middle, side = (border.r_inner + border.r_outer) / 2, 0.05
            one, other = (
                to_point(middle, border.angle - side),
                to_point(middle, border.angle + side),
            )
        else:
            middle = (border.angle_min + border.angle_max) / 2
            one, other = (
                to_point(border.radius - 0.004, middle),
                to_point(border.radius + 0.004, middle),
            )
        assert _territory(one) != _territory(other), border
    for edge in filter(between_territories, shared_edges()):
        assert any(_covers(border, edge) for border in borders), edge


def _territory(point: tuple[float, float]) -> str | None:
    piece = piece_at(point)
    return piece[0] if piece else None


def _covers(border: Border, edge: Edge) -> bool:
    if isinstance(border, Radial):
        return (
            edge.along == "radial"
            and border.angle == edge.angle % 360
            and border.r_inner < edge.radius < border.r_outer
        )
    return (
        edge.along == "arc"
        and border.radius == edge.radius
        and border.angle_min < edge.angle < border.angle_max
    )


def test_the_static_board_is_drawn_the_same_every_time() -> None:
    first = terrain_image()
    territory_borders.cache_clear()
    again = terrain_image()
    assert first.tobytes() == again.tobytes()


# -- token placement ---------------------------------------------------------------------


def test_a_box_fits_a_cell_exactly_when_its_whole_outline_lies_inside() -> None:
    shuffled = random.Random(18)
    answers = []
    for cell in cells().values():
        middle_x, middle_y = cell.label
        for _ in range(60):
            size = shuffled.uniform(6.0, 60.0)
            x = middle_x + shuffled.uniform(-60.0, 60.0)
            y = middle_y + shuffled.uniform(-60.0, 60.0)
            box = (x - size / 2, y - size / 2, x + size / 2, y + size / 2)
            inside = _outline_inside(cell, box)
            if inside != _outline_inside(cell, _grown(box, -0.5)) or inside != _outline_inside(
                cell, _grown(box, 0.5)
            ):
                continue  # within half a pixel of the cell's edge: too close to sample
            assert cell.contains_box(box) == inside, (cell, box)
            answers.append(inside)
    assert answers.count(True) > 1000 and answers.count(False) > 1000


def _outline_inside(cell: Cell, box: Box) -> bool:
    return all(map(cell.contains, _outline(box)))


def _grown(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _outline(box: Box, per_side: int = 60) -> list[tuple[float, float]]:
    left, top, right, bottom = box
    steps = [i / per_side for i in range(per_side + 1)]
    return [
        *((left + (right - left) * t, top) for t in steps),
        *((left + (right - left) * t, bottom) for t in steps),
        *((left, top + (bottom - top) * t) for t in steps),
        *((right, top + (bottom - top) * t) for t in steps),
    ]


def test_every_stack_has_a_token_inside_its_piece_and_none_overlap() -> None:
    view = busy_view()
    layout = layout_tokens(view)
    assert_every_stack_in_its_piece(view, layout)
    assert_no_overlap(layout)


def test_stacks_become_forces_starred_and_advisor_tokens() -> None:
    view = public_view(
        (
            StackView(Faction.EMPEROR, "Arrakeen", 9, 4, 2, 0),
            StackView(Faction.BENE_GESSERIT, "Arrakeen", 9, 0, 0, 3),
        )
    )
    kinds = {(t.token.faction, t.token.kind, t.token.count) for t in layout_tokens(view).tokens}
    assert kinds == {
        (Faction.EMPEROR, TokenKind.FORCES, 4),
        (Faction.EMPEROR, TokenKind.SPECIAL, 2),
        (Faction.BENE_GESSERIT, TokenKind.ADVISORS, 3),
    }


def test_six_factions_in_the_smallest_piece_spill_into_a_callout() -> None:
    (piece,) = smallest_pieces(1)
    view = crowded_view((piece,))
    layout = layout_tokens(view)
    assert_every_stack_in_its_piece(view, layout)
    assert_no_overlap(layout)
    (callout,) = layout.callouts
    assert callout.piece == piece
    in_callout = [t for t in layout.tokens if t.placement is Placement.CALLOUT]
    assert len(in_callout) == len(view.stacks) + 3  # 2 starred, spice
    assert all(_inside(t.box, callout.box) for t in in_callout)
    assert decode(render_map(view)).size == (WIDTH, HEIGHT)


def test_worst_case_every_piece_crowded_never_overlaps() -> None:
    view = crowded_view(tuple(all_pieces()))
    layout = layout_tokens(view)
    assert_every_stack_in_its_piece(view, layout)
    assert_no_overlap(layout)
    for callout in layout.callouts:
        assert _off_the_disc(callout.box)
    assert decode(render_map(view)).size == (WIDTH, layout.height)


def _inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _off_the_disc(box: Box) -> bool:
    return all(
        (x - WIDTH / 2) ** 2 + (y - 700) ** 2 > RIM_RADIUS**2 for x, y in corners_and_middle(box)
    )


# -- public data only ----------------------------------------------------------------------


def test_a_private_view_cannot_be_rendered() -> None:
    private = PrivateView(busy_view(), Faction.ATREIDES, 10, ("Karama",), (), SECRETS)
    with pytest.raises(TypeError, match="PublicView"):
        render_map(private)  # type: ignore[arg-type]


def test_a_public_view_subclass_cannot_smuggle_private_data() -> None:
    class Smuggler(PublicView):
        __slots__ = ("cards",)

    view = busy_view()
    smuggler = Smuggler(**{f: getattr(view, f) for f in PublicView.__dataclass_fields__})
    with pytest.raises(TypeError):
        render_map(smuggler)


def test_render_map_is_annotated_to_take_only_a_public_view() -> None:
    hints = typing.get_type_hints(render_map)
    assert hints["view"] is PublicView


def test_rendering_is_pure() -> None:
    view = busy_view()
    assert render_map(view) == render_map(replace(view))


# -- the command line --------------------------------------------------------------------


def test_cli_renders_a_scenario_start_and_end(tmp_path: Path) -> None:
    start, end = tmp_path / "start.png", tmp_path / "end.png"
    assert main(["render", str(EXAMPLE), "--out", str(start)]) == 0
    assert main(["render", str(EXAMPLE), "--after", "--out", str(end)]) == 0
    assert Image.open(start).size == (WIDTH, HEIGHT)
    assert start.read_bytes() != end.read_bytes()


def test_cli_highlights_legal_destinations(tmp_path: Path) -> None:
    plain, lit = tmp_path / "plain.png", tmp_path / "lit.png"
    assert main(["render", str(EXAMPLE), "--out", str(plain)]) == 0
    code = main(["render", str(EXAMPLE), "--out", str(lit), "--highlight", "harkonnen:Carthag"])
    assert code == 0
    assert plain.read_bytes() != lit.read_bytes()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not JSON"),
        (json.dumps({"format": "something-else"}), "format"),
    ],
)
def test_cli_reports_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, expected: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    assert main(["render", str(bad), "--out", str(tmp_path / "x.png")]) != 0
    assert expected in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_cli_reports_a_bad_highlight(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.png"
    assert main(["render", str(EXAMPLE), "--out", str(out), "--highlight", "nobody:Carthag"]) != 0
    assert "--highlight" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("fremen:Sietch Tabrr", "unknown territory 'Sietch Tabrr' (did you mean 'Sietch Tabr'?)"),
        ("fremn:Sietch Tabr", "unknown faction 'fremn' (did you mean 'fremen'?)"),
    ],
)
def test_cli_answers_a_misspelt_highlight_with_its_likely_meaning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, words: str
) -> None:
    out = tmp_path / "x.png"
    assert main(["render", str(EXAMPLE), "--out", str(out), "--highlight", spec]) == 2
    assert words in capsys.readouterr().err
    assert not out.exists()


def test_cli_draws_a_whole_game_file(tmp_path: Path) -> None:
    worked = EXAMPLE.parent / "scenario-2" / "storm_turn1.json"
    start, end = tmp_path / "start.png", tmp_path / "end.png"
    assert main(["render", str(worked), "--out", str(start)]) == 0
    assert main(["render", str(worked), "--after", "--out", str(end)]) == 0
    assert start.read_bytes() != end.read_bytes()  # the storm moved and took a force


@pytest.mark.parametrize(
    "view",
    [busy_view(), busy_view(stack_count=80, seed=1), crowded_view(tuple(all_pieces()))],
    ids=["busy", "busier", "crowded"],
)
def test_example_positions_keep_bene_gesserit_advisors_and_fighters_apart(
    view: PublicView,
) -> None:
    kinds: dict[str, set[bool]] = {}
    for s in view.stacks:
        if s.faction is Faction.BENE_GESSERIT:
            assert not (s.advisors and s.forces + s.special), s
            kinds.setdefault(s.territory, set()).add(s.advisors > 0)
    assert all(len(k) == 1 for k in kinds.values()), kinds
