"""Secret windows and the prompts one action raises, offered together (docs/windows.md).

:class:`Windows` is the session's part for them. The stages of prompts pending after an
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
from functools import partial
from typing import Any

from bot.clock import Clock
from bot.orders import StandingOrders, order_answer, standing_answer
from bot.publisher import Answer, PrivateNotice, PublicNotice
from bot.session.autopilot import Autopilot
from bot.settings import Offer, Timing
from bot.waits import PROMPT, Wait, game_over
from bot.words import narrate
from bot.words.common import may_do
from bot.words.prompt_buttons import buttons, decline_naming
from bot.words.refusals import SessionError
from rules.actions import (
    Action,
    Decline,
    FactionAction,
    Pass,
    action_from_dict,
    action_to_dict,
)
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


class Windows:
    """The offer open now (:class:`bot.settings.Offer`): who is asked about which of its
    prompts, its deadlines, and the answers kept for later stages or as a window's "no"."""

    def __init__(
        self,
        *,
        state: Callable[[], GameState | None],
        orders: Callable[[], Mapping[Faction, StandingOrders]],
        autopilot: Autopilot,
        clock: Clock,
        timing: Timing,
    ) -> None:
        self.offer = Offer()  # the prompts offered together now
        self._state = state
        self._orders = orders  # each faction's standing orders
        self._autopilot = autopilot
        self._clock = clock
        self._timing = timing

    # -- who is asked ---------------------------------------------------------------

    def wait_of(self, wait: Wait | None) -> Wait | None:
        """The wait as the session runs it: the factions with something to answer in the
        whole offer, and what each is asked (so a changed part shows in its message)."""
        state = self._state()
        if wait is None or wait.kind != PROMPT or state is None:
            return wait
        asked: dict[Faction, list[str]] = {}
        for _, prompt in pending(state):
            for faction in prompt.waiting_on():
                if self._asks(state, prompt, faction):
                    asked.setdefault(faction, []).append(prompt_id(prompt))
        questions = tuple(",".join(ids) for ids in asked.values())
        return replace(wait, factions=tuple(asked), questions=questions)

    def _asks(self, state: GameState, prompt: Prompt, faction: Faction) -> bool:
        """Is ``faction`` asked about ``prompt``: not answered, declined or kept yet, not
        answered by its standing orders, and (a secret one) able to act in it?"""
        key = _key(faction, prompt)
        if key in self.offer.declined or key in self.offer.kept:
            return False
        orders = self._orders().get(faction)
        if orders is not None and order_answer(state, faction, prompt, orders) is not None:
            return False
        return prompt.kind not in SECRET or can_act(state, prompt, faction)

    def offered(self, faction: Faction) -> list[tuple[Prompt, bool]]:
        """The prompts ``faction`` is asked about now, each with whether its stage is open."""
        state = self._state()
        if state is None or state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
            return []
        return [
            (p, i == 0)
            for i, p in pending(state)
            if faction in p.waiting_on() and self._asks(state, p, faction)
        ]

    # -- deadlines --------------------------------------------------------------------

    def continues(self, wait: Wait | None, asked: Wait | None) -> bool:
        """Is ``wait`` still the offer of the wait ``asked`` (its prompts all offered
        together): a new stage of it keeps its messages, with the next stage's deadline
        (:meth:`stage_deadline`)."""
        state = self._state()
        if wait is None or wait.kind != PROMPT or state is None or not self.offer.prompts:
            return False
        if asked is None or asked.kind != PROMPT:
            return False
        return all(prompt_id(p) in self.offer.prompts for _, p in pending(state))

    def new_offer(self, wait: Wait, current: datetime | None) -> datetime | None:
        """A new wait: prompts pending make a new offer; returns its deadline (None: not
        an offer, the wait keeps the step's deadline)."""
        state = self._state()
        if wait.kind != PROMPT or state is None:
            self.offer = Offer()
            return None
        now = self._clock.now()
        ids = tuple(prompt_id(p) for _, p in pending(state))
        kept, declined = self._answers_still_pending(ids)
        self.offer = Offer(prompts=ids, started=now, kept=kept, declined=declined)
        return self.stage_deadline(now, current)

    def _answers_still_pending(
        self, ids: tuple[str, ...]
    ) -> tuple[dict[str, Mapping[str, Any]], frozenset[str]]:
        """The answers kept and the "no"s of the last offer whose prompts are still pending:
        a new offer (the advisor's own window, for one) does not lose them."""
        kept = {k: v for k, v in self.offer.kept.items() if k.split("|", 1)[1] in ids}
        declined = frozenset(k for k in self.offer.declined if k.split("|", 1)[1] in ids)
        return kept, declined

    def stage_deadline(self, now: datetime, current: datetime | None) -> datetime:
        """A window: its fixed time from when it opens (``current`` kept while it stays
        open). Any other stage: the prompt time from when the offer opened (at least a
        window's)."""
        state = self._state()
        assert state is not None
        stage = state.open_prompts()
        if is_window(stage):
            ids = "|".join(prompt_id(p) for p in stage)
            if self.offer.window == ids and current is not None:
                return current
            self.offer = replace(self.offer, window=ids)
            return now + self._timing.window
        # the window is over: if an undo opens it again, it runs its whole time again
        self.offer = replace(self.offer, window="")
        started = self.offer.started or now
        return max(started + self._timing.prompt, now + self._timing.window)

    def window_line(self, notice: PublicNotice, current: datetime | None) -> PublicNotice:
        """A public announcement while a window is open says when it closes (``current``:
        the deadline now); never who may answer (every faction sees the same words,
        whoever holds a card)."""
        state = self._state()
        if state is None or not is_window(state.open_prompts()):
            return notice
        ids = "|".join(prompt_id(p) for p in state.open_prompts())
        end = current if self.offer.window == ids else None
        end = end or self._clock.now() + self._timing.window
        stamp = int(end.timestamp())
        line = f"The window closes <t:{stamp}:R> (<t:{stamp}:t>)."
        return replace(notice, text=f"{notice.text}\n{line}")

    # -- answers ----------------------------------------------------------------------

    def standing_answer(self) -> FactionAction | None:
        """An answer kept for the stage now open, else a standing order's answer that may
        be given now (none to a later stage but its decline; no decline of a window), else
        the default of a faction on autopilot."""
        state = self._state()
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
        not_now = partial(_not_now, state)
        for faction, orders in self._orders().items():
            if faction in state.factions:
                answer = standing_answer(state, faction, orders, skip=not_now)
                if answer is not None:
                    return answer
        return self._autopilot.answer(state, not_now)  # factions on autopilot

    def keep(self, action: FactionAction, check: Callable[[], None]) -> Cause | None:
        """A decline of a window, or an answer to a later stage of the offer (its decline
        too): recorded privately, the window left to run; returns how the prompts it
        answered closed. None: anything else, for the engine. ``check`` refuses by raising
        (the prompt closed, the game paused) before anything is kept."""
        state = self._state()
        if state is None or state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
            return None
        faction = action.faction
        found = [
            (i, p) for i, p in pending(state) if faction in p.waiting_on() and _answers(action, p)
        ]
        if isinstance(action, Decline):  # a window's, or a later stage's (the advisor's)
            found = [(i, p) for i, p in found if p.kind in SECRET or i > 0]
        else:
            found = [(i, p) for i, p in found if i > 0 and action in state.answers(p, faction)]
        if not found:
            return None
        check()
        keys = {_key(faction, p) for _, p in found}
        if not keys - self.offer.declined - set(self.offer.kept):
            # the faction's other choices stay open: its message is not stale, so not closed
            raise SessionError("you already answered that; your first answer stands")
        if _says_no_to_a_window(action):
            self.offer = replace(self.offer, declined=self.offer.declined | keys)
        else:
            kept = {**self.offer.kept, _key(faction, found[0][1]): action_to_dict(action)}
            self.offer = replace(self.offer, kept=kept)
        return _kept_by(action)


def _not_now(state: GameState, prompt: Prompt, answer: FactionAction) -> bool:
    """A standing order's answer that may not be given now: a window's decline (it runs its
    time), or an answer to a later stage (applied when its stage opens)."""
    if isinstance(answer, Decline):
        return prompt.kind in SECRET
    return prompt not in state.open_prompts()


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
    names: list[str] = []
    answers: tuple[Answer, ...] = ()
    for prompt, now in offered:  # each prompt's buttons together, its decline last
        found = [a for a in state.answers(prompt, faction) if not isinstance(a, Pass)]
        when = "" if now else " (when it opens; your answer is kept until then)"
        lines.append(f"• {narrate.describe_prompt(public_prompt(prompt))}{when}")
        names += [a.name for a in found]
        answers += tuple(a for a in buttons(state, found) if a.key not in {b.key for b in answers})
    lines.append(
        f"{may_do(dict.fromkeys(names))} You hold {mine.spice} spice. Deadline: {deadline}."
    )
    if len({p.kind for p, _ in offered}) > 1:  # each decline names its prompt
        answers = tuple(map(decline_naming, answers))
    return PrivateNotice(faction, "\n".join(lines), answers=answers, token=token)


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
