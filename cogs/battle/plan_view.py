"""The private battle plan builder: an ephemeral message with select menus and a Lock
button (1.07.04).

The draft lives only in this view (in memory, for its owner): nothing is submitted, and
nothing is told to the table, until Lock. Each menu offers what
:func:`bot.plan_builder.menus` gives for the battle under way; every click is checked
again (the clicker must still hold the faction's seat or moderate the game, now), and the
engine checks the locked plan (a refusal cites its rule and the builder stays open). A
builder that timed out, was locked, or belongs to a battle no longer waiting for this
plan is answered as stale (:func:`cogs.play.views.answer_stale_preview`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.plan_builder import Draft, Menu, first_draft, menus, plan_of, summary
from bot.session import SessionError
from cogs.common import app_of, key_of, roles_of
from cogs.errors import reply, report
from cogs.play.views import PREVIEW_ID, PreviewView, close_preview
from rules.battle_plans import PlanOptions
from rules.factions import Faction
from rules.game import GameState

PLACEHOLDERS = {
    "leader": "Leader or Cheap Hero",
    "number": "Number dialed",
    "weapon": "Weapon",
    "defense": "Defense",
}
SELECTS = ("leader", "number", "weapon", "defense")
"""The menus shown (Discord allows 5 rows: 4 menus and the Lock button); spice and the
Kwisatz Haderach are the command's options."""


class PlanBuilder(PreviewView):
    """One faction's plan builder, for one battle (its territory and sides)."""

    def __init__(
        self,
        game_id: int,
        faction: Faction,
        state: GameState,
        options: PlanOptions,
        draft: Draft | None,
        *,
        live: set[str],
    ) -> None:
        super().__init__(live=live)
        self.game_id = game_id
        self.faction = faction
        self.options = options
        fight = state.whole.battle
        self.battle = (options.territory, fight.sides if fight is not None else ())
        self.draft = draft or first_draft(options)
        offered = menus(options)
        for row, field in enumerate(SELECTS):
            menu = offered.get(field, [])
            if menu:
                self.add_item(self._select(field, menu, row))
        self.lock.custom_id = f"{PREVIEW_ID}plan-lock:{self.nonce}"

    def _select(self, field: str, menu: Menu, row: int) -> discord.ui.Select[Any]:
        chosen = {
            "leader": self.draft.leader,
            "number": None,
            "weapon": self.draft.weapon,
            "defense": self.draft.defense,
        }[field]
        current = _value(self.draft.number) if field == "number" else (chosen or "-")
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{PREVIEW_ID}plan-{field}:{self.nonce}",
            placeholder=PLACEHOLDERS[field],
            options=[
                discord.SelectOption(label=label[:100], value=value[:100], default=value == current)
                for label, value in menu
            ],
            row=row,
        )

        async def chose(interaction: discord.Interaction) -> None:
            await self._chose(interaction, field, select.values[0] if select.values else "-")

        select.callback = chose  # type: ignore[method-assign]
        return select

    def text(self, state: GameState) -> str:
        return summary(state, self.faction, self.options, self.draft)

    async def _check(self, interaction: discord.Interaction) -> GameState:
        """The clicker still acts for the faction, and this battle still waits for its plan."""
        app = app_of(interaction)
        await app.require_player(
            self.game_id, interaction.user.id, self.faction, roles=roles_of(interaction)
        )
        state = app.session(self.game_id).state
        fight = state.whole.battle if state is not None else None
        if (
            state is None
            or fight is None
            or (fight.territory, fight.sides) != self.battle
            or state.battle_plan_options(self.faction) is None
        ):
            raise SessionError("this battle no longer waits for this plan (rule 1.07.04)")
        return state

    async def _chose(self, interaction: discord.Interaction, field: str, value: str) -> None:
        try:
            await interaction.response.defer()
            state = await self._check(interaction)
        except Exception as error:
            await report(interaction, error)
            return
        self.draft = self.draft.choose(field, value)
        for item in self.children:
            if isinstance(item, discord.ui.Select):
                name = str(item.custom_id).removeprefix(f"{PREVIEW_ID}plan-").split(":")[0]
                current = (
                    _value(self.draft.number)
                    if name == "number"
                    else (getattr(self.draft, name, None) or "-")
                )
                for option in item.options:
                    option.default = option.value == current
        try:
            await interaction.edit_original_response(content=self.text(state), view=self)
        except discord.HTTPException:
            await reply(interaction, self.text(state))

    @discord.ui.button(label="Lock", style=discord.ButtonStyle.success, row=4)
    async def lock(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        try:
            await interaction.response.defer()
            await self._check(interaction)
            action = plan_of(self.faction, self.options, self.draft)
            await app_of(interaction).submit(
                self.game_id, action, actor=interaction.user.id, key=key_of(interaction)
            )
        except Exception as error:
            await report(interaction, error)
            return
        self.stop()
        await close_preview(
            interaction, f"Locked: {_words(self.draft)}. The table hears only that your plan is in."
        )


def _value(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else f"{number:g}"


def _words(draft: Draft) -> str:
    cards = [c for c in (draft.weapon, draft.defense) if c]
    return (
        f"{draft.leader or 'no leader'}, dial {_value(draft.number)}"
        + (f", paying {draft.spice} spice" if draft.spice else "")
        + (", playing " + " and ".join(cards) if cards else ", no card")
    )
