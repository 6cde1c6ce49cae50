"""The private battle plan builder: an ephemeral message with select menus and a Lock
button (1.07.04).

Four menus (leader, with the Kwisatz Haderach where it may fight; number; weapon;
defense) and the buttons: Lock, and Spice… where spice is dialed (it swaps the number menu
for the spice menu, and back). The draft lives only in this view (in memory, for its
owner): nothing is submitted, and nothing is told to the table, until Lock. Each menu
offers what :func:`bot.words.battle.plan_builder.menus` gives for the battle under way; every
click is checked again (the clicker must still hold the faction's seat or moderate the
game, now; the menus must still be what the plan may hold, else the builder is stale), and
the engine checks the locked plan (a refusal cites its rule and the builder stays open). A
builder that timed out, was locked, or belongs to a battle no longer waiting for this
plan is answered as stale (:func:`cogs.play.views.answer_stale_preview`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.session.session import SessionError
from bot.words.battle.plan_builder import Draft, Menu, choose, first_draft, menus, plan_of, summary
from cogs.common import acknowledge_click, app_of, key_of, roles_of
from cogs.errors import reply, report
from cogs.play.views import PREVIEW_ID, PreviewView, close_preview
from rules.battle.model import BATTLE
from rules.battle.plans import PlanOptions, options_now
from rules.factions import Faction
from rules.game import GameState

PLACEHOLDERS = {
    "leader": "Leader or Cheap Hero",
    "number": "Number dialed",
    "spice": "Spice paid for the dial",
    "weapon": "Weapon",
    "defense": "Defense",
}
ROWS = {"leader": 0, "number": 1, "spice": 1, "weapon": 2, "defense": 3}
"""Each menu's row. Discord allows 5 rows: 4 menus and the buttons (Lock, and Spice… where
spice is dialed, which swaps the number menu for the spice menu in row 1 and back). The
Kwisatz Haderach is a choice of the leader menu."""
PAGE_LABELS = {"number": "Spice…", "spice": "Dial…"}
"""The page button's label while each of row 1's menus is shown (it names the other)."""


class PlanBuilder(PreviewView):
    """One faction's plan builder, for one battle (its territory, its part of a territory
    the storm splits, and its sides)."""

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
        self.battle = _battle_of(state)
        start = draft or first_draft(options)
        self.draft = choose(options, start, "spice", str(start.spice))
        self.selects: dict[str, discord.ui.Select[Any]] = {
            field: self._select(field, menu) for field, menu in menus(options).items() if menu
        }
        for field, select in self.selects.items():
            if field != "spice":
                self.add_item(select)
        self.lock.custom_id = f"{PREVIEW_ID}plan-lock:{self.nonce}"
        self.page: discord.ui.Button[Any] | None = None
        if "spice" in self.selects:
            self.page = discord.ui.Button(
                label=PAGE_LABELS["number"],
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREVIEW_ID}plan-page:{self.nonce}",
                row=4,
            )
            self.page.callback = self._turn_page  # type: ignore[method-assign]
            self.add_item(self.page)

    def _current(self, field: str) -> str:
        """The value the draft has chosen in ``field``'s menu."""
        draft = self.draft
        if field == "leader":
            return draft.leader_value
        if field == "number":
            return _value(draft.number)
        if field == "spice":
            return str(draft.spice)
        return getattr(draft, field, None) or "-"

    def _select(self, field: str, menu: Menu) -> discord.ui.Select[Any]:
        current = self._current(field)
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{PREVIEW_ID}plan-{field}:{self.nonce}",
            placeholder=PLACEHOLDERS[field],
            options=[
                discord.SelectOption(label=label[:100], value=value[:100], default=value == current)
                for label, value in menu
            ],
            row=ROWS[field],
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
        options = options_now(state, self.faction) if state is not None else None
        if state is None or _battle_of(state) != self.battle or options is None:
            raise SessionError("this battle no longer waits for this plan (rule 1.07.04)")
        if options != self.options:  # e.g. the Voice taken back and spoken again, a card lost
            raise SessionError(
                "what this plan may hold has changed since this builder opened (the Voice, "
                "your cards, forces or spice): open `/battle-plan` again (rule 1.07.04)"
            )
        return state

    async def _show(self, interaction: discord.Interaction, state: GameState) -> None:
        """The builder again, every menu showing the draft's choices."""
        for field, select in self.selects.items():
            current = self._current(field)
            for option in select.options:
                option.default = option.value == current
        try:
            await interaction.edit_original_response(content=self.text(state), view=self)
        except discord.HTTPException:
            await reply(interaction, self.text(state))

    async def _chose(self, interaction: discord.Interaction, field: str, value: str) -> None:
        try:
            await acknowledge_click(interaction)
            state = await self._check(interaction)
        except Exception as error:
            await report(interaction, error)
            return
        self.draft = choose(self.options, self.draft, field, value)
        await self._show(interaction, state)

    async def _turn_page(self, interaction: discord.Interaction) -> None:
        """Spice… / Dial…: row 1 shows the other of the number and spice menus."""
        try:
            await acknowledge_click(interaction)
            state = await self._check(interaction)
        except Exception as error:
            await report(interaction, error)
            return
        shown = "spice" if self.selects["spice"] in self.children else "number"
        other = "number" if shown == "spice" else "spice"
        self.remove_item(self.selects[shown])
        self.add_item(self.selects[other])
        if self.page is not None:
            self.page.label = PAGE_LABELS[other]
        await self._show(interaction, state)

    @discord.ui.button(label="Lock", style=discord.ButtonStyle.success, row=4)
    async def lock(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        try:
            await acknowledge_click(interaction)
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


def _battle_of(state: GameState) -> tuple[object, ...]:
    """The battle under way: where (its territory and, in a territory the storm splits, its
    part: the same sides may fight on each side of the storm, 1.07.01) and who."""
    fight = BATTLE.of(state.whole)
    return () if fight is None else (fight.territory, fight.sectors, fight.sides)


def _value(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else f"{number:g}"


def _words(draft: Draft) -> str:
    cards = [c for c in (draft.weapon, draft.defense) if c]
    return (
        f"{draft.leader or 'no leader'}"
        + (" with the Kwisatz Haderach" if draft.kwisatz_haderach else "")
        + f", dial {_value(draft.number)}"
        + (f", paying {draft.spice} spice" if draft.spice else "")
        + (", playing " + " and ".join(cards) if cards else ", no card")
    )
