"""Render a busy position (six factions, 40 stacks) and compare with a bare PNG encode.

Prints progress lines, then one JSON object on the last line:
``render_ms_median`` (the whole ``render_map`` call, PNG encoding included) and
``png_encode_ms_median`` (Pillow encoding the very same picture as a PNG at
``compress_level=1``, nothing drawn: the reference the target was set against; the
renderer's own encoder, ``bot.render.png``, is faster: ``encode_ms_median``).
The static board is drawn once before timing.
Target: render_ms_median <= 2 * png_encode_ms_median.

``cold_render_ms`` is the first ``render_map`` call of a fresh process (static board,
token layout, fonts and sprites all drawn from nothing: what ``mentat render`` and the
first map of each ``mentat run`` worker pay), median of COLD_RUNS new processes;
``cold_import_ms`` is importing the renderer in those processes, measured apart, and
``cold_render_cpu_ms`` the CPU time of that first call (steadier on a busy machine).
Target: cold_render_ms <= 300.

``warmed_render_ms`` is the first map of a render worker as ``mentat run`` starts it: in a
fresh process, after ``bot.render.maps.warm_renderer`` (run by each worker as it starts, while the
bot logs in), the first ``render_map`` of another position (median of COLD_RUNS processes;
``warm_up_ms`` is what the worker spent warming). Target: warmed_render_ms <= 300.

``closeup_ms_median`` is ``render_closeup`` of the same position around a move from
Carthag through Imperial Basin to Arrakeen (it draws the whole map, crops and encodes the
smaller picture), warm, interleaved with the others.

``whole_turn_ms_median`` is ``render_map`` of the same position as a whole game (turn and
phase in the panel) with the storm's path and a worm's territory marked (issue 13), warm.
"""

from __future__ import annotations

import io
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PIL import Image

from bot.render import LastMove, render_closeup, render_map
from bot.render.examples import busy_view
from bot.render.marks import storm_path_of, touched_pieces, worms_of
from bot.render.png import encode_png
from bot.render.turn_example import mid_turn, turn_events
from rules.factions import Faction

RUNS = 31
COLD_RUNS = 7
COLD_SCRIPT = """
import json, time
start = time.perf_counter()
from bot.render import LastMove, render_closeup, render_map
from bot.render.examples import busy_view
from bot.render.marks import touched_pieces
from rules.factions import Faction
imported = time.perf_counter()
view = busy_view(stack_count=40)
wall, cpu = time.perf_counter(), time.process_time()
render_map(view)
print(json.dumps({
    "import_ms": (imported - start) * 1000,
    "render_ms": (time.perf_counter() - wall) * 1000,
    "render_cpu_ms": (time.process_time() - cpu) * 1000,
}))
"""
WARMED_SCRIPT = """
import json, time
from bot.render.maps import warm_renderer
from bot.render import render_map
from bot.render.examples import busy_view
start = time.perf_counter()
warm_renderer()
warmed = time.perf_counter()
render_map(busy_view(stack_count=40, seed=11))
print(json.dumps({
    "warm_up_ms": (warmed - start) * 1000,
    "warmed_render_ms": (time.perf_counter() - warmed) * 1000,
}))
"""
ROOT = Path(__file__).resolve().parents[1]
MOVE = LastMove(Faction.FREMEN, (("Carthag", 10), ("Imperial Basin", None), ("Arrakeen", 9)))


def timed_ms(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


PILLOW_COMPRESS_LEVEL = 1  # the reference: Pillow's PNG encoder as the renderer used it


def encode(picture: Image.Image) -> bytes:
    buffer = io.BytesIO()
    picture.save(buffer, "PNG", compress_level=PILLOW_COMPRESS_LEVEL)
    return buffer.getvalue()


def cold_run(script: str = COLD_SCRIPT) -> dict[str, float]:
    """One fresh interpreter: import the renderer, then draw its first map."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(result, dict)
    return {key: float(value) for key, value in result.items()}


def cold_medians(script: str = COLD_SCRIPT) -> dict[str, float]:
    runs = [cold_run(script) for _ in range(COLD_RUNS)]
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> None:
    cold = cold_medians()
    print(
        f"cold (new process, median of {COLD_RUNS}): import {cold['import_ms']:.0f} ms, "
        f"first map {cold['render_ms']:.0f} ms ({cold['render_cpu_ms']:.0f} ms CPU)"
    )
    warmed = cold_medians(WARMED_SCRIPT)
    print(
        f"a render worker's first map, warmed as it starts: {warmed['warmed_render_ms']:.0f} ms "
        f"(warming {warmed['warm_up_ms']:.0f} ms, while the bot logs in)"
    )
    view = busy_view(stack_count=40)
    png = render_map(view)  # warm-up: draws and caches the static board
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    print(f"busy position: {len(view.stacks)} stacks, picture {picture.size}, {len(png)} bytes")
    pieces = touched_pieces(MOVE, None)
    closeup_png = render_closeup(view, pieces, last_move=MOVE)
    closeup_size = Image.open(io.BytesIO(closeup_png)).size
    path, worms = storm_path_of(turn_events()), worms_of(turn_events())
    assert path is not None and worms
    turn_view = replace(view, game=mid_turn().view.game, storm_sector=path.end)
    render_map(turn_view, storm_path=path, worms=worms)  # warm-up: the worm's band
    renders, encodes, own_encodes, closeups, turns = [], [], [], [], []
    for _ in range(RUNS):  # interleaved, so all see the same machine load
        renders.append(timed_ms(lambda: render_map(view)))
        encodes.append(timed_ms(lambda: encode(picture)))
        own_encodes.append(timed_ms(lambda: encode_png(picture)))
        closeups.append(timed_ms(lambda: render_closeup(view, pieces, last_move=MOVE)))
        turns.append(timed_ms(lambda: render_map(turn_view, storm_path=path, worms=worms)))
    render, encode_only = statistics.median(renders), statistics.median(encodes)
    closeup, whole_turn = statistics.median(closeups), statistics.median(turns)
    own_encode = statistics.median(own_encodes)
    print(
        f"render {render:.1f} ms, Pillow's encode {encode_only:.1f} ms, ratio "
        f"{render / encode_only:.2f}; the renderer's encode {own_encode:.1f} ms"
    )
    print(f"close-up {closeup:.1f} ms, picture {closeup_size}, {len(closeup_png)} bytes")
    print(f"whole turn (storm path, worm, turn and phase) {whole_turn:.1f} ms")
    result = {
        "render_ms_median": round(render, 2),
        "png_encode_ms_median": round(encode_only, 2),
        "ratio": round(render / encode_only, 3),
        "encode_ms_median": round(own_encode, 2),
        "png_bytes": len(png),
        "width": picture.width,
        "height": picture.height,
        "stacks": len(view.stacks),
        "closeup_ms_median": round(closeup, 2),
        "closeup_width": closeup_size[0],
        "closeup_height": closeup_size[1],
        "whole_turn_ms_median": round(whole_turn, 2),
        "cold_render_ms": round(cold["render_ms"], 1),
        "cold_render_cpu_ms": round(cold["render_cpu_ms"], 1),
        "cold_import_ms": round(cold["import_ms"], 1),
        "warmed_render_ms": round(warmed["warmed_render_ms"], 1),
        "warm_up_ms": round(warmed["warm_up_ms"], 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
