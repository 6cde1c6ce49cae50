"""Issue 11: nothing on the map hides anything else, names fit their territories, the
footer says the last shipment and Karama, and the close-up is legible and public only."""

from __future__ import annotations

import io
import itertools
import typing
from pathlib import Path

import pytest
from PIL import Image

from bot.render import (
    Heading,
    LastKarama,
    LastMove,
    LastShipment,
    MapLayout,
    Placement,
    closeup_box,
    closeup_boxes,
    draw_map,
    draw_map_and_layout,
    render_closeup,
)
from bot.render.closeup import MAX_SIDE
from bot.render.examples import all_pieces, busy_view, crowded_view, public_view
from bot.render.geometry import BOARD_HEIGHT, Box, boxes_overlap, cell_for
from bot.render.marks import last_karama_of, touched_pieces
from bot.render.names import inside_its_territory, labels
from mentat.cli import main
from rules.board import standard_board
from rules.events import KaramaCancelled, KaramaPrevented, Shipped
from rules.factions import Faction
from rules.model import Ability
from rules.view import GameSecrets, PrivateView, PublicView, StackView

SHIPMENT = LastShipment(Faction.SPACING_GUILD, "Habbanya Sietch", 16, 2)
KARAMA = LastKarama(Faction.ATREIDES, "the Fremen move of two territories")
HEADING = Heading("Shipment & Movement", 3, SHIPMENT, KARAMA)

SECRETS = GameSecrets(prediction=None, dial=None)


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def assert_nothing_overlaps(layout: MapLayout) -> None:
    """Names, tokens, callouts, legend entries and footer lines: no two boxes overlap
    (a callout holds its own tokens, a turned name's boxes are one name)."""
    names = [(f"name {n.territory}", b) for n in layout.names for b in n.boxes]
    names += [(f"piece name {n.territory}", b) for n in layout.piece_names for b in n.boxes]
    tokens = [
        (f"token {t.token.piece} {t.token.faction}", t.box)
        for t in layout.tokens.tokens
        if t.placement is not Placement.CALLOUT
    ]
    callouts = [(f"callout {c.piece}", c.box) for c in layout.tokens.callouts]
    panel = [(f"panel {i}", b) for i, b in enumerate(layout.panel.boxes)]
    everything = names + tokens + callouts + panel
    for (a_name, a), (b_name, b) in itertools.combinations(everything, 2):
        if a_name == b_name and a_name.startswith(("name", "piece name")):
            continue
        assert not boxes_overlap(a, b), (a_name, a, b_name, b)
    in_callouts = [t.box for t in layout.tokens.tokens if t.placement is Placement.CALLOUT]
    for box in in_callouts:
        assert not any(boxes_overlap(box, other) for _, other in names + tokens + panel)


def test_every_piece_held_by_six_factions_no_name_token_or_legend_box_overlaps() -> None:
    view = crowded_view(tuple(all_pieces()))
    _, layout = draw_map_and_layout(view, HEADING)
    assert len(layout.tokens.tokens) > 6 * len(all_pieces())
    assert_nothing_overlaps(layout)


def test_a_busy_map_with_a_move_shipment_and_karama_has_no_overlaps() -> None:
    move = LastMove(Faction.FREMEN, (("Carthag", 10), ("Imperial Basin", None), ("Arrakeen", 9)))
    _, layout = draw_map_and_layout(busy_view(), HEADING, last_move=move)
    assert_nothing_overlaps(layout)


def test_every_territory_name_lies_inside_its_territory() -> None:
    outside = [label.territory for label in labels() if not inside_its_territory(label)]
    assert outside == []


def test_the_footer_says_the_last_shipment_and_the_karama_below_the_legend() -> None:
    _, layout = draw_map_and_layout(busy_view(), HEADING)
    texts = [line.text for line in layout.panel.footer]
    assert texts == [
        "Last shipment: Spacing Guild, 2 forces to Habbanya Sietch (sector 16)",
        "Karama: Atreides cancelled the Fremen move of two territories",
    ]
    legend_bottom = max(box[3] for box in layout.panel.legend)
    assert all(line.box[1] >= legend_bottom for line in layout.panel.footer)


