"""Delivery: how a game's messages reach Discord, apart from the game itself.

The session decides what happened and what is asked; it hands each message to its game's
:class:`Delivery` and goes on at once. One task per game sends them, in order per channel
("lane"), each message on its own, so that no failure reaches the game:

- a 5xx, a 429 or a network error is tried again with a growing pause (the injected clock's);
- a message whose file the channel refuses goes out as text alone;
- a map drawn after its text (:meth:`Delivery.attach`) is attached to the posted message
  by an edit, in its channel's order, or joins the text if that has not gone out yet;
- a message that failed every try (Discord down for a while: 5xx, 429, network) is kept
  and tried again on its own timer (:data:`KEPT_PAUSE`, doubled up to
  :data:`KEPT_LONGEST`) until it goes out: the moderators hear once (per channel, until a
  message gets through) that it waits, a prompt above all, so nobody learns of it only
  from the reminder before the deadline;
- a channel that is gone or closed to the bot is reported (once, until it works again) and
  its messages are kept; kept messages go out after the next message that reaches the same
  channel, after :meth:`Delivery.redeliver` (a moderator's repair) or, kept in the store at
  shutdown, after a restart: with their pictures (the PNG bytes, within
  :data:`PICTURES_KEPT`, the newest first), since the map of a past moment cannot be drawn
  again from today's position.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from bot.activity import Activity
from bot.clock import Clock
from bot.publisher import (
    AttachmentRefusedError,
    ChannelGoneError,
    DeliveryError,
    ModeratorNotice,
    PrivateNotice,
    PublicNotice,
    Publisher,
    ScenePicture,
    SceneWords,
    scene_picture,
)
from rules.factions import Faction

log = logging.getLogger(__name__)

TRIES = 5  # attempts of a message before it is kept for later
FIRST_PAUSE = timedelta(seconds=2)  # doubled after each failed try
LONGEST_PAUSE = timedelta(minutes=2)
KEPT = 200  # undelivered messages kept per game (the oldest are dropped, told)
ROUNDS = 3  # how many repairs a message kept for a gone channel waits before it is dropped
KEPT_PAUSE = timedelta(minutes=1)  # a kept 5xx's own timer: the first pause, doubled...
KEPT_LONGEST = timedelta(minutes=10)  # ...up to this, until it is delivered
NO_MAP = "\n(The map could not be attached here.)"
NO_PICTURES = "\n(The pictures could not be attached here.)"  # a scene's, maybe a map too
PICTURES = ("picture", "closeup", "scene", "charts")  # a public notice's pictures, by field
MAP_ABOVE = "(The map of the message above.)"  # when a posted message cannot be edited
PICTURES_ABOVE = "(The pictures of the message above.)"  # a scene's, maybe with its map
OLD_SCENE = "battle"  # a kept message of the version before scenes: its PNG, no words kept
PICTURE_LIMIT = 10 * 2**20  # the pictures of one kept message, kept over a restart
PICTURES_KEPT = 32 * 2**20  # all the pictures of a game's kept messages (PNG bytes)

Posted = Callable[[str | None], None]
"""Told the reference of a posted prompt (None: it could not be posted)."""
Trouble = Callable[[ChannelGoneError], None]

Notice = PublicNotice | PrivateNotice | ModeratorNotice


@dataclass
class Job:
    """One message to deliver: what the publisher is asked to do, and how it went so far."""

    seq: int
    kind: str  # public, spectators, private, moderators, ask, edit, close, attach (a map)
    lane: str  # the channel it goes to: messages of a lane go out in order
    notice: Notice | None = None
    ref: str | None = None  # the prompt message an edit or close is about; a posted notice's
    text: str = ""  # how a closed prompt closed
    posted: Posted | None = None
    tries: int = 0
    rounds: int = 0
    waits: int = 0  # how many times it was kept for a 5xx (its own timer's pauses)
    told: bool = False  # the moderators heard that it waits
    due: datetime | None = None
    fallback: str | None = None  # a lane to try when this one's channel is gone
    target: Job | None = None  # the public notice whose message a map is attached to
    sending: bool = False  # handed to the publisher, no answer yet
    sent: bool = False

    def to_payload(self, room: int = 0) -> dict[str, Any] | None:
        """What survives a restart (None: nothing worth keeping, e.g. a prompt the session
        asks again, or a map for a message already posted): the text, and the pictures
        (PNG bytes, base64) if they fit in ``room`` bytes; if not, the text says the map
        could not be attached."""
        if self.kind in ("ask", "attach") or (self.notice is None and self.kind != "close"):
            return None
        data: dict[str, Any] = {"kind": self.kind, "lane": self.lane, "ref": self.ref}
        data["text"] = self.notice.text if self.notice is not None else self.text
        if isinstance(self.notice, PrivateNotice):
            data["faction"] = self.notice.faction.value
        if isinstance(self.notice, PublicNotice):
            data["game_id"] = self.notice.game_id
            if self.notice.mention is not None:
                data["mention"] = self.notice.mention.value
        pictures = self.pictures()
        if pictures and sum(map(len, pictures.values())) <= room:
            data.update({k: base64.b64encode(v).decode("ascii") for k, v in pictures.items()})
            if isinstance(self.notice, PublicNotice) and self.notice.caption:
                data["caption"] = self.notice.caption
            if isinstance(self.notice, PublicNotice) and self.notice.scene is not None:
                data["scene_words"] = asdict(self.notice.scene.words)
        elif pictures:
            data["text"] += no_pictures(self.notice)
        return data

    def pictures(self) -> dict[str, bytes]:
        """The notice's pictures by name ("picture", "closeup", "scene", "charts")."""
        notice = self.notice
        if isinstance(notice, PrivateNotice):
            return {"picture": notice.picture} if notice.picture else {}
        if not isinstance(notice, PublicNotice):
            return {}
        return {k: v for k in PICTURES if (v := getattr(notice, k))}

    @classmethod
    def from_payload(cls, seq: int, data: dict[str, Any]) -> Job:
        kind, text = str(data["kind"]), str(data["text"])
        png = {k: base64.b64decode(data[k]) for k in PICTURES if data.get(k)}
        notice: Notice | None = None
        if kind in ("public", "spectators"):
            mention = Faction(data["mention"]) if data.get("mention") else None
            notice = PublicNotice(
                text,
                game_id=int(data.get("game_id", 0)),
                mention=mention,
                caption=data.get("caption"),
                picture=png.get("picture"),
                closeup=png.get("closeup"),
                scene=_kept_scene(data),
                charts=png.get("charts"),
            )
        elif kind in ("private", "edit"):
            notice = PrivateNotice(Faction(data["faction"]), text, picture=png.get("picture"))
        elif kind == "moderators":
            notice = ModeratorNotice(text)
        return cls(seq, kind, str(data["lane"]), notice, data.get("ref"), text)


