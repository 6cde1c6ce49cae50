"""Issue 13: the map of a whole game says the turn and phase, shows the storm's path this
turn and what the worm took, overlaps nothing, and draws only what everyone may see."""

from __future__ import annotations

import copy
import io
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.render import (
    Heading,
    LastKarama,
    LastShipment,
    StormPath,
    WormSign,
    draw_map,
    draw_map_and_layout,
    palette,
    render_closeup,
    render_map,
)
from bot.render.examples import all_pieces, busy_view, crowded_view
from bot.render.geometry import WIDTH, sector_angles, to_point
from bot.render.maps import MapMaker
from bot.render.marks import last_shipment_of, storm_path_of, worms_of
from bot.render.panel import CARD_GAP, CARD_HEIGHT, CARD_TOP, MARGIN, for_view
from bot.render.turn_example import SCENARIO, mid_turn, turn_events, whole_turn_steps
from bot.render.turn_marks import ARROW, RING_OUTER, WORM, arrow_points, worm_mask
from rules import scenario2
from rules.events import ForcesDestroyed, ShaiHulud, SpiceDestroyed
from rules.factions import Faction
from rules.position import storm_order
from rules.storm.events import StormMoved
from rules.view import GameView
from tests.bot.test_render_layout import assert_nothing_overlaps

DOCS = Path(__file__).resolve().parents[2] / "docs"
PATH = StormPath(2, 6, 4)
WORMS = (WormSign("Funeral Plain", 8, 6),)


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def pixel(picture: Image.Image, point: tuple[float, float]) -> tuple[int, int, int]:
    value = picture.getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def near(a: tuple[int, int, int], b: tuple[int, int, int], by: int = 40) -> bool:
    return all(abs(x - y) <= by for x, y in zip(a, b, strict=True))


def game_view() -> GameView:
    game = mid_turn().view.game
    assert game is not None
    return game


# -- what the events say -------------------------------------------------------------------


def test_the_turns_storm_path_and_worm_come_from_its_events() -> None:
    events = turn_events()
    assert storm_path_of(events) == PATH
    assert worms_of(events) == WORMS
    assert PATH.passed == (2, 3, 4, 5)
    assert StormPath(17, 3, 4).passed == (17, 18, 1, 2)
    assert len(StormPath(18, 3, 39).passed) == 17  # once around: every other sector
    worm = [
        ShaiHulud("A", "The Great Flat", False, "1.02.05"),
        ForcesDestroyed(Faction.EMPEROR, "The Great Flat", 14, 2, 1, 0, "worm", "1.02.05"),
        ForcesDestroyed(Faction.ATREIDES, "Red Chasm", 6, 5, 0, 0, "storm", "1.01.03"),
        SpiceDestroyed("The Great Flat", 14, 10, "worm", "1.02.05"),
        ShaiHulud("B", "Cielago South", False, "1.02.05"),
    ]
    assert worms_of(worm) == (
        WormSign("The Great Flat", 3, 10),
        WormSign("Cielago South", 0, 0),
    )
    assert storm_path_of(worm) is None


def test_the_panel_says_turn_of_last_turn_and_phase_and_the_storms_move() -> None:
    # the storm has moved (every faction with a card answered whether to play a storm card)
    step = next(s for s in whole_turn_steps() if s.view.game and s.view.game.phase == "spice_blow")
    heading = for_view(step.view, Heading("Shipment & Movement", None, None, storm_path=PATH))
    assert heading.turn_text == "Turn 3 of 10 · Spice Blow"
    _, layout = draw_map_and_layout(step.view, heading)
    assert "Shai-Hulud" not in " ".join(line.text for line in layout.panel.footer)
    worm_heading = replace(heading, worms=WORMS)
    _, layout = draw_map_and_layout(step.view, worm_heading)
    assert [line.text for line in layout.panel.footer] == [
        "Shai-Hulud: Funeral Plain: 8 forces, 6 spice"
    ]
    assert WormSign("Cielago South", 0, 0).text == "Cielago South: nothing taken"
    assert len(layout.panel.legend) == 7  # forces, starred, advisors, spice, storm + 2


def test_a_corrected_storm_drops_the_path() -> None:
    view = replace(mid_turn().view, storm_sector=9)
    assert for_view(view, Heading("x", None, None, storm_path=PATH)).storm_path is None


# -- pixels --------------------------------------------------------------------------------


