"""The delivery of a game's messages: each on its own, tried again, kept, never failing."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field

import pytest

from bot.clock import FakeClock
from bot.delivery import (
    KEPT,
    KEPT_PAUSE,
    NO_MAP,
    NO_PICTURES,
    OLD_SCENE,
    PICTURE_LIMIT,
    PICTURES_KEPT,
    ROUNDS,
    TRIES,
    Delivery,
)
from bot.publisher import (
    AttachmentRefusedError,
    ChannelGoneError,
    DeliveryError,
    ModeratorNotice,
    PrivateNotice,
    PublicNotice,
    RecordingPublisher,
    ScenePicture,
    SceneWords,
)
from rules.factions import Faction

BG, GUILD = Faction.BENE_GESSERIT, Faction.SPACING_GUILD
WORDS = SceneWords("duel", "The duel", "The duel: both plans", "Duel 1: both plans")
PLANS = ScenePicture(b"plans", WORDS)  # a phase's picture of a moment, with its words


@dataclass
class Flaky(RecordingPublisher):
    """A recording publisher whose channels fail as told."""

    fail_public: list[DeliveryError] = field(default_factory=list)  # raised in turn
    gone: set[Faction] = field(default_factory=set)
    no_files: bool = False

    async def public(self, game_id: int, notice: PublicNotice) -> None:
        if self.fail_public:
            raise self.fail_public.pop(0)
        if self.no_files and notice.picture is not None:
            raise AttachmentRefusedError("table", "no Attach Files")
        await super().public(game_id, notice)

    async def ask(self, game_id: int, notice: PrivateNotice) -> str | None:
        if notice.faction in self.gone:
            raise ChannelGoneError("private", "it is gone", faction=notice.faction)
        return await super().ask(game_id, notice)


async def _delivered(delivery: Delivery, clock: FakeClock, seconds: float = 0) -> None:
    await delivery.settled()
    await clock.advance(seconds, settle=delivery.activity.next_quiet)
    await delivery.settled()


async def test_a_5xx_is_tried_again_after_a_pause_in_order() -> None:
    clock, publisher = FakeClock(), Flaky(fail_public=[DeliveryError("503", retryable=True)])
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    delivery.public(PublicNotice("first"))
    delivery.public(PublicNotice("second"))
    await _delivered(delivery, clock)
    assert publisher.public_notices == []  # the second waits behind the first
    await _delivered(delivery, clock, 3)
    assert [n.text for _, n in publisher.public_notices] == ["first", "second"]
    assert delivery.failures == 1
    await delivery.stop()


async def test_a_missing_channel_hides_nothing_from_the_others_and_is_reported_once() -> None:
    clock, publisher = FakeClock(), Flaky(gone={BG})
    reported: list[ChannelGoneError] = []
    delivery = Delivery(1, publisher, clock, trouble=reported.append)
    delivery.start()
    posted: list[str | None] = []
    for faction in (BG, GUILD, BG):
        delivery.ask(PrivateNotice(faction, f"asked {faction.label}"), posted.append)
    await _delivered(delivery, clock)
    assert [n.faction for n in publisher.prompts.values()] == [GUILD]
    assert posted == [None, "0", None]
    assert [r.faction for r in reported] == [BG]
    assert len(delivery.kept) == 2
    await delivery.stop()


async def test_a_refused_file_goes_out_as_text() -> None:
    clock, publisher = FakeClock(), Flaky(no_files=True)
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    delivery.public(PublicNotice("Atreides ships.", picture=b"png"))
    await _delivered(delivery, clock)
    ((_, sent),) = publisher.public_notices
    assert sent.picture is None and sent.text == "Atreides ships." + NO_MAP
    await delivery.stop()


async def test_what_failed_every_try_is_kept_sent_after_the_next_success_and_saved() -> None:
    failures = [DeliveryError("500", retryable=True) for _ in range(TRIES)]
    clock, publisher = FakeClock(), Flaky(fail_public=failures)
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    delivery.public(PublicNotice("lost for now"))
    await _delivered(delivery, clock, 40)  # every try failed; its own timer not yet up
    assert publisher.public_notices == [] and len(delivery.kept) == 1
    delivery.moderators(ModeratorNotice("note"))
    assert await delivery.stop() == [
        {"kind": "public", "lane": "table", "ref": None, "text": "lost for now", "game_id": 0},
        {"kind": "moderators", "lane": "moderators", "ref": None, "text": "note"},
    ]
    again = Delivery(1, publisher, clock)
    again.start(
        [{"kind": "public", "lane": "table", "ref": None, "text": "lost for now", "game_id": 0}]
    )
    again.public(PublicNotice("next"))
    await _delivered(again, clock)
    assert [n.text for _, n in publisher.public_notices] == ["lost for now", "next"]
    await again.stop()


@dataclass
class Down(RecordingPublisher):
    """Discord answers 503 to the private channels' first ``failing`` posts."""

    failing: int = 0

    async def ask(self, game_id: int, notice: PrivateNotice) -> str | None:
        if self.failing:
            self.failing -= 1
            raise DeliveryError("HTTP 503", retryable=True)
        return await super().ask(game_id, notice)