class Delivery:
    """The delivery of one game's messages (see the module's description)."""

    def __init__(
        self,
        game_id: int,
        publisher: Publisher,
        clock: Clock,
        *,
        activity: Activity | None = None,
        trouble: Trouble | None = None,
    ) -> None:
        self.game_id = game_id
        self.publisher = publisher
        self.clock = clock
        self.activity = activity or Activity()
        self.trouble = trouble
        self.kept: list[Job] = []  # undelivered, oldest first
        self.delivered = 0
        self.failures = 0  # failed attempts survived
        self.dropped = 0  # messages given up on
        self._told_dropped = False  # the moderators heard of a drop (until a repair)
        self._lanes: dict[str, deque[Job]] = {}
        self._seq = 0
        self._broken: set[str] = set()  # lanes reported gone (until a message gets through)
        self._waiting: set[str] = set()  # lanes whose kept 5xx the moderators heard of
        self._wake = asyncio.Event()
        self._idle = True
        self._went_idle = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- what the session hands over -------------------------------------------------

    def public(self, notice: PublicNotice) -> Job:
        """The table channel; returns the message's job, for :meth:`attach`."""
        return self._add("public", "table", notice)

    def spectators(self, notice: PublicNotice) -> Job:
        return self._add("spectators", "spectators", notice)

    def attach(
        self,
        posted: Job,
        picture: bytes | None,
        closeup: bytes | None = None,
        scene: ScenePicture | None = None,
        caption: str | None = None,
    ) -> None:
        """The map (and close-up, with its ``caption``), or a scene's picture (a
        :class:`~bot.render.scene.ScenePicture`, with its words), of the public notice of
        ``posted``, drawn after it was handed over: joined to it if it has not gone out yet
        (nor is going out), else attached to the posted message by an edit, after what its
        channel received first. Raises TypeError for a scene's picture without its words."""
        assert isinstance(posted.notice, PublicNotice)
        notice = replace(
            posted.notice,
            picture=picture,
            closeup=closeup,
            scene=scene_picture(scene),
            caption=caption,
        )
        if not (posted.sent or posted.sending):
            posted.notice = notice
            return
        self._add("attach", posted.lane, notice, target=posted)

    def private(self, notice: PrivateNotice) -> None:
        self._add("private", _private_lane(notice.faction), notice)

    def moderators(self, notice: ModeratorNotice, *, or_table: bool = False) -> None:
        """``or_table``: if the moderators' channel is gone, the table hears it instead."""
        self._add("moderators", "moderators", notice, fallback="table" if or_table else None)

    def ask(self, notice: PrivateNotice, posted: Posted) -> None:
        self._add("ask", _private_lane(notice.faction), notice, posted=posted)

    def edit_prompt(self, ref: str, notice: PrivateNotice) -> None:
        self._add("edit", _private_lane(notice.faction), notice, ref=ref)

    def close_prompt(self, faction: Faction, ref: str, text: str) -> None:
        self._add("close", _private_lane(faction), None, ref=ref, text=text)

    def _add(self, kind: str, lane: str, notice: Notice | None, **fields: Any) -> Job:
        self._seq += 1
        job = Job(self._seq, kind, lane, notice, **fields)
        self._lanes.setdefault(lane, deque()).append(job)
        self._wake_up()
        return job

    def _wake_up(self) -> None:
        """New work: busy from now (not only once the task runs), so that nobody sees the
        game quiet before the work is done."""
        self._wake.set()
        if self._task is not None:
            self._set_idle(False)

    # -- life cycle ----------------------------------------------------------------------

    def start(self, kept: Sequence[dict[str, Any]] = ()) -> None:
        """Start sending; ``kept``: the undelivered messages of the last run (in order)."""
        for data in kept:
            self._seq += 1
            job = Job.from_payload(self._seq, data)
            self._lanes.setdefault(job.lane, deque()).append(job)
        self._task = asyncio.create_task(self._run(), name=f"delivery-{self.game_id}")

    async def stop(self) -> list[dict[str, Any]]:
        """Stop sending; returns what is still undelivered, to keep for the next run."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.activity.mark("delivery", idle=True)
        waiting = self.kept + [job for lane in self._lanes.values() for job in lane]
        for job in waiting:  # a map whose text is still waiting is kept with it
            if job.kind == "attach" and job.target is not None and not job.target.sent:
                job.target.notice = job.notice
        waiting.sort(key=lambda job: job.seq, reverse=True)
        room, kept = PICTURES_KEPT, []
        for job in waiting:  # the newest pictures are kept first
            payload = job.to_payload(min(room, PICTURE_LIMIT))
            if payload is not None:
                room -= sum(len(v) for k, v in job.pictures().items() if k in payload)
                kept.append(payload)
        return kept[::-1]

    def redeliver(self) -> int:
        """Try every kept message again (after a repair); returns how many."""
        kept, self.kept = self.kept, []
        self._broken.clear()
        self._waiting.clear()
        self._told_dropped = False
        for job in reversed(kept):
            job.tries, job.due = 0, None
            self._lanes.setdefault(job.lane, deque()).appendleft(job)
        self._wake_up()
        return len(kept)

    async def settled(self) -> None:
        """Returns once every message handed over so far has been tried (or waits its turn
        behind one waiting to be tried again)."""
        while self._task is not None and not (self._idle and self._next_ready() is None):
            await self._went_idle.wait()

    # -- the task --------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            self._back_from_kept()
            job = self._next_ready()
            if job is None:
                await self._wait_for_work()
                continue
            self._set_idle(False)
            try:
                await self._attempt(job)
            except Exception as error:  # never let one message stop the game's delivery
                log.warning("game %d: delivering a message failed", self.game_id, exc_info=True)
                failed = DeliveryError(f"{type(error).__name__}: {error}"[:120], retryable=True)
                self._failed(job, failed)
                self._try_later(job, failed)

    def _set_idle(self, idle: bool) -> None:
        self.activity.mark("delivery", idle=idle)
        if idle and not self._idle:
            self._went_idle.set()
            self._went_idle = asyncio.Event()
        self._idle = idle

    def _next_ready(self) -> Job | None:
        now = self.clock.now()
        heads = [lane[0] for lane in self._lanes.values() if lane]
        ready = [job for job in heads if job.due is None or job.due <= now]
        return min(ready, key=lambda job: job.seq, default=None)

    def _back_from_kept(self) -> None:
        """Kept messages whose own timer is up go back to the front of their channel's
        line (oldest first), for one try each (another failure keeps them again, with a
        longer pause)."""
        now = self.clock.now()
        due = [job for job in self.kept if job.due is not None and job.due <= now]
        if not due:
            return
        self.kept = [job for job in self.kept if job not in due]
        for job in sorted(due, key=lambda job: job.seq, reverse=True):
            job.tries, job.due = TRIES - 1, None
            self._lanes.setdefault(job.lane, deque()).appendleft(job)

    async def _wait_for_work(self) -> None:
        self._wake.clear()
        dues = [lane[0].due for lane in self._lanes.values() if lane and lane[0].due]
        dues += [job.due for job in self.kept if job.due is not None]
        waits: list[asyncio.Future[Any]] = [asyncio.ensure_future(self._wake.wait())]
        if dues:
            waits.append(asyncio.ensure_future(self.clock.sleep_until(min(dues))))
        try:
            await asyncio.sleep(0)  # let the timer register before saying we are idle
            if not self._wake.is_set():
                self._set_idle(True)
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def _attempt(self, job: Job) -> None:
        job.sending = True
        try:
            ref = await self._send(job)
        except AttachmentRefusedError as refused:
            self._report(refused, job.lane + ":files")
            assert isinstance(job.notice, PublicNotice | PrivateNotice)
            note = no_pictures(job.notice)
            job.notice = replace(job.notice, picture=None, text=job.notice.text + note)
            if isinstance(job.notice, PublicNotice):
                job.notice = replace(job.notice, closeup=None, scene=None, charts=None)
            return
        except ChannelGoneError as gone:
            self._failed(job, gone)
            self._report(gone, job.lane)
            self._reroute_or_keep(job)
            return
        except DeliveryError as failed:
            self._failed(job, failed)
            self._try_later(job, failed)
            return
        finally:
            job.sending = False
        self._done(job, ref)

    async def _send(self, job: Job) -> str | None:
        publisher, game, notice = self.publisher, self.game_id, job.notice
        if job.kind == "close":
            assert job.ref is not None
            await publisher.close_prompt(game, job.ref, job.text)
            return None
        if job.kind == "attach":
            assert isinstance(notice, PublicNotice)
            await self._attach(job, notice)
            return None
        if job.kind in ("public", "spectators"):
            assert isinstance(notice, PublicNotice)
            send = publisher.public if job.lane == "table" else publisher.spectators
            return await send(game, notice)
        if job.kind == "moderators":
            assert isinstance(notice, ModeratorNotice)
            await publisher.moderators(game, notice)
            return None
        assert isinstance(notice, PrivateNotice)
        if job.kind == "ask":
            return await publisher.ask(game, notice)
        if job.kind == "edit":
            assert job.ref is not None
            await publisher.edit_prompt(game, job.ref, notice)
            return None
        await publisher.private(game, notice)
        return None

    async def _attach(self, job: Job, notice: PublicNotice) -> None:
        """A map for a message of this lane: by an edit once the message is posted; joined
        to the text when that is kept undelivered; as a message of its own after it when
        the publisher gave no reference to the posted message."""
        target = job.target
        assert target is not None
        if not target.sent:
            target.notice = notice
            return
        if target.ref is not None:
            await self.publisher.attach_map(self.game_id, target.ref, notice)
            return
        send = self.publisher.public if job.lane == "table" else self.publisher.spectators
        above = PICTURES_ABOVE if notice.scene is not None else MAP_ABOVE
        await send(self.game_id, replace(notice, text=above))

    def _failed(self, job: Job, failure: DeliveryError) -> None:
        self.failures += 1
        job.tries += 1
        log.info("game %d: %s message not delivered (try %d): %s", self.game_id, job.lane,
                 job.tries, failure.why)  # fmt: skip

    def _done(self, job: Job, ref: str | None) -> None:
        self._lanes[job.lane].popleft()
        self.delivered += 1
        job.sent = True
        if job.kind in ("public", "spectators"):
            job.ref = ref
        self._waiting.discard(job.lane)
        if job.lane in self._broken:
            self._broken.discard(job.lane)
            log.info("game %d: %s works again", self.game_id, job.lane)
        waiting = [kept for kept in self.kept if kept.lane == job.lane]
        if waiting:  # the channel works again: what it missed goes out next
            self.kept = [kept for kept in self.kept if kept.lane != job.lane]
            for kept in reversed(waiting):
                kept.tries, kept.due, kept.waits = 0, None, 0
                self._lanes[job.lane].appendleft(kept)
        if job.posted is not None:
            job.posted(ref)

    def _try_later(self, job: Job, failed: DeliveryError) -> None:
        if not failed.retryable:
            self._keep(job)
            return
        if job.tries >= TRIES:
            self._keep_for_later(job, failed)
            return
        pause = min(FIRST_PAUSE * 2 ** (job.tries - 1), LONGEST_PAUSE)
        if failed.retry_after is not None:
            pause = max(pause, timedelta(seconds=failed.retry_after))
        job.due = self.clock.now() + pause

    def _reroute_or_keep(self, job: Job) -> None:
        if job.fallback is not None and job.fallback not in self._broken:
            self._lanes[job.lane].popleft()
            assert isinstance(job.notice, ModeratorNotice)
            notice = PublicNotice(f"For the moderators: {job.notice.text}", game_id=self.game_id)
            self._add("public", job.fallback, notice)
            return
        self._keep(job)

    def _keep(self, job: Job) -> None:
        """Keep a message whose channel is gone for later (a repair, the next message
        that gets there); dropped after :data:`ROUNDS` of them."""
        self._set_aside(job)
        job.due = None
        job.rounds += 1
        if job.rounds > ROUNDS:
            self._drop(job, f"after {ROUNDS} rounds")
            return
        self._add_kept(job)

    def _keep_for_later(self, job: Job, failed: DeliveryError) -> None:
        """Keep a message that failed every try for a while (a 5xx, a 429) and try it again
        on its own timer until it goes out; the moderators hear that it waits."""
        self._set_aside(job)
        pause = min(KEPT_PAUSE * 2**job.waits, KEPT_LONGEST)
        if failed.retry_after is not None:
            pause = max(pause, timedelta(seconds=failed.retry_after))
        job.waits += 1
        job.due = self.clock.now() + pause
        self._tell_waiting(job, failed)
        self._add_kept(job)

    def _set_aside(self, job: Job) -> None:
        """Out of its channel's line (a prompt's asker hears it was not posted)."""
        if self._lanes.get(job.lane) and self._lanes[job.lane][0] is job:
            self._lanes[job.lane].popleft()
        if job.posted is not None:
            job.posted(None)

    def _add_kept(self, job: Job) -> None:
        self.kept.append(job)
        if len(self.kept) > KEPT:
            self._drop(self.kept.pop(0), f"beyond {KEPT} kept")

    def _tell_waiting(self, job: Job, failed: DeliveryError) -> None:
        """The moderators hear (once per channel, until a message gets through there, and
        once per message) that Discord refuses its messages for now, and whether a prompt
        waits among them."""
        if job.lane in self._waiting or job.lane == "moderators" or job.told:
            return
        self._waiting.add(job.lane)
        job.told = True
        what = "a prompt the player must answer waits" if job.kind == "ask" else "messages wait"
        text = (
            f"Discord has refused Mentat's messages to {_lane_words(job.lane)} for a while "
            f"({failed.why}): {what} there. Mentat tries again by itself every few minutes; "
            "nothing is lost. If it lasts, `/mod extend` gives the player the time lost."
        )
        self.moderators(ModeratorNotice(text), or_table=job.lane != "table")

    def _drop(self, job: Job, why: str) -> None:
        """Give up on a message: logged, and told to the moderators (once until the next
        repair: their own channel may be the one that is gone, so the table hears it then)."""
        log.warning("game %d: dropped an undelivered %s message (%s)", self.game_id, job.lane, why)
        self.dropped += 1
        if self._told_dropped:
            return
        self._told_dropped = True
        text = (
            f"Mentat gave up on a message for {_lane_words(job.lane)} that it could not "
            f"deliver ({why}); others may follow. Nothing is lost from the game itself (its "
            "log keeps every action): `/mod channels` repairs the channels."
        )
        self.moderators(ModeratorNotice(text), or_table=job.lane != "table")

    def _report(self, gone: ChannelGoneError, lane: str) -> None:
        """Tell the session (once per lane until it works again) that a channel is gone."""
        if lane in self._broken:
            return
        self._broken.add(lane)
        log.warning("game %d: cannot post in %s: %s", self.game_id, gone.where, gone.why)
        if self.trouble is not None:
            self.trouble(gone)


def no_pictures(notice: Notice | None) -> str:
    """The note that says a message's pictures could not be attached."""
    more = isinstance(notice, PublicNotice) and (notice.scene or notice.charts) is not None
    return NO_PICTURES if more else NO_MAP


def _kept_scene(data: dict[str, Any]) -> ScenePicture | None:
    """The scene's picture of a kept public message, with its words; one kept by the
    version before scenes has its PNG alone, under its name."""
    if data.get("scene"):
        words = SceneWords(**data["scene_words"])
        return ScenePicture(base64.b64decode(data["scene"]), words)
    if data.get(OLD_SCENE):
        return ScenePicture(base64.b64decode(data[OLD_SCENE]), SceneWords(OLD_SCENE, "", "", ""))
    return None


def _private_lane(faction: Faction) -> str:
    return f"private:{faction.value}"


def _lane_words(lane: str) -> str:
    """A lane as players call it: "the table channel", "the Atreides private channel"."""
    if lane.startswith("private:"):
        return f"the {Faction(lane.split(':', 1)[1]).label} private channel"
    return f"the {lane} channel"