def test_the_storm_path_is_hatched_on_the_rim_with_an_arrow_to_the_storm() -> None:
    view = mid_turn().view
    plain = draw_map(view)
    marked = draw_map(view, storm_path=PATH)
    for sector in (2, 3, 4, 5):
        start, _ = sector_angles(sector)
        on_ring = to_point((1.0 + RING_OUTER) / 2, start + 3.0)
        assert sum(pixel(marked, on_ring)) != sum(pixel(plain, on_ring)), sector
    for sector in (7, 12, 18):
        start, _ = sector_angles(sector)
        on_ring = to_point((1.0 + RING_OUTER) / 2, start + 3.0)
        assert pixel(marked, on_ring) == pixel(plain, on_ring), sector
    points = arrow_points(PATH)
    assert near(pixel(marked, points[len(points) // 2]), ARROW)
    assert not near(pixel(plain, points[len(points) // 2]), ARROW)


def test_the_worms_territory_is_banded() -> None:
    view = mid_turn().view
    plain = draw_map(view)
    marked = draw_map(view, worms=WORMS)
    masks = worm_mask("Funeral Plain")
    assert masks is not None
    inner = masks[1]
    alpha = inner.alpha
    band = [
        (inner.offset[0] + x, inner.offset[1] + y)
        for y in range(0, alpha.height, 3)
        for x in range(0, alpha.width, 3)
        if alpha.getpixel((x, y)) == 255
    ]
    assert len(band) > 50
    coloured = [p for p in band if near(pixel(marked, p), WORM)]
    assert len(coloured) > 0.8 * len(band)
    assert not any(near(pixel(plain, p), WORM) for p in band)


def test_the_whole_turn_map_says_it_in_the_close_up_too() -> None:
    view = mid_turn().view
    png = render_closeup(view, ["Arrakeen"], storm_path=PATH, worms=WORMS)
    assert decode(png).width <= 560


def test_a_one_phase_game_is_drawn_exactly_as_before() -> None:
    """The documented pictures of issue 11 (drawn before whole games) come out pixel for pixel."""
    from bot.render import LastMove

    move = LastMove(Faction.FREMEN, (("Carthag", 10), ("Imperial Basin", None), ("Arrakeen", 9)))
    shipment = LastShipment(Faction.EMPEROR, "Pasty Mesa", 7, 2)
    karama = LastKarama(Faction.ATREIDES, "the Fremen move of two territories")
    busy = draw_map(busy_view(), turn=4, last_move=move, last_shipment=shipment, last_karama=karama)
    with Image.open(DOCS / "map-busy.png") as before:
        assert busy.tobytes() == before.convert("RGB").tobytes()
    crowded = crowded_view((("Harg Pass", 4), ("Imperial Basin", 8), ("Arrakeen", 9)))
    with Image.open(DOCS / "map-crowded.png") as before:
        assert draw_map(crowded, turn=4).tobytes() == before.convert("RGB").tobytes()


# -- layout --------------------------------------------------------------------------------


def test_six_factions_and_spice_everywhere_with_the_whole_turn_marks_overlap_nothing() -> None:
    view = replace(crowded_view(tuple(all_pieces())), game=game_view())
    heading = Heading(
        "",
        None,
        LastShipment(Faction.SPACING_GUILD, "Habbanya Sietch", 16, 2),
        LastKarama(Faction.ATREIDES, "the Fremen move of two territories"),
        storm_path=StormPath(18, 5, 41),  # once around, to the storm in sector 5
        worms=(WormSign("Funeral Plain", 8, 6), WormSign("The Great Flat", 0, 12)),
    )
    picture, layout = draw_map_and_layout(view, heading)
    assert len(layout.panel.footer) == 3 and len(layout.panel.legend) == 7
    assert_nothing_overlaps(layout)
    assert all(line.box[3] <= picture.height for line in layout.panel.footer)


def test_a_long_footer_makes_the_picture_taller_rather_than_cut() -> None:
    worms = tuple(WormSign(t, 10, 10) for t in ("Funeral Plain", "The Great Flat", "Red Chasm"))
    many = Heading("", None, LastShipment(Faction.EMPEROR, "Carthag", 10, 3), worms=worms)
    view = replace(busy_view(), game=game_view())
    picture, layout = draw_map_and_layout(view, many)
    assert max(line.box[3] for line in layout.panel.footer) < picture.height
    assert_nothing_overlaps(layout)


# -- public only ---------------------------------------------------------------------------


def test_secrets_change_nothing_in_the_picture() -> None:
    """Two games alike in everything everyone sees, unlike in hands, spice behind shields,
    traitors and the prediction, give the very same map."""
    other = copy.deepcopy(SCENARIO)
    other["factions"]["atreides"] |= {"spice": 1, "cards": ["Lasgun"], "traitors": ["Burseg"]}
    other["factions"]["bene_gesserit"] |= {"prediction": {"faction": "emperor", "turn": 7}}
    mine = copy.deepcopy(SCENARIO)
    mine["factions"]["atreides"] |= {"spice": 9, "cards": ["Karama"], "traitors": ["Feyd Rautha"]}
    mine["factions"]["bene_gesserit"] |= {"prediction": {"faction": "fremen", "turn": 5}}
    views = [scenario2.load(data).public_view() for data in (mine, other)]
    pictures = [render_map(v, storm_path=PATH, worms=WORMS) for v in views]
    assert views[0] == views[1]
    assert pictures[0] == pictures[1]


async def test_the_map_maker_draws_every_step_of_a_turn_and_remembers_its_marks() -> None:
    """Every step goes through render_map, which refuses anything but a PublicView."""
    maker = MapMaker("action")
    pictures = [await maker(step.view, list(step.events)) for step in whole_turn_steps()]
    assert all(p is not None and p.startswith(b"\x89PNG") for p in pictures)
    state = scenario2.load(SCENARIO)
    private = state.view_for(Faction.ATREIDES)
    with pytest.raises(TypeError, match="PublicView"):
        await maker(private, list(mid_turn().events))  # type: ignore[arg-type]
    view = mid_turn().view
    assert maker.turn_marks(view, []) == (PATH, WORMS)
    game = view.game
    assert game is not None
    next_turn = replace(view, game=replace(game, turn=4, phase="storm"))
    assert maker.turn_marks(next_turn, []) == (None, ())
    moved = [StormMoved(6, 8, 2, "1.01.02")]
    assert maker.turn_marks(next_turn, moved) == (StormPath(6, 8, 2), ())


async def test_the_marks_travel_to_a_render_process() -> None:
    context = multiprocessing.get_context("spawn")
    maker = MapMaker("action")
    for step in whole_turn_steps()[:-1]:
        maker.turn_marks(step.view, step.events)
    events = list(mid_turn().events)
    in_thread = await maker(mid_turn().view, events)
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        maker.executor = pool
        in_process = await maker(mid_turn().view, events)
    assert in_process == in_thread
    assert in_thread == render_map(
        mid_turn().view, last_shipment=last_shipment_of(events), storm_path=PATH, worms=WORMS
    )


async def test_a_lone_phase_remembers_nothing_and_the_turn_policy_draws_a_new_phase() -> None:
    maker = MapMaker("turn", turn=2)
    moved = [StormMoved(6, 8, 2, "1.01.02")]
    lone = busy_view()
    assert maker.turn_marks(lone, moved) == (StormPath(6, 8, 2), ())
    assert maker.turn_marks(lone, []) == (None, ())
    assert maker.wanted(list(whole_turn_steps()[-2].events))
    assert not maker.wanted(list(mid_turn().events))


def test_outside_shipment_and_movement_the_cards_follow_the_storm_and_the_waiting() -> None:
    """The view's phase order is the last Shipment & Movement's; the cards take the storm's
    order from the seats and the sector, and "to act" marks whom the game waits for."""
    view = mid_turn().view
    stale = tuple(reversed(view.storm_order))
    order = storm_order(view.seats, view.storm_sector)
    waiting = replace(game_view(), phase="bidding", waiting=(stale[0],))
    bidding = replace(view, storm_order=stale, to_act=None, game=waiting)
    picture = draw_map(bidding)
    width = (WIDTH - 2 * MARGIN - 5 * CARD_GAP) / 6
    for index, faction in enumerate(order):
        left = MARGIN + index * (width + CARD_GAP)
        assert pixel(picture, (left + 20, CARD_TOP + 8)) == palette.FACTION[faction]
        rim = pixel(picture, (left + 1.5, CARD_TOP + CARD_HEIGHT / 2))
        assert (rim == (255, 255, 255)) is (faction is stale[0]), faction
    moving = draw_map(replace(bidding, game=replace(waiting, phase="shipment_movement")))
    assert pixel(moving, (MARGIN + 20, CARD_TOP + 8)) == palette.FACTION[stale[0]]
