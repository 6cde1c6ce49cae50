"""Secret windows and the prompts one action raises, offered together (docs/windows.md).

A mixin of :class:`bot.session.session.PhaseSession`. The stages of prompts pending after an
action (a Karama window and the Guild's stop, then the Bene Gesserit's advisor...) make
one *offer*: each faction that has something to answer in any of them gets one message
with all its choices, and answers them in parallel. An answer to a later stage is kept
and applied when its stage opens.

A *secret* stage (Karama windows, the Guild's once-a-game stop) is a window: only the
factions that can act in it are asked (a Karama card, the Bene Gesserit's worthless card in
the advanced game, the Guild's unused stop), it runs the game's fixed window time whether
or not anyone can act, and it closes early only when someone acts (a Karama played is
public anyway). A "no" to it is recorded privately and never reaches the engine, so the
window's length and end say nothing about who holds what.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.orders import StandingOrders, order_answer, standing_answer
from bot.publisher import PrivateNotice, PublicNotice
from bot.session.autopilot import Autopilot
from bot.session.prompts import PromptMessages
from bot.settings import Offer, Timing
from bot.waits import PROMPT, Wait, game_over
from bot.words import narrate
from bot.words.common import may_do
from bot.words.refusals import SessionError
from rules.actions import Action, Advise, Decline, FactionAction, action_from_dict, action_to_dict
from rules.board import POLAR_SINK
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.model import Prompt, PromptKind
from rules.turn_flow import PROMPT_ANSWERS
from rules.view import PublicPrompt

SECRET = frozenset({PromptKind.KARAMA, PromptKind.GUILD_STOP})
"""The prompts whose very asking would tell who holds a card."""
Cause = Callable[[Faction], str]


def prompt_id(prompt: Prompt) -> str:
    return f"{prompt.kind.value}/{prompt.subject}/{prompt.ability}/{prompt.territory}"


def is_window(stage: tuple[Prompt, ...]) -> bool:
    """A secret stage: it runs the window time and asks only who can act in it."""
    return any(p.kind in SECRET for p in stage)


def can_act(state: GameState, prompt: Prompt, faction: Faction) -> bool:
    """Has ``faction`` an answer to ``prompt`` besides its decline?"""
    return any(not isinstance(a, Decline) for a in state.answers(prompt, faction))


def pending(state: GameState) -> list[tuple[int, Prompt]]:
    """Every pending prompt with the index of its stage (0: the open stage)."""
    return [(i, p) for i, stage in enumerate(state.phase.stages) for p in stage]


def _key(faction: Faction, prompt: Prompt) -> str:
    return f"{faction.value}|{prompt_id(prompt)}"


class WindowControls:
    """What the session provides is declared here; see the module's docstring."""

    state: GameState | None
    clock: Any
    timing: Timing
    orders: dict[Faction, StandingOrders]
    prompts: PromptMessages
    offer: Offer
    autopilot: Autopilot
    _wait: Wait | None
    _deadline: datetime | None
    _reminded: bool
    _seq: int

    def _ask_changed(self, old: Wait, new: Wait) -> None:
        raise NotImplementedError

    def current_wait(self) -> Wait | None:
        raise NotImplementedError

    def check_open(self, faction: Faction, token: str) -> None:
        raise NotImplementedError

    def _check_running(self) -> None:
        raise NotImplementedError

    async def _save_settings(self) -> None:
        raise NotImplementedError

    async def _follow_orders_and_wait(self, cause: Cause) -> None:
        raise NotImplementedError

    # -- who is asked ---------------------------------------------------------------

    def _offer_wait(self, wait: Wait | None) -> Wait | None:
        """The wait as the session runs it: the factions with something to answer in the
        whole offer, and what each is asked (so a changed part shows in its message)."""
        if wait is None or wait.kind != PROMPT or self.state is None:
            return wait
        asked: dict[Faction, list[str]] = {}
        for _, prompt in pending(self.state):
            for faction in prompt.waiting_on():
                if self._asks(prompt, faction):
                    asked.setdefault(faction, []).append(prompt_id(prompt))
        questions = tuple(",".join(ids) for ids in asked.values())
        return replace(wait, factions=tuple(asked), questions=questions)

    def _asks(self, prompt: Prompt, faction: Faction) -> bool:
        """Is ``faction`` asked about ``prompt``: not answered, declined or kept yet, not
        answered by its standing orders, and (a secret one) able to act in it?"""
        assert self.state is not None
        key = _key(faction, prompt)
        if key in self.offer.declined or key in self.offer.kept:
            return False
        orders = self.orders.get(faction)
        if orders is not None and order_answer(self.state, faction, prompt, orders) is not None:
            return False
        return prompt.kind not in SECRET or can_act(self.state, prompt, faction)

    def offered(self, faction: Faction) -> list[tuple[Prompt, bool]]:
        """The prompts ``faction`` is asked about now, each with whether its stage is open."""
        if self.state is None or self.state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
            return []
        return [
            (p, i == 0)
            for i, p in pending(self.state)
            if faction in p.waiting_on() and self._asks(p, faction)
        ]

    # -- deadlines --------------------------------------------------------------------

    def _continues_offer(self, wait: Wait | None) -> bool:
        """Is ``wait`` still the current offer (its prompts all offered together)?"""
        if wait is None or wait.kind != PROMPT or self.state is None or not self.offer.prompts:
            return False
        if self._wait is None or self._wait.kind != PROMPT:
            return False
        return all(prompt_id(p) in self.offer.prompts for _, p in pending(self.state))

    def _continue_offer(self, wait: Wait) -> bool:
        """A new stage of the same offer: the same messages (their changed parts shown),
        a new deadline. False: the caller starts a new wait and asks."""
        if not self._continues_offer(wait):
            return False
        old, self._wait = self._wait, wait
        now = self.clock.now()
        self._deadline = self._stage_deadline(now)
        self._reminded = self._deadline - self.timing.reminder <= now
        assert old is not None
        self._ask_changed(old, wait)
        return True

    def _new_offer(self, wait: Wait) -> None:
        """A new wait: prompts pending make a new offer, with its deadline (no reminder
        when it would come before the wait began)."""
        if wait.kind != PROMPT or self.state is None:
            self.offer = Offer()
            return
        now = self.clock.now()
        ids = tuple(prompt_id(p) for _, p in pending(self.state))
        kept, declined = self._answers_still_pending(ids)
        self.offer = Offer(prompts=ids, started=now, kept=kept, declined=declined)
        self._deadline = self._stage_deadline(now)
        self._reminded = self._deadline - self.timing.reminder <= now

    def _answers_still_pending(
        self, ids: tuple[str, ...]
    ) -> tuple[dict[str, Mapping[str, Any]], frozenset[str]]:
        """The answers kept and the "no"s of the last offer whose prompts are still pending:
        a new offer (the advisor's own window, for one) does not lose them."""
        kept = {k: v for k, v in self.offer.kept.items() if k.split("|", 1)[1] in ids}
        declined = frozenset(k for k in self.offer.declined if k.split("|", 1)[1] in ids)
        return kept, declined

    def _stage_deadline(self, now: datetime) -> datetime:
        """A window: its fixed time from when it opens (kept while it stays open). Any
        other stage: the prompt time from when the offer opened (at least a window's)."""
        assert self.state is not None
        stage = self.state.open_prompts()
        if is_window(stage):
            ids = "|".join(prompt_id(p) for p in stage)
            if self.offer.window == ids and self._deadline is not None:
                return self._deadline
            self.offer = replace(self.offer, window=ids)
            return now + self.timing.window
        # the window is over: if an undo opens it again, it runs its whole time again
        self.offer = replace(self.offer, window="")
        started = self.offer.started or now
        return max(started + self.timing.prompt, now + self.timing.window)

    def window_line(self, notice: PublicNotice) -> PublicNotice:
        """A public announcement while a window is open says when it closes; never who may
        answer (every faction sees the same words, whoever holds a card)."""
        if self.state is None or not is_window(self.state.open_prompts()):
            return notice
        ids = "|".join(prompt_id(p) for p in self.state.open_prompts())
        end = self._deadline if self.offer.window == ids else None
        end = end or self.clock.now() + self.timing.window
        stamp = int(end.timestamp())
        line = f"The window closes <t:{stamp}:R> (<t:{stamp}:t>)."
        return replace(notice, text=f"{notice.text}\n{line}")

    # -- answers ----------------------------------------------------------------------

    def _standing_answer(self) -> FactionAction | None:
        """An answer kept for the stage now open, else a standing order's answer that may
        be given now (none to a later stage but its decline; no decline of a window)."""
        state = self.state
        assert state is not None
        if game_over(state):
            return None
        open_ids = {prompt_id(p): p for p in state.open_prompts()}
        for key, raw in list(self.offer.kept.items()):
            faction, pid = key.split("|", 1)
            prompt = open_ids.get(pid)
            if prompt is None or Faction(faction) not in prompt.waiting_on():
                continue
            kept = dict(self.offer.kept)
            del kept[key]
            self.offer = replace(self.offer, kept=kept)
            action = action_from_dict(raw)
            if isinstance(action, FactionAction) and state.is_legal(action):
                return action
        for faction, orders in self.orders.items():
            if faction in state.factions:
                answer = standing_answer(state, faction, orders, skip=self._not_now)
                if answer is not None:
                    return answer
        return self.autopilot.answer(state, self._not_now)  # factions on autopilot

    def _not_now(self, prompt: Prompt, answer: FactionAction) -> bool:
        assert self.state is not None
        if isinstance(answer, Decline):
            return prompt.kind in SECRET  # a window runs its time
        return prompt not in self.state.open_prompts()  # applied when its stage opens

    async def _keep_answer(self, action: FactionAction, token: str | None) -> bool:
        """A decline of a window, or an answer to a later stage of the offer (its decline
        too): recorded privately (True), the window left to run; anything else goes to the
        engine."""
        state = self.state
        if state is None or state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
            return False
        faction = action.faction
        found = [
            (i, p) for i, p in pending(state) if faction in p.waiting_on() and _answers(action, p)
        ]
        if isinstance(action, Decline):  # a window's, or a later stage's (the advisor's)
            found = [(i, p) for i, p in found if p.kind in SECRET or i > 0]
        else:
            found = [(i, p) for i, p in found if i > 0 and action in state.answers(p, faction)]
        if not found:
            return False
        if token is not None:
            self.check_open(faction, token)
        self._check_running()
        keys = {_key(faction, p) for _, p in found}
        if not keys - self.offer.declined - set(self.offer.kept):
            # the faction's other choices stay open: its message is not stale, so not closed
            raise SessionError("you already answered that; your first answer stands")
        if _says_no_to_a_window(action):
            self.offer = replace(self.offer, declined=self.offer.declined | keys)
        else:
            kept = {**self.offer.kept, _key(faction, found[0][1]): action_to_dict(action)}
            self.offer = replace(self.offer, kept=kept)
        await self._follow_orders_and_wait(_kept_by(action))
        return True


