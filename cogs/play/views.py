"""Buttons: the Confirm / Cancel of a preview, and the persistent answers to prompts."""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

import discord

from bot.publisher import Answer, PrivateNotice
from bot.session.prompts import chosen
from bot.session.session import PhaseSession
from cogs.common import acknowledge_click, app_of, key_of, roles_of
from cogs.errors import reply, report
from cogs.play.clicks import close_stale, submit_click
from rules.actions import FactionAction
from rules.factions import Faction

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


class PromptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mentat:(?P<game>\d{1,19}):(?P<faction>[a-z_]{1,20}):(?P<key>[0-9a-f]{12})"
    r":(?P<token>\d{1,19})",
):
    """One answer to a prompt: the concrete action it was made for (by its key), bound to
    that prompt (or step) by its token.

    Its custom id carries everything, so it keeps working after a restart; once the
    prompt closed, a click is refused and the message says how it closed. A click submits
    the action of the prompt as it reads now whose key it carries (:func:`chosen`), never
    one built from the click.
    """

    def __init__(
        self, game_id: int, faction: Faction, key: str, token: str, label: str, quiet: bool
    ) -> None:
        self.game_id, self.faction, self.key, self.token = game_id, faction, key, token
        super().__init__(
            discord.ui.Button(
                label=label[:80] or "Answer",
                style=discord.ButtonStyle.secondary if quiet else discord.ButtonStyle.primary,
                custom_id=f"mentat:{game_id}:{faction.value}:{key}:{token}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PromptButton:
        button = item if isinstance(item, discord.ui.Button) else None
        label = (button.label if button is not None else None) or "This answer"
        quiet = button is not None and button.style is discord.ButtonStyle.secondary
        faction = Faction(match["faction"])
        return cls(int(match["game"]), faction, match["key"], match["token"], label, quiet)

    async def callback(self, interaction: discord.Interaction) -> None:
        said = self.item.label or "This answer"
        picked: list[Answer] = []

        def action_of(session: PhaseSession) -> FactionAction:
            notice, state = session.prompt_now(self.faction), session.state
            assert state is not None
            picked.append(chosen(notice, state, self.faction, self.key, said))
            return picked[-1].action

        result = await submit_click(interaction, self.game_id, self.faction, self.token, action_of)
        if result is None:
            return
        if result.kept:  # kept by the session: a window runs its time first
            await reply(interaction, f"Noted: {picked[-1].label}. {KEPT}")
            return
        await reply(interaction, f"{picked[-1].done}.")


class EarlierButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mentat(?::\d{1,19}:[a-z_]{1,20}:[a-z_]{1,30}:[a-z_-]{1,30}(?::\d{1,19})?"
    r"|-bid:\d{1,19}:[a-z_]{1,20}:\d{1,3}:\d{1,19})",
):
    """A prompt button of an earlier Mentat (before buttons carried their action): it is
    answered, never submitted."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="Answer", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EarlierButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await reply(interaction, EARLIER)
        await close_stale(interaction, "an earlier version of Mentat made its buttons")


EARLIER = (
    "This button is from an earlier version of Mentat: nothing was done. `/status` shows "
    "your prompt again, with its buttons."
)
KEPT = "Only you know; the open window still runs its time, and your answer stands until then."


def prompt_view(game_id: int, notice: PrivateNotice) -> discord.ui.View | None:
    """The buttons of a faction's private notice, one per concrete action it offers (None
    when it offers none); each bound to the notice's prompt."""
    if not notice.answers or notice.token is None:
        return None
    view = discord.ui.View(timeout=None)
    for answer in notice.answers[:25]:  # Discord's most a message holds
        view.add_item(
            PromptButton(
                game_id, notice.faction, answer.key, notice.token, answer.label, answer.quiet
            )
        )
    return view
