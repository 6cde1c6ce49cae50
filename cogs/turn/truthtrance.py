"""``/truthtrance ask`` and ``/truthtrance answer`` (3.01.21; docs/whole-turn-readings.md T1-T5).

Thin glue, like the other commands of any phase: the faction the caller acts for (its seated
player, or a current moderator naming it with ``faction:``), the engine's action submitted
through the game's session, every answer ephemeral. The question is echoed only to the
asker; the target reads it in its private prompt (with Yes and No buttons,
:mod:`cogs.play.views`), and the table only who asked whom, then the answer.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.words.truthtrance import ANSWER_WORDS, inert, remark_words
from cogs.common import FactionName, act_for
from cogs.errors import clamp, clip, reply
from cogs.turn.autocomplete import offer
from rules.actions import AnswerTruthtrance, PlayTruthtrance
from rules.factions import Faction
from rules.legal import truthtrance_targets
from rules.truthtrance import QUESTION_LIMIT, REMARK_LIMIT, clean

targets = offer(
    lambda state, faction, _: [(f.label, f.value) for f in truthtrance_targets(state, faction)]
)
"""The factions the caller may ask now: none without a Truthtrance in hand (its own only)."""

ANSWERS = [app_commands.Choice(name="Yes", value="yes"), app_commands.Choice(name="No", value="no")]


class Truthtrance(commands.Cog):
    """Truthtrance: one yes/no question, answered truthfully."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    truthtrance = app_commands.Group(
        name="truthtrance", description="Truthtrance: ask one player a yes/no question."
    )

    @truthtrance.command(
        name="ask", description="Play Truthtrance: ask another player a yes/no question, privately."
    )
    @app_commands.describe(
        target="The player you ask (they must answer truthfully).",
        question=f"One yes/no question about the game (at most {QUESTION_LIMIT} characters); "
        "only you and they see it.",
    )
    @app_commands.autocomplete(target=targets)
    async def ask(
        self,
        interaction: discord.Interaction,
        target: str,
        question: str,
        faction: FactionName | None = None,
    ) -> None:
        await act_for(interaction, faction, PlayTruthtrance, target, question)
        other = Faction.parse(target)
        label = other.label if other else clip(target)
        quoted = clip(inert(clean(question)))
        await reply(
            interaction,
            clamp(
                f"Done: you play Truthtrance on {label}: “{quoted}”. Only the "
                "two of you see the question; the table sees that you asked, then the answer, "
                "which you will also hear in your private channel."
            ),
        )

    @truthtrance.command(
        name="answer", description="Answer the Truthtrance question you were asked: yes or no."
    )
    @app_commands.describe(
        answer="Your truthful answer: the table sees it.",
        remark=f"An optional short remark, shown with your answer (at most {REMARK_LIMIT} "
        "characters).",
    )
    @app_commands.choices(answer=ANSWERS)
    async def answer(
        self,
        interaction: discord.Interaction,
        answer: app_commands.Choice[str],
        remark: str | None = None,
        faction: FactionName | None = None,
    ) -> None:
        await act_for(interaction, faction, AnswerTruthtrance, answer.value, remark or "")
        said = ANSWER_WORDS.get(answer.value, clip(answer.value))
        shown = remark_words(clean(remark or ""))
        await reply(interaction, f"Done: you answer {said}{shown}. The table sees your answer.")