async def test_a_prompt_that_failed_every_try_goes_out_on_its_own_timer() -> None:
    clock, publisher = FakeClock(), Down(failing=TRIES + 1)
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    posted: list[str | None] = []
    delivery.ask(PrivateNotice(BG, "your turn"), posted.append)
    await _delivered(delivery, clock, 40)  # every try failed: kept, and the moderators told
    assert publisher.prompts == {} and len(delivery.kept) == 1
    ((_, told),) = publisher.moderator_notices
    assert "Bene Gesserit private channel" in told.text and "a prompt" in told.text
    assert "HTTP 503" in told.text
    await _delivered(delivery, clock, KEPT_PAUSE.total_seconds())  # refused once more
    assert publisher.prompts == {}
    await _delivered(delivery, clock, 2 * KEPT_PAUSE.total_seconds())  # no other message came
    assert [n.text for n in publisher.prompts.values()] == ["your turn"]
    assert posted[-1] == "0" and not delivery.kept
    assert len(publisher.moderator_notices) == 1  # told once
    await delivery.stop()


@dataclass
class TableGone(RecordingPublisher):
    """The table channel is gone (until ``back``)."""

    back: bool = False

    async def public(self, game_id: int, notice: PublicNotice) -> None:
        if not self.back:
            raise ChannelGoneError("table", "it is gone")
        await super().public(game_id, notice)


def _gave_up(publisher: RecordingPublisher) -> list[str]:
    return [n.text for _, n in publisher.moderator_notices if "gave up" in n.text]


async def test_messages_dropped_beyond_the_kept_limit_are_told_to_the_moderators_once() -> None:
    clock, publisher = FakeClock(), TableGone()
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    for n in range(KEPT + 3):
        delivery.public(PublicNotice(f"message {n}"))
    await _delivered(delivery, clock)
    assert len(delivery.kept) == KEPT and delivery.dropped == 3
    (told,) = _gave_up(publisher)
    assert "the table channel" in told and f"beyond {KEPT} kept" in told
    assert "/mod channels" in told
    publisher.back = True
    delivery.public(PublicNotice("next"))
    await _delivered(delivery, clock)
    assert [n.text for _, n in publisher.public_notices][:3] == ["next", "message 3", "message 4"]
    await delivery.stop()


async def test_a_message_dropped_after_its_rounds_is_told_once_per_repair() -> None:
    clock, publisher = FakeClock(), TableGone()
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    delivery.public(PublicNotice("never delivered"))
    delivery.public(PublicNotice("nor this"))
    await _delivered(delivery, clock)
    for _ in range(ROUNDS - 1):  # a repair that did not help, each time
        assert delivery.redeliver() == 2
        await _delivered(delivery, clock)
    assert _gave_up(publisher) == [] and delivery.dropped == 0
    delivery.redeliver()
    await _delivered(delivery, clock)
    assert delivery.dropped == 2 and not delivery.kept
    (told,) = _gave_up(publisher)  # two messages dropped, told once
    assert f"after {ROUNDS} rounds" in told
    await delivery.stop()


async def test_kept_pictures_survive_a_restart_within_their_cap() -> None:
    clock, publisher = FakeClock(), TableGone()
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    big = PICTURE_LIMIT - 100  # three fit in the cap of a game's kept pictures, not four
    assert 3 * (big + 5) <= PICTURES_KEPT < 4 * big
    for n in range(4):
        delivery.public(PublicNotice(f"map {n}", picture=bytes([n]) * big, closeup=b"close"))
    delivery.public(PublicNotice("too big alone", picture=b"x" * (PICTURE_LIMIT + 1)))
    await _delivered(delivery, clock)
    kept = await delivery.stop()
    assert [k["text"] for k in kept] == [
        "map 0" + NO_MAP,  # the oldest lose their pictures first
        "map 1",
        "map 2",
        "map 3",
        "too big alone" + NO_MAP,
    ]
    publisher.back = True
    again = Delivery(1, publisher, clock)
    again.start(json.loads(json.dumps(kept)))  # as the store keeps them
    await _delivered(again, clock)
    sent = [n for _, n in publisher.public_notices]
    assert [n.text for n in sent] == [k["text"] for k in kept]
    assert [n.picture for n in sent][1:4] == [bytes([n]) * big for n in (1, 2, 3)]
    assert sent[3].closeup == b"close" and sent[0].picture is None and sent[4].picture is None
    await again.stop()