def test_a_karama_event_becomes_the_footer_line() -> None:
    shipped = Shipped(Faction.FREMEN, "Carthag", 10, 2, 0, 0, "spice_bank", None, 0, karama=None)
    cancelled = KaramaCancelled(
        Faction.ATREIDES, "Karama", Ability.FREMEN_MOVEMENT, Faction.FREMEN, "2.04.06"
    )
    karama = last_karama_of([shipped, cancelled])
    assert karama is not None
    assert karama.text == "Karama: Atreides cancelled the Fremen move of two territories"
    prevented = KaramaPrevented(
        Faction.HARKONNEN, "Karama", Ability.SHIP_AS_IT_PLEASES_YOU, "2.06.12"
    )
    assert last_karama_of([cancelled, prevented]) == LastKarama(
        Faction.HARKONNEN, "the Guild's timing (Ship As It Pleases You)", prevented=True
    )
    assert last_karama_of([shipped]) is None


def _text_pixels_intact(picture: Image.Image, territory: str) -> float:
    """Share of the name's solid pixels drawn exactly as the name's own picture."""
    label = next(label for label in labels() if label.territory == territory)
    patch = label.patch
    same = total = 0
    for y in range(patch.height):
        for x in range(patch.width):
            pixel = patch.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if pixel[3] == 255:
                total += 1
                same += picture.getpixel((label.offset[0] + x, label.offset[1] + y)) == pixel[:3]
    return same / total


def test_the_storm_does_not_hide_the_names_under_it() -> None:
    picture = draw_map(public_view((), storm_sector=5))
    assert _text_pixels_intact(picture, "Pasty Mesa") == 1.0
    assert _text_pixels_intact(picture, "South Mesa") == 1.0


def test_the_move_arrow_does_not_hide_a_name_it_crosses() -> None:
    move = LastMove(Faction.FREMEN, (("Sietch Tabr", 13), ("Plastic Basin", 12)))
    view = public_view((StackView(Faction.FREMEN, "Plastic Basin", 12, 5, 0, 0),))
    assert _text_pixels_intact(draw_map(view, last_move=move), "Sietch Tabr") == 1.0


def sliver() -> tuple[str, int]:
    """A piece of a territory that holds no part of its name and lies far from it."""
    return ("Imperial Basin", 10)


def test_tokens_away_from_their_territory_name_get_a_name_or_a_leader() -> None:
    piece = sliver()
    cell = cell_for(*piece)
    name = next(label for label in labels() if label.territory == piece[0])
    assert not any(cell.contains(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)) for b in name.boxes)
    view = public_view((StackView(Faction.HARKONNEN, *piece, 4, 0, 0),))
    _, layout = draw_map_and_layout(view, HEADING)
    written = [n for n in layout.piece_names if n.territory == piece[0]]
    led = [line for line in layout.leaders if cell.contains(line.start)]
    assert written or led
    for label in written:
        assert cell.contains_box(label.box)
    assert_nothing_overlaps(layout)


def test_a_token_never_sits_on_a_name() -> None:
    view = public_view(
        (
            *(StackView(f, "Arrakeen", 9, 3, 0, 0) for f in Faction),
            StackView(Faction.EMPEROR, "Imperial Basin", 9, 2, 1, 0),
        )
    )
    _, layout = draw_map_and_layout(view, HEADING)
    assert_nothing_overlaps(layout)


# -- the close-up ------------------------------------------------------------------------


def test_the_close_up_is_cut_from_the_same_drawing() -> None:
    view = busy_view()
    move = LastMove(Faction.FREMEN, (("Carthag", 10), ("Imperial Basin", None), ("Arrakeen", 9)))
    pieces = touched_pieces(move, None)
    closeup = decode(render_closeup(view, pieces, turn=4, last_move=move))
    whole = draw_map(view, turn=4, last_move=move)
    left_, top_, right_, bottom_ = closeup_box(pieces)
    part = whole.crop((round(left_), round(top_), round(right_), round(bottom_)))
    left = (closeup.width - part.width) // 2
    bottom = closeup.crop((left, closeup.height - part.height, left + part.width, closeup.height))
    assert bottom.tobytes() == part.tobytes()


