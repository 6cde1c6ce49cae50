"""`mentat demo`'s whole game: every promised event happens (read from the store's log),
the spectators' log keeps every secret, and the bundled game is what its maker makes."""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from bot.demo.game import GamePublisher, demo_game, play_game_demo
from bot.store.store import LogEntry
from mentat.cli import main
from rules.actions import action_from_dict
from rules.battle.events import PlanRevealed, TraitorCalled, VoiceUsed
from rules.battle.traitors import TRAITORS
from rules.board import standard_board
from rules.events import Event, ForcesDestroyed, PhaseBegan
from rules.factions import Faction
from rules.game import GameState
from rules.model import RuleSet
from tests.bot import demo_game_maker


@dataclass
class Played:
    publisher: GamePublisher
    out: Path
    console: str

    @property
    def events(self) -> list[Event]:
        return [e for entry in self.publisher.log for e in entry.events]

    @property
    def markdown(self) -> str:
        return (self.out / "public.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """The whole demo, once for the module, without maps (the maps are `make demo`'s)."""
    out = tmp_path_factory.mktemp("demo")
    console = io.StringIO()
    publisher = asyncio.run(play_game_demo(out, stream=console, maps=False))
    yield Played(publisher, out, console.getvalue())


def test_the_whole_game_shows_every_promised_event(played: Played) -> None:
    events = played.events
    kinds = [e.kind for e in events]
    assert played.publisher.status == "finished"
    turns = {e.turn for e in events if isinstance(e, PhaseBegan)}
    assert len(turns) >= 3
    assert "nexus_started" in kinds and "alliance_formed" in kinds
    storm = [e for e in events if isinstance(e, ForcesDestroyed) and e.cause == "storm"]
    assert storm and sum(e.forces + e.special + e.advisors for e in storm) > 0
    assert "charity_paid" in kinds and "spice_collected" in kinds
    assert "traitor_called" in kinds and "leader_killed" in kinds and "battle_won" in kinds
    assert "leader_captured" in kinds or "lasgun_shield" in kinds
    assert "game_won" in kinds or max(turns) == 10
    closed = [e for e in played.publisher.log if e.body and e.body.get("action") == "phase_done"]
    assert closed == []  # the engine runs every phase: the moderator closes none (issue 17)


def test_every_entry_is_a_scripted_player_or_the_system(played: Played) -> None:
    """Nothing was answered by a deadline's default: the script answered every choice; the
    system only closed the secret windows when their time ran out (they run it always)."""
    actions = [entry for entry in played.publisher.log if entry.kind == "action"]
    assert {entry.actor for entry in actions} == {0, 2}  # no phase left for the moderator
    closed = {str(entry.body) for entry in actions if entry.actor == 0}
    assert closed and all("close_prompts" in body for body in closed), closed


def test_public_md_has_a_section_for_each_phase_and_the_whole_game(played: Played) -> None:
    markdown = played.markdown
    assert markdown.startswith("# Mentat demo: a whole game")
    for turn in (1, 2, 3):
        assert f"\n## Turn {turn}\n" in markdown
        for phase in ("Storm", "Spice Blow", "CHOAM Charity", "Bidding", "Revival"):
            assert f"\n### Turn {turn}: {phase}\n" in markdown
    assert "**The game is over.**" in markdown
    assert "<@" not in markdown and "<t:" not in markdown  # in words, as GitHub renders it
    assert "[moderators]" not in markdown


def secrets_of_the_game() -> tuple[set[str], set[str], tuple[Faction, int]]:
    """Replayed from the bundled log: cards held in a hand and never shown (a card played in
    a battle plan is shown, even if its winner keeps it), the kept traitors (not yet called) and the
    prediction."""
    data = demo_game()
    state = GameState.new_game(
        [Faction(f) for f in data["seats"]], seed=data["seed"], rules=RuleSet(advanced=True)
    )
    held: set[str] = set()
    shown: set[str] = set()
    called: set[str] = set()
    for raw in data["actions"]:
        before = {f: set(state.factions[f].cards) for f in state.factions}
        for event in state.apply(action_from_dict(raw)):
            if isinstance(event, PlanRevealed):  # played face up in a battle, kept or not
                shown |= {c for c in (event.weapon, event.defense, event.leader) if c}
            if isinstance(event, VoiceUsed):  # the Voice names a kind of card, no hand's
                shown.add(event.card_kind)
            if isinstance(event, TraitorCalled):  # revealed when called (1.07.06.06)
                called.add(event.leader)
        for f, cards in before.items():
            held |= cards
            shown |= cards - set(state.factions[f].cards)  # played or discarded: shown
        shown |= set(state.whole.treachery_discard)  # a name discarded face up (a copy)
    traitors = {t for kept in TRAITORS.of(state.whole).values() for t in kept} - called
    prediction = state.whole.prediction
    assert prediction is not None
    return held - shown, traitors, prediction


def test_the_record_and_console_read_in_words(played: Played) -> None:
    """No placeholder, raw mention or Discord timestamp reaches a reader outside Discord;
    deadlines are told as times (the table sits down on 1 January 2026, 12:00 UTC)."""
    for text in (played.markdown, played.console):
        assert "{player:" not in text and "<t:" not in text and "<@" not in text
        assert "(a deadline)" not in text
    deadline = re.compile(r"Deadline for \w[\w ]*: \w+day \d+ \w+ 2026, \d\d:\d\d UTC \(in ")
    assert deadline.search(played.markdown) and deadline.search(played.console)


def test_the_record_tells_what_happened_not_the_tables_pacing(played: Played) -> None:
    """A window's end and the moderators' advice are the table's (issue 26)."""
    closes = "The window for the others' answers closes."
    assert closes in played.console and closes not in played.markdown
    assert "/mod undo" not in played.markdown
    assert "s's " not in played.markdown  # "Atreides' plan", never "Atreides's plan"
    assert played.markdown.rstrip().endswith("The game is finished.")


def test_the_record_ends_with_the_games_summary_for_the_table_too(played: Played) -> None:
    """The result, each faction's path (with the charts), the turning battles: at the end
    of public.md and of the table's log, each part a message of its own (issue 26)."""
    markdown = played.markdown
    parts = ["**The game in short**", "**Each faction's path**", "**The turning battles**"]
    at = [markdown.index(part) for part in parts]
    assert at == sorted(at) and at[0] > markdown.index("**The game is over.**")
    assert "(charts-001.png)" in markdown[at[1] : at[2]]
    assert all(part in played.console for part in parts)
    for faction in demo_game()["seats"]:
        assert f"- **{Faction(faction).label}**: " in markdown
    with Image.open(played.out / "charts-001.png") as charts:
        assert charts.format == "PNG" and charts.width == 800
    summary = [n.text for n in played.publisher.spectator_notices if n.text.startswith("**")]
    assert all(len(text) <= 2000 for text in summary)


def test_two_games_differing_only_in_a_secret_have_the_same_public_record(
    played: Played, tmp_path: Path
) -> None:
    """The Bene Gesserit predict another winner and turn (a secret that never comes true):
    public.md, its summary and its charts (byte for byte) are the same."""
    game = demo_game()
    actions = [dict(a) for a in game["actions"]]
    predicted = next(a for a in actions if a["action"] == "predict")
    assert (predicted["who"], predicted["turn"]) != ("atreides", 7)
    predicted.update(who="atreides", turn=7)
    other = tmp_path / "other"
    replayed = asyncio.run(
        play_game_demo(other, stream=io.StringIO(), maps=False, game={**game, "actions": actions})
    )

    def prediction(log: list[LogEntry]) -> object:
        return next(e.body for e in log if e.body and e.body.get("action") == "predict")

    assert prediction(replayed.log) != prediction(played.publisher.log)  # the secret differs
    assert replayed.status == "finished"
    assert (other / "public.md").read_text(encoding="utf-8") == played.markdown
    assert (other / "charts-001.png").read_bytes() == (played.out / "charts-001.png").read_bytes()


def test_public_md_holds_no_secret(played: Played) -> None:
    hidden, traitors, (predicted, turn) = secrets_of_the_game()
    assert hidden  # cards stayed secret in hands to the end
    text = played.markdown + played.console
    words = text
    for territory in sorted((t.name for t in standard_board()), key=len, reverse=True):
        words = words.replace(territory, "")  # "Shield Wall" names no Shield card
    for card in hidden - {"Karama"}:  # "Karama window" names a rule, not a card held
        assert card not in words, card
    lines = text.splitlines()
    for line in lines:
        if "traitor" in line.lower():
            assert not any(t in line for t in traitors), line
        if "predict" in line.lower():
            assert predicted.label not in line and f"turn {turn}" not in line.lower(), line
        if "has dialed" in line:
            assert not re.search(r"\d", line), line  # the dial is told only at the reveal
    assert str(demo_game()["seed"]) not in text
    spice = re.compile(r"\b(holds|has) \d+ spice\b")
    assert not spice.search(played.markdown)  # spice behind shields


def test_private_logs_are_one_per_faction_and_hold_their_own_secrets(played: Played) -> None:
    logs = sorted(p.name for p in played.out.glob("private-*.txt"))
    assert logs == sorted(f"private-{f}.txt" for f in demo_game()["seats"])
    _, traitors, _ = secrets_of_the_game()
    private = "".join(p.read_text() for p in played.out.glob("private-*.txt"))
    assert any(t in private for t in traitors)


def test_the_bundled_game_is_what_its_maker_makes() -> None:
    bundled = demo_game()
    actions, events, state = demo_game_maker.play(bundled["policy_seed"])
    assert bundled["actions"] == json.loads(json.dumps(demo_game_maker.make_record(actions)))
    assert demo_game_maker.shows_everything(events, state)


def test_mentat_demo_phase_still_plays_the_one_phase_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--phase", "--out", str(tmp_path / "p")]) == 0
    assert "**Fremen's turn**" in (tmp_path / "p" / "public.md").read_text()  # the record
    assert "Wrote " in capsys.readouterr().out


def test_the_demo_with_maps_writes_each_battles_picture_after_its_words(tmp_path: Path) -> None:
    """`mentat demo` draws both plans of each battle (bot.render.battle.plans): at the reveal, or
    at the result when the traitor question came between; public.md links each after the
    words of its reveal or result."""
    out = tmp_path / "demo"
    asyncio.run(play_game_demo(out, stream=io.StringIO(), maps=True))
    battles = sorted(p.name for p in out.glob("battle-*.png"))
    assert battles and battles[0] == "battle-001.png"
    for name in battles:
        with Image.open(out / name) as picture:
            assert picture.format == "PNG" and picture.width == 800
    markdown = (out / "public.md").read_text(encoding="utf-8")
    blocks = markdown.split("\n\n")
    assert "of the message above" not in markdown  # each picture right under its message
    links = [b for b in blocks if b.startswith("![Battle ")]
    assert [link.split("(")[-1].rstrip(")") for link in links] == battles
    fought = markdown.count("\nBattle in ")
    assert {link.split(":")[0] for link in links} == {f"![Battle {n}" for n in range(1, fought + 1)}
    for link in links:  # each after the words of what it shows
        at = blocks.index(link)
        before = "\n".join(blocks[at - 2 : at])
        if link.endswith(f"both plans]({link.split('(')[-1]}"):
            assert "plan: " in before and " wins " not in before, before
        else:
            assert " wins " in before or "explode" in before, before
    assert f"({battles[-1]})" in markdown and "map-001.png" in markdown
    maps = [b for b in blocks if b.startswith("![Map ")]
    for link in maps[:-1]:  # each under the phase it shows: a Shipment & Movement's end
        heading = [b for b in blocks[: blocks.index(link)] if b.startswith("### Turn ")][-1]
        assert heading.endswith(": Shipment & Movement"), (link, heading)
    last = [b for b in blocks[: blocks.index(maps[-1])] if b.startswith("### Turn ")][-1]
    assert "**The game is over.**" in blocks[blocks.index(maps[-1]) - 1], last
    closeups = sorted(p.name for p in out.glob("closeup-*.png"))
    territories = {t.name for t in standard_board()}
    assert closeups and all(f"({name})" in markdown for name in closeups)
    for name in closeups:  # under its map, captioned with the territories it shows
        with Image.open(out / name) as picture:
            assert picture.format == "PNG" and picture.width <= 540
        block = markdown[markdown.index(f"({name})") :].split("\n\n")[0]
        caption = re.search(
            r"\*Close-up of (.+): the shipments and moves since the last map\.\*", block
        )
        assert caption is not None, block
        named = caption[1].replace(" and ", ", ").replace("the Polar Sink", "Polar Sink")
        assert set(named.split(", ")) <= territories, caption[1]
    assert "(charts-001.png)" in markdown
    marker = (out / ".mentat-demo").read_text(encoding="utf-8").splitlines()
    assert set(battles + closeups) <= set(marker)  # replaced by the next demo like the maps
    assert "charts-001.png" in marker
    assert "web" in marker
    static_live_page(out / "web")


def static_live_page(web: Path) -> None:
    """The live page as files: a page per action, every link and picture a file there."""
    pages = sorted(web.glob("action-*.html"))
    assert len(pages) > 100 and (web / "index.html").read_bytes() == pages[-1].read_bytes()
    for page in [pages[0], pages[len(pages) // 2], pages[-1]]:
        html = page.read_text(encoding="utf-8")
        targets = set(re.findall(r"(?:href|src)='([^']+)'", html)) - {"data:,"}
        assert targets and all((web / target).is_file() for target in targets), targets
        assert "http" not in html  # nothing fetched from elsewhere: it works offline
    last = (web / "index.html").read_text(encoding="utf-8")
    assert re.search(r" wins? the game", last) and last.count('<svg class="chart"') == 2
    assert len(list(web.glob("battle-*.png"))) >= 1
