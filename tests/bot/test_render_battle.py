"""Issue 17: the battle's reveal in a picture: both plans side by side and how it ended,
legible on a phone, drawn only from public events (bot.render.battle: plans, reveal)."""

from __future__ import annotations

import io
import itertools
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.render.battle import examples
from bot.render.battle.plans import MIN_TEXT, BattleLayout, draw_battle_and_layout, render_battle
from bot.render.battle.reveal import BattleReveal, RevealWatch, check_reveal, reveal_of
from bot.render.examples import public_view
from bot.render.geometry import boxes_overlap
from bot.render.maps import MapMaker
from bot.render.palette import FACTION
from bot.store.events import Undone
from rules.battle.events import BattlePlanIn, BattleStarted, PlanRevealed
from rules.components import leaders, treachery_cards
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.view import PrivateView
from tests.rules.battle_helpers import duel, plan
from tests.rules.helpers import act

F = Faction
EXAMPLES = {
    "fought": examples.fought,
    "betrayed": examples.betrayed,
    "waiting": examples.waiting,
    "exploded": examples.exploded,
}


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def words(layout: BattleLayout, role: str, faction: Faction | None = None) -> list[str]:
    return [t.text for t in layout.of(role, faction)]


def results(layout: BattleLayout, faction: Faction) -> str:
    """A column's result lines as one text (a long line is wrapped in two)."""
    return " ".join(words(layout, "result", faction))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_picture_is_a_png_about_800_by_400_and_its_texts_fit_a_phone(name: str) -> None:
    reveal = EXAMPLES[name]()
    picture = decode(render_battle(reveal))
    image, layout = draw_battle_and_layout(reveal)
    assert picture.format == "PNG" and picture.mode == "RGB"
    assert picture.size == image.size == (layout.width, layout.height)
    assert 780 <= picture.width <= 860 and 350 <= picture.height <= 640
    # shown 400 pixels wide on a phone, the smallest text keeps 11 pixels at least
    assert min(t.size for t in layout.texts) >= MIN_TEXT
    assert MIN_TEXT * 400 / picture.width >= 11
    for text in layout.texts:  # inside the picture, and in its own column
        left, top, right, bottom = text.box
        assert 0 <= left < right <= picture.width and 0 <= top < bottom <= picture.height
        if text.faction is not None:
            column = dict(layout.columns)[text.faction]
            assert column[0] <= left and right <= column[2], text
    for a, b in itertools.combinations(layout.texts, 2):
        assert not boxes_overlap(a.box, b.box), (a, b)
    # the picture is not blank: each column has its faction's colour in its header
    for faction, box in layout.columns:
        header = picture.getpixel((int(box[0]) + 6, int(box[1]) + 6))
        assert header == FACTION[faction]


def test_a_fight_shows_every_element_of_both_plans_and_the_result() -> None:
    _, layout = draw_battle_and_layout(examples.fought())
    assert words(layout, "title") == ["Battle in Arrakeen"]
    assert words(layout, "faction") == ["Atreides", "Harkonnen"]  # the aggressor first
    assert words(layout, "leader", F.ATREIDES) == ["Duncan Idaho"]
    assert words(layout, "strength", F.ATREIDES) == ["2"]
    assert words(layout, "kwisatz_haderach", F.ATREIDES) == ["Kwisatz Haderach"]
    assert words(layout, "kh_bonus", F.ATREIDES) == ["+2"]
    assert words(layout, "leader", F.HARKONNEN) == ["Captain Iakin Nefud"]
    assert words(layout, "number", F.ATREIDES) == ["3"]
    assert words(layout, "spice", F.ATREIDES) == ["backed by 2 spice"]
    assert words(layout, "weapon", F.ATREIDES) == ["Crysknife"]
    assert words(layout, "defense", F.ATREIDES) == ["Snooper"]
    assert words(layout, "defense", F.HARKONNEN) == ["none"]
    assert layout.winner is F.ATREIDES
    assert words(layout, "side", F.ATREIDES) == ["Winner"]
    assert results(layout, F.ATREIDES).startswith("Wins 7 to 4")
    assert "Snooper stops Chaumas" in results(layout, F.ATREIDES)
    assert "Pays 2 spice" in results(layout, F.ATREIDES)
    assert results(layout, F.HARKONNEN).startswith("Loses 4 to 7")
    assert "Crysknife kills Captain Iakin Nefud" in results(layout, F.HARKONNEN)
    assert "Loses 6 forces" in results(layout, F.HARKONNEN)