def _kept_by(action: FactionAction) -> Cause:
    """How a message closed when its faction's last answer was kept by the session."""
    said = narrate.closed_by(action)

    def how(faction: Faction) -> str:
        if faction is not action.faction:
            return said(faction)
        if _says_no_to_a_window(action):
            return "you declined (the window still runs its time)"
        return "your answer is kept, and applies when its turn comes"

    return how


def _says_no_to_a_window(action: FactionAction) -> bool:
    """A decline of a secret window: kept as a "no", never sent to the engine (any other
    answer kept, a later stage's decline too, is applied when its stage opens)."""
    return isinstance(action, Decline) and action.prompt in {k.value for k in SECRET}


def _answers(action: Action, prompt: Prompt) -> bool:
    """Could ``action`` be an answer to ``prompt`` (by its kind)?"""
    if isinstance(action, Decline):
        return action.prompt == prompt.kind.value
    return prompt.kind in PROMPT_ANSWERS.get(type(action), frozenset())


def offer_prompt(
    state: GameState,
    faction: Faction,
    offered: list[tuple[Prompt, bool]],
    token: str | None,
    deadline: str,
) -> PrivateNotice:
    """One message with every choice ``faction`` has in the offer: for each prompt, its
    answers (a later stage's are kept and applied when it opens)."""
    mine = state.view_for(faction)
    lines = [narrate.describe_wait(mine.public)]
    choices: list[str] = []
    kinds: list[str] = []
    for prompt, now in offered:
        names = list(dict.fromkeys(a.name for a in state.answers(prompt, faction)))
        when = "" if now else " (when it opens; your answer is kept until then)"
        lines.append(f"• {narrate.describe_prompt(public_prompt(prompt))}{when}")
        choices += names
        kinds += [prompt.kind.value] * len(names)
    lines.append(
        f"{may_do(dict.fromkeys(choices))} You hold {mine.spice} spice. Deadline: {deadline}."
    )
    first = offered[0][0].kind.value if offered else None
    return PrivateNotice(
        faction,
        "\n".join(lines),
        prompt=first,
        choices=tuple(choices),
        token=token,
        labels=_advise_labels(state, faction, [p for p, _ in offered]),
        prompts=tuple(kinds),
    )


def _advise_labels(
    state: GameState, faction: Faction, offered: list[Prompt]
) -> tuple[tuple[str, str], ...]:
    """The advisor's buttons, one for each place open to it (its stage open or not)."""
    found: list[tuple[str, str]] = []
    for prompt in offered:
        if prompt.kind is not PromptKind.ADVISE:
            continue
        for action in state.answers(prompt, faction):
            if isinstance(action, Advise) and action.to == POLAR_SINK:
                found.append(("advise_sink", "Advise to the Polar Sink"))
            elif isinstance(action, Advise):
                found.append(
                    ("advise_here", f"Advise to {narrate.where(action.to, prompt.sector)}")
                )
    return tuple(dict.fromkeys(found))


def public_prompt(prompt: Prompt) -> PublicPrompt:
    ability = prompt.ability.value if prompt.ability else None
    return PublicPrompt(
        prompt.kind.value,
        prompt.responders,
        prompt.subject,
        ability,
        prompt.territory,
        prompt.sector,
    )
