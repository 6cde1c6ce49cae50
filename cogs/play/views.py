"""Buttons: the Confirm / Cancel of a preview, and the persistent answers to prompts."""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import replace
from typing import Any

import discord

from bot.publisher import PrivateNotice
from bot.session.session import SessionError
from bot.words.narrate import where
from cogs.common import acknowledge_click, app_of, key_of, roles_of
from cogs.errors import reply, report
from cogs.play.bids import bid_buttons
from cogs.play.clicks import submit_click
from rules.actions import Advise, AnswerTruthtrance, CallTraitor, FactionAction, Pass
from rules.board import POLAR_SINK
from rules.factions import Faction
from rules.game import GameState
from rules.model import PromptKind
from rules.turn_flow import STEP_NAMES

log = logging.getLogger(__name__)

PREVIEW_TIMEOUT_S = 600


class PreviewView(discord.ui.View):
    """A preview's buttons: live while the bot's ``live`` set holds its nonce (a click on
    a preview no longer live is answered as stale), for PREVIEW_TIMEOUT_S."""

    def __init__(self, *, live: set[str]) -> None:
        super().__init__(timeout=PREVIEW_TIMEOUT_S)
        self.nonce = secrets.token_hex(8)
        self.live = live
        live.add(self.nonce)

    def stop(self) -> None:
        self.live.discard(self.nonce)
        super().stop()

    async def on_timeout(self) -> None:
        self.live.discard(self.nonce)


class ConfirmActionView(PreviewView):
    """Under an ephemeral preview: Confirm submits the action, Cancel drops it."""

    def __init__(
        self,
        game_id: int,
        action: FactionAction,
        user_id: int,
        *,
        ally_pays_given: int | None = None,
        live: set[str],
    ) -> None:
        """``live``: the bot's set of previews that a live view answers."""
        super().__init__(live=live)
        self.confirm.custom_id = f"{PREVIEW_ID}confirm:{self.nonce}"
        self.cancel.custom_id = f"{PREVIEW_ID}cancel:{self.nonce}"
        self.game_id = game_id
        self.action = action
        self.user_id = user_id
        self.ally_pays_given = ally_pays_given  # a shipment's ally_pays as the user named it

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.success)
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        try:
            await acknowledge_click(interaction)
            app = app_of(interaction)
            await app.require_player(
                self.game_id,
                interaction.user.id,
                self.action.faction,
                roles=roles_of(interaction),
            )
            moderator = await app.is_moderator(
                self.game_id, interaction.user.id, roles_of(interaction)
            )
            await app.submit(
                self.game_id,
                self.action,
                actor=interaction.user.id,
                key=key_of(interaction),
                check=lambda: app.recheck_ally_payment(
                    self.game_id, self.action, self.ally_pays_given, moderator=moderator
                ),
            )
        except Exception as error:
            await report(interaction, error)
            return
        self.stop()
        await close_preview(interaction, "Done: submitted.")

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        self.stop()
        await acknowledge_click(interaction)
        await close_preview(interaction, "Cancelled: nothing was done.")


PREVIEW_ID = "mentat-preview:"
STALE_PREVIEW = (
    "This preview has closed (it was answered, it timed out, or Mentat restarted): "
    "nothing was done by this click. Use the command again for a new preview."
)


async def close_preview(interaction: discord.Interaction, text: str) -> None:
    """The preview says how it ended and loses its buttons; if that edit fails, the
    player still hears it (and a later click on the old buttons is answered as stale)."""
    try:
        await interaction.edit_original_response(content=text, view=None)
    except discord.HTTPException as error:
        log.warning("a preview could not be closed: %s", error)
        await reply(interaction, text)