def test_a_traitor_an_explosion_and_a_pending_traitor_question() -> None:
    _, betrayed = draw_battle_and_layout(examples.betrayed())
    assert "Traitor! Duncan Idaho betrays them" in results(betrayed, F.ATREIDES)
    assert "Duncan Idaho dies" in results(betrayed, F.ATREIDES)
    assert results(betrayed, F.BENE_GESSERIT).startswith("Wins by treachery")
    assert "Traitor called: Duncan Idaho" in results(betrayed, F.BENE_GESSERIT)
    assert words(betrayed, "weapon", F.BENE_GESSERIT) == ["none"]
    _, exploded = draw_battle_and_layout(examples.exploded())
    assert exploded.winner is None
    assert words(exploded, "leader", F.EMPEROR) == ["Cheap Hero"]
    assert words(exploded, "strength", F.EMPEROR) == []  # a Cheap Hero has no strength
    banner = " ".join(words(exploded, "explosion"))  # across both columns, maybe two lines
    assert banner.startswith("Lasgun and shield explode: everything in Carthag dies")
    assert "The Kwisatz Haderach dies" in results(exploded, F.ATREIDES)
    _, waiting = draw_battle_and_layout(examples.waiting())
    assert words(waiting, "waiting") == ["The traitor question comes first; the result follows"]
    assert words(waiting, "result") == [] and waiting.winner is None


def test_the_longest_names_fit_their_column() -> None:
    name = max((n for f in Faction for n in leaders(f)), key=len)
    cards = sorted(treachery_cards(), key=len)
    longest = PlanRevealed(F.SPACING_GUILD, name, 7.5, 12, cards[-1], cards[-2], True)
    other = PlanRevealed(F.FREMEN, None, 0, 0, None, None, False)
    _, layout = draw_battle_and_layout(BattleReveal("Hole in the Rock", (longest, other)))
    assert words(layout, "leader", F.SPACING_GUILD) == [name]  # whole
    assert words(layout, "number", F.SPACING_GUILD) == ["7.5"]
    assert words(layout, "leader", F.FREMEN) == ["none"]
    for text in layout.texts:
        if text.faction is not None:
            column = dict(layout.columns)[text.faction]
            assert column[0] <= text.box[0] and text.box[2] <= column[2], text


def test_only_a_reveal_of_public_events_is_drawn(game: GameState) -> None:
    private = game.view_for(F.HARKONNEN)
    assert isinstance(private, PrivateView)
    reveal = examples.fought()
    for junk in (private, game, private.public, reveal.plans, {"leader": "Feyd Rautha"}):
        with pytest.raises(TypeError, match="only a BattleReveal"):
            render_battle(junk)  # type: ignore[arg-type]
    forged = replace(reveal, plans=({"leader": "Feyd Rautha"}, reveal.plans[1]))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="two PlanRevealed"):
        render_battle(forged)
    strange = replace(reveal, outcome=(BattlePlanIn(F.ATREIDES),))
    with pytest.raises(TypeError, match="BattlePlanIn is not a resolution's public event"):
        check_reveal(strange)
    for watcher in (RevealWatch().see, MapMaker().scene):
        with pytest.raises(TypeError, match="PublicView"):
            watcher(private, [])  # type: ignore[arg-type]


@pytest.fixture
def game() -> GameState:
    return duel(
        {"cards": ("Chaumas", "Shield", "Karama")},
        {"cards": ("Crysknife", "Snooper", "Baliset")},
        traitors={F.EMPEROR: ("Feyd Rautha",), F.HARKONNEN: ("Bashar",)},
    )