def test_the_close_up_leaves_out_only_the_panel_which_it_never_shows() -> None:
    """The close-up draws the map without its panel: every crop it takes (the board's,
    and the callouts', in the corners and in rows under the panel) is as the map has it."""
    view = crowded_view(tuple(all_pieces()))
    whole, layout = draw_map_and_layout(view, HEADING)
    bare, _ = draw_map_and_layout(view, HEADING, panel=False)
    under_the_panel = [c.box for c in layout.tokens.callouts if c.box[1] > BOARD_HEIGHT]
    assert under_the_panel and len(under_the_panel) < len(layout.tokens.callouts)
    boxes = [c.box for c in layout.tokens.callouts]
    boxes += [closeup_box([piece]) for piece in all_pieces()]
    for box in boxes:
        pixels = (round(box[0]), round(box[1]), round(box[2]), round(box[3]))
        assert bare.crop(pixels).tobytes() == whole.crop(pixels).tobytes(), box
    assert bare.tobytes() != whole.tobytes()


@pytest.mark.parametrize(
    "pieces",
    [
        (("Arrakeen", 9), ("Old Gap", 9)),
        (("Habbanya Sietch", 16),),
        (("Polar Sink", None), ("Harg Pass", 4)),
        (("The Great Flat", 14), ("Sietch Tabr", 13)),
    ],
)
def test_the_close_up_shows_the_touched_names_in_a_phone_sized_crop(
    pieces: tuple[tuple[str, int | None], ...],
) -> None:
    box = closeup_box(pieces)
    assert box[2] - box[0] <= MAX_SIDE and box[3] - box[1] <= MAX_SIDE
    for territory, _ in pieces:
        name = next(label for label in labels() if label.territory == territory)
        assert _within(name.box, box), territory
    closeup = decode(render_closeup(public_view(()), pieces))
    assert closeup.width <= MAX_SIDE + 20


def test_a_shipment_far_from_the_move_gets_its_own_crop() -> None:
    pieces = (("Tuek's Sietch", None), ("South Mesa", 4), ("Habbanya Sietch", 16))
    boxes = closeup_boxes(pieces)
    assert len(boxes) == 2
    for box in boxes:
        assert box[2] - box[0] <= MAX_SIDE and box[3] - box[1] <= MAX_SIDE
    for territory, _ in pieces:
        name = next(label for label in labels() if label.territory == territory)
        assert any(_within(name.box, box) for box in boxes), territory


@pytest.mark.parametrize("territory", [t.name for t in standard_board()])
def test_every_territory_has_a_close_up_narrow_enough_for_a_phone(territory: str) -> None:
    (box,) = closeup_boxes([(territory, None)])
    assert box[2] - box[0] <= MAX_SIDE
    name = next(label for label in labels() if label.territory == territory)
    assert _within(name.box, box)


def _within(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def test_the_close_up_takes_territory_names_too_and_refuses_junk() -> None:
    assert decode(render_closeup(busy_view(), ["arrakeen"])).width > 0
    with pytest.raises(ValueError, match="unknown territory"):
        render_closeup(busy_view(), ["Atlantis" * 40])
    with pytest.raises(ValueError, match="no territory"):
        render_closeup(busy_view(), [])


def test_the_close_up_refuses_a_private_view_or_a_smuggling_subclass() -> None:
    private = PrivateView(busy_view(), Faction.ATREIDES, 10, ("Karama",), (), SECRETS)
    with pytest.raises(TypeError, match="PublicView"):
        render_closeup(private, ["Arrakeen"])  # type: ignore[arg-type]

    class Smuggler(PublicView):
        __slots__ = ("cards",)

    view = busy_view()
    smuggler = Smuggler(**{f: getattr(view, f) for f in PublicView.__dataclass_fields__})
    with pytest.raises(TypeError, match="PublicView"):
        render_closeup(smuggler, ["Arrakeen"])


def test_render_closeup_is_annotated_to_take_only_a_public_view() -> None:
    assert typing.get_type_hints(render_closeup)["view"] is PublicView


# -- the command line --------------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "advanced-phase.json"


def test_cli_draws_the_close_up_of_the_last_shipment_and_move(tmp_path: Path) -> None:
    out = tmp_path / "closeup.png"
    assert main(["render", str(EXAMPLE), "--after", "--closeup", "--out", str(out)]) == 0
    with Image.open(out) as picture:
        assert picture.width <= MAX_SIDE + 20


def test_cli_refuses_a_close_up_of_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "closeup.png"
    assert main(["render", str(EXAMPLE), "--closeup", "--out", str(out)]) != 0
    assert "--closeup needs --after" in capsys.readouterr().err
    assert not out.exists()