async def answer_stale_preview(interaction: discord.Interaction) -> None:
    """Every click on a preview button gets an answer: one no live view owns is stale."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, object] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if not custom_id.startswith(PREVIEW_ID):
        return
    live: set[str] = getattr(interaction.client, "live_previews", set())
    if custom_id.rsplit(":", 1)[-1] in live or interaction.response.is_done():
        return
    await reply(interaction, STALE_PREVIEW)


LABELS = {
    "pass": "Pass",
    "decline": "Decline",
    "karama_cancel": "Cancel it with Karama",
    "karama_stop_shipment": "Stop the shipment (Karama)",
    "advise_sink": "Advise to the Polar Sink",
    "advise_here": "Advise to the shipment's territory",
    "flip": "Flip",
    "guild_now": "Act now",
    "guild_delay": "Delay",
    "hajr": "Play Hajr",
    "karama_buy": "Take it with Karama",
    "call_traitor": "Call a traitor",
    "truthtrance_yes": "Yes",
    "truthtrance_no": "No",
}
REPLIES = {
    "pass": "Passed",
    "decline": "Declined",
    "karama_cancel": "Cancelled with Karama",
    "karama_stop_shipment": "Shipment stopped with Karama",
    "advise_sink": "Advisor sent to the Polar Sink",
    "advise_here": "Advisor sent",
    "flip": "Flipped",
    "guild_now": "You act now",
    "guild_delay": "Delayed",
    "hajr": "Hajr played",
    "karama_buy": "Card taken with Karama",
    "call_traitor": "Traitor called",
    "truthtrance_yes": "You answered Yes; the table sees it",
    "truthtrance_no": "You answered No; the table sees it",
}
"""What a click answers, in the button's own words ("Declined" for "Decline")."""
ADVISE_CHOICES = ("advise_sink", "advise_here")
BUTTONS = {
    "pass": ("pass",),
    "decline": ("decline",),
    "karama_cancel": ("karama_cancel",),
    "karama_stop_shipment": ("karama_stop_shipment",),
    "advise": ("advise_sink", "advise_here"),
    "flip": ("flip",),
    "guild_now": ("guild_now",),
    "guild_delay": ("guild_delay",),
    "hajr": ("hajr",),
    "karama_buy": ("karama_buy",),
    "call_traitor": ("call_traitor",),
    "truthtrance_answer": ("truthtrance_yes", "truthtrance_no"),
}


class PromptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mentat:(?P<game>\d+):(?P<faction>[a-z_]+):(?P<choice>[a-z_]+):(?P<kind>[a-z_-]+)"
    r"(?::(?P<token>\d+))?",
):
    """One answer to a session prompt, bound to that prompt (or step) by its token.

    Its custom id carries everything, so it keeps working after a restart; once the
    prompt closed, a click is refused and the message says how it closed. (Buttons
    from before tokens existed carry none: they are always refused.)
    """

    def __init__(
        self,
        game_id: int,
        faction: Faction,
        choice: str,
        kind: str | None,
        token: str,
        label: str | None = None,
    ) -> None:
        self.game_id, self.faction, self.choice, self.kind = game_id, faction, choice, kind
        self.token = token
        super().__init__(
            discord.ui.Button(
                label=(label or LABELS.get(choice, "Answer"))[:80],
                style=discord.ButtonStyle.secondary
                if choice in ("pass", "decline")
                else discord.ButtonStyle.primary,
                custom_id=f"mentat:{game_id}:{faction.value}:{choice}:{kind or '-'}:{token}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PromptButton:
        kind = match["kind"]
        return cls(
            int(match["game"]),
            Faction(match["faction"]),
            match["choice"],
            None if kind == "-" else kind,
            match["token"] or "",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        said = ""

        def action_of(state: GameState) -> FactionAction:
            nonlocal said
            action = answer(state, self.faction, self.choice, self.kind)
            said = reply_for(state, self.choice, action)
            return action

        result = await submit_click(interaction, self.game_id, self.faction, self.token, action_of)
        if result is None:
            return
        if result.kept:  # kept by the session: a window runs its time first
            await reply(interaction, f"Noted: {LABELS.get(self.choice, 'your answer')}. {KEPT}")
            return
        await reply(interaction, f"{said}.")


KEPT = "Only you know; the open window still runs its time, and your answer stands until then."
CHOICE_ACTIONS = {
    "advise_sink": "advise",
    "advise_here": "advise",
    "truthtrance_yes": "truthtrance_answer",
    "truthtrance_no": "truthtrance_answer",
}
TRUTHTRANCE_ANSWERS = {"truthtrance_yes": "yes", "truthtrance_no": "no"}


def answer(state: GameState, faction: Faction, choice: str, kind: str | None) -> FactionAction:
    """The engine's legal action a prompt button stands for, at the time of the click
    (the button's token has made sure it is still the prompt it was made for).

    Its Pass names the step the faction is in, so a repeated click is refused
    (1.06.00); its Decline is the engine's decline of that prompt.
    """
    if kind is None:
        options = tuple(state.legal_actions(faction))
    else:  # a later stage's too: the session keeps that answer until its stage opens
        pending = [p for stage in state.phase.stages for p in stage]
        prompts = [p for p in pending if p.kind.value == kind]
        options = tuple(a for p in prompts for a in state.answers(p, faction))
    name = CHOICE_ACTIONS.get(choice, choice)
    found = list(dict.fromkeys(a for a in options if a.name == name and _fits(choice, a)))
    said = LABELS.get(choice, "This answer")
    if not found and choice == "call_traitor":  # asked of every side: the engine refuses
        return CallTraitor(faction)
    if not found:
        raise SessionError(f"“{said}” is not open to {faction.label} now")
    if len(found) > 1:
        raise SessionError(f"“{said}” has several targets: use the command")
    turn = state.phase.turn
    if isinstance(found[0], Pass) and turn is not None and turn.faction == faction:
        return replace(found[0], step=STEP_NAMES[turn.step])
    return found[0]


def reply_for(state: GameState, choice: str, action: FactionAction) -> str:
    """The answer to a click, in the button's words: "Declined", "Advisor sent to
    Arrakeen (sector 9)"."""
    if choice == "advise_here" and isinstance(action, Advise):
        sector = next((p.sector for p in state.open_prompts() if p.kind is PromptKind.ADVISE), None)
        return f"Advisor sent to {where(action.to, sector)}"
    return REPLIES.get(choice, "Done")


def _fits(choice: str, action: FactionAction) -> bool:
    """The two advise buttons: the Polar Sink, or the shipment's territory."""
    if choice == "advise_sink":
        return isinstance(action, Advise) and action.to == POLAR_SINK
    if choice == "advise_here":
        return isinstance(action, Advise) and action.to != POLAR_SINK
    if choice in TRUTHTRANCE_ANSWERS:  # Truthtrance: the Yes button, the No button
        wanted = TRUTHTRANCE_ANSWERS[choice]
        return isinstance(action, AnswerTruthtrance) and action.answer == wanted
    return True


def prompt_view(game_id: int, notice: PrivateNotice) -> discord.ui.View | None:
    """The buttons for a faction's private notice (None when it asks nothing); a notice
    with several prompts has each answer bound to its own prompt."""
    kinds = notice.prompts or (notice.prompt,) * len(notice.choices)
    several = len(set(kinds)) > 1
    names = [(n, k) for n, k in zip(notice.choices, kinds, strict=True) if not (k and n == "pass")]
    given = dict(notice.labels)  # the advisor's places open now, in words
    choices = [
        (c, k)
        for name, k in names
        for c in BUTTONS.get(name, ())
        if c not in ADVISE_CHOICES or not given or c in given
    ]
    if (not choices and not notice.raises) or notice.token is None:
        return None
    view = discord.ui.View(timeout=None)
    for raise_button in bid_buttons(game_id, notice.faction, notice.raises, notice.token):
        view.add_item(raise_button)
    for choice, kind in dict.fromkeys(choices):
        label = given.get(choice)
        if several and choice == "decline":  # the other answers name their prompt
            label = f"{LABELS[choice]}: {KIND_WORDS.get(kind or '', kind)}"
        button = PromptButton(game_id, notice.faction, choice, kind, notice.token, label)
        view.add_item(button)
    return view


KIND_WORDS = {
    "karama": "Karama",
    "guild_stop": "stop",
    "advise": "advisor",
    "intrusion": "intrusion",
    "wartime": "wartime",
    "guild_timing": "timing",
}
"""The prompt a button answers, when one message asks several (e.g. "Decline: advisor")."""