def test_a_battle_played_by_the_engine_gets_its_picture_at_the_reveal_and_at_the_traitor(
    game: GameState,
) -> None:
    """The announcements in their order: nothing at the first plan; the reveal (the traitor
    question open); the resolution when the Emperor call their traitor, with the plans."""
    watch = RevealWatch()
    seen: list[BattleReveal | None] = []

    def announce(events: list[Event]) -> None:
        seen.append(watch.see(game.public_view(), events))

    announce(plan(game, "harkonnen", "Feyd Rautha", 3, weapon="Chaumas", defense="Shield"))
    announce(plan(game, "emperor", "Bashar", 2, weapon="Crysknife"))
    assert game.whole.step == "traitor_calls"
    for faction in list(game.whole.waiting):
        answer = "call_traitor" if faction is F.EMPEROR else "pass"
        announce(act(game, faction.value, answer))
    assert seen[0] is None
    revealed = seen[1]
    assert revealed is not None and not revealed.resolved and revealed.territory == "Carthag"
    assert [p.faction for p in revealed.plans] == [F.HARKONNEN, F.EMPEROR]
    resolved = [r for r in seen[2:] if r is not None]
    assert len(resolved) == 1 and resolved[0].resolved and resolved[0].plans == revealed.plans
    _, layout = draw_battle_and_layout(resolved[0])
    assert "Traitor! Feyd Rautha betrays them" in results(layout, F.HARKONNEN)
    assert layout.winner is F.EMPEROR
    # hands' cards never played are not in the picture
    texts = " ".join(t.text for t in layout.texts)
    assert "Karama" not in texts and "Snooper" not in texts and "Baliset" not in texts
    assert "Bashar" in texts  # the Emperor's own leader, played
    # the next announcement (cards kept, the next battle) draws nothing more
    assert watch.see(game.public_view(), []) is None and watch.reveal is None


def test_one_announcements_reveal_and_a_map_maker_with_maps_off() -> None:
    reveal = examples.fought()
    events: list[Event] = [*reveal.plans, *reveal.outcome]
    view = public_view(())
    found = reveal_of(view, events)
    assert found is not None and found.plans == reveal.plans and found.outcome == reveal.outcome
    assert found.territory == "Arrakeen"  # read from the result: no battle in this view
    assert MapMaker("never").scene(view, events) is None
    scene = MapMaker("turn").scene(view, events)
    assert scene is not None and scene.subject == found


def test_the_documented_picture_is_what_the_renderer_draws() -> None:
    """docs/battle-reveal.png (docs/make_examples.py) comes out pixel for pixel."""
    docs = Path(__file__).resolve().parents[2] / "docs"
    image, _ = draw_battle_and_layout(examples.fought())
    with Image.open(docs / "battle-reveal.png") as documented:
        assert image.tobytes() == documented.convert("RGB").tobytes()


def test_an_undone_reveal_or_a_new_battle_forgets_the_plans() -> None:
    """A moderator's undo, or the next battle, ends what the watch remembers: a result
    that comes later is never drawn with plans that are no longer in effect."""
    view = public_view(())
    plans = list(examples.betrayed().plans)
    result = list(examples.betrayed().outcome)
    for ending in (
        Undone(7, {"type": "battle_plan"}, 1),
        BattleStarted(F.HARKONNEN, F.EMPEROR, "Carthag", None, "1.07.02"),
    ):
        watch = RevealWatch()
        revealed = watch.see(view, plans)
        assert revealed is not None and not revealed.resolved
        assert watch.see(view, [ending]) is None
        assert watch.see(view, result) is None and watch.reveal is None
    watch = RevealWatch()
    watch.see(view, plans)
    redrawn = watch.see(view, result)  # nothing between: the result gets its picture
    assert redrawn is not None and redrawn.resolved and redrawn.plans == tuple(plans)


def test_a_result_that_ends_the_battle_phase_in_the_same_action_gets_its_picture() -> None:
    """Issue 26: the last traitor answer resolves the only battle, and the same action
    ends the battles and the phase: the result is still drawn, with the plans revealed."""
    game = duel(traitors={F.EMPEROR: ("Feyd Rautha",), F.HARKONNEN: ("Bashar",)})
    maker = MapMaker()
    assert maker.scene(game.public_view(), plan(game, "harkonnen", "Feyd Rautha", 3)) is None
    shown = maker.scene(game.public_view(), plan(game, "emperor", "Bashar", 2))
    revealed = shown.subject if shown is not None else None
    assert revealed is not None and not revealed.resolved
    seen: list[BattleReveal | None] = []
    last: list[Event] = []
    for faction in list(game.whole.waiting):
        last = act(game, faction.value, "pass")
        scene = maker.scene(game.public_view(), last)
        seen.append(scene.subject if scene is not None else None)
    kinds = [event.kind for event in last]
    assert "battle_won" in kinds and "battles_over" in kinds and "phase_began" in kinds
    assert seen[0] is None
    result = seen[-1]
    assert result is not None and result.resolved and result.plans == revealed.plans
    assert result.territory == "Carthag"
    _, layout = draw_battle_and_layout(result)
    assert layout.winner is F.HARKONNEN
    assert maker.scene(game.public_view(), []) is None  # told once