@dataclass
class NoFiles(RecordingPublisher):
    """The table takes no files: any picture, a scene's too, is refused."""

    async def public(self, game_id: int, notice: PublicNotice) -> str | None:
        if notice.picture or notice.closeup or notice.scene:
            raise AttachmentRefusedError("table", "no Attach Files")
        return await super().public(game_id, notice)


async def test_a_battles_picture_refused_leaves_its_words_with_a_note() -> None:
    clock, publisher = FakeClock(), NoFiles()
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    delivery.public(PublicNotice("Atreides's plan: Duncan Idaho.", scene=PLANS))
    delivery.public(PublicNotice("Atreides ships.", picture=b"map"))
    await _delivered(delivery, clock)
    first, second = (n for _, n in publisher.public_notices)
    assert first.text == "Atreides's plan: Duncan Idaho." + NO_PICTURES and first.scene is None
    assert second.text == "Atreides ships." + NO_MAP and second.picture is None
    await delivery.stop()


async def test_a_battles_picture_attached_later_is_kept_across_a_restart() -> None:
    clock, publisher = FakeClock(), TableGone()
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    job = delivery.public(PublicNotice("Atreides's plan: Duncan Idaho."))
    delivery.attach(job, b"map", None, PLANS)  # drawn after the words were handed over
    await _delivered(delivery, clock)
    kept = await delivery.stop()
    assert [k["text"] for k in kept] == ["Atreides's plan: Duncan Idaho."]
    publisher.back = True
    again = Delivery(1, publisher, clock)
    again.start(json.loads(json.dumps(kept)))  # as the store keeps them
    await _delivered(again, clock)
    ((_, sent),) = publisher.public_notices
    assert sent.scene == b"plans" and sent.picture == b"map" and sent.closeup is None
    assert sent.scene.words == PLANS.words  # its words kept with it
    await again.stop()


async def test_a_message_refused_again_after_others_got_through_is_told_once() -> None:
    clock, publisher = FakeClock(), Down(failing=2 * TRIES + 1)
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    delivery.ask(PrivateNotice(BG, "your turn"), lambda ref: None)
    await _delivered(delivery, clock, 40)  # kept; the moderators told
    delivery.private(PrivateNotice(BG, "a note"))  # gets through: the kept one follows...
    await _delivered(delivery, clock, 40)  # ...and is refused every try again
    assert [n.text for _, n in publisher.private_notices] == ["a note"]
    assert len(delivery.kept) == 1
    assert len(publisher.moderator_notices) == 1  # not told again for the same message
    await _delivered(delivery, clock, 5 * 60)  # refused once more, then delivered
    assert [n.text for n in publisher.prompts.values()] == ["your turn"]
    await delivery.stop()


async def test_a_scenes_picture_without_its_words_is_refused_and_changes_nothing() -> None:
    clock, publisher = FakeClock(), RecordingPublisher()
    delivery = Delivery(1, publisher, clock)
    job = delivery.public(PublicNotice("Atreides's plan: Duncan Idaho."))
    with pytest.raises(TypeError, match="comes with its words"):
        delivery.attach(job, b"map", None, b"plans")
    assert job.notice == PublicNotice("Atreides's plan: Duncan Idaho.")
    with pytest.raises(ValueError, match="one lowercase word"):
        SceneWords("Battle 1", "", "", "")


async def test_a_message_kept_by_the_version_before_scenes_keeps_its_picture() -> None:
    """A kept message of the older version has its scene's PNG under its name, no words:
    it goes out with its picture, named as it was."""
    clock, publisher = FakeClock(), RecordingPublisher()
    delivery = Delivery(1, publisher, clock)
    old = {"kind": "public", "lane": "table", "ref": None, "text": "plans", "game_id": 1}
    old[OLD_SCENE] = base64.b64encode(b"plans").decode("ascii")
    delivery.start([old])
    await _delivered(delivery, clock)
    ((_, sent),) = publisher.public_notices
    assert sent.scene == b"plans" and sent.scene.words.name == OLD_SCENE
    await delivery.stop()
