"""A whole game of three turns played by six simulated users and a moderator through
Discord (simcord): nothing the table or spectators' channels show holds a secret: a card
still in a hand, a traitor, the prediction, a dial before the reveal, a faction's spice
total, the seed.

Where a Discord command exists it is used (``/pass`` in Shipment & Movement, ``/mod record
card`` and ``/mod record done`` with their Confirm buttons, ``/mod spice``); the set-up,
storm, Nexus and charity choices are submitted through the session, as their buttons do.
"""

from __future__ import annotations

import re

import simcord

from bot.waits import CHOICE, MODERATORS, PROMPT
from rules.actions import Ally, Decline, FactionAction, Pass, PlaceAdvisor, PlaceFremen, Predict
from rules.battle.actions import KeepTraitor
from rules.battle.traitors import TRAITORS
from rules.bidding.actions import Bid
from rules.choam_charity.actions import ClaimCharity
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.storm.actions import Dial
from tests.cogs.conftest import Table, make_table, refusals, text_of

PARTNERS = {
    Faction.ATREIDES: Faction.FREMEN,
    Faction.FREMEN: Faction.ATREIDES,
    Faction.HARKONNEN: Faction.EMPEROR,
    Faction.EMPEROR: Faction.HARKONNEN,
    Faction.SPACING_GUILD: Faction.BENE_GESSERIT,
    Faction.BENE_GESSERIT: Faction.SPACING_GUILD,
}
TURNS = 3


class Secrets:
    """What must never reach the table or the spectators, gathered as the game goes."""

    def __init__(self) -> None:
        self.held: set[str] = set()  # cards seen in a hand
        self.shown: set[str] = set()  # cards that left a hand (played, discarded)
        self.hands: dict[Faction, set[str]] = {}

    def look(self, t: Table) -> None:
        state = t.state()
        for faction, own in state.factions.items():
            cards = set(own.cards)
            self.shown |= self.hands.get(faction, set()) - cards
            self.held |= cards
            self.hands[faction] = cards

    @property
    def hidden(self) -> set[str]:
        return self.held - self.shown - {"Karama"}  # "Karama window" names a rule too


def choice(t: Table, faction: Faction) -> FactionAction:
    """A player's answer to a choice: a traitor, a prediction, the Fremen's places, a dial
    of 2, an ally asked (or accepted), charity claimed; else a pass."""
    state = t.state()
    legal = list(state.legal_actions(faction, open_stage_only=True))
    proposals = state.whole.proposals
    for action in legal:
        if isinstance(action, Ally) and (Faction(action.with_), faction) in proposals:
            return action
    asked = any(p[0] is faction for p in proposals)
    for action in legal:
        if isinstance(action, Ally) and action.with_ == PARTNERS[faction].value and not asked:
            return action
    dials = [a for a in legal if isinstance(a, Dial)]
    if dials:
        return dials[min(2, len(dials) - 1)]
    kinds = (KeepTraitor, Predict, PlaceFremen, PlaceAdvisor, ClaimCharity, Pass)
    return next((a for kind in kinds for a in legal if isinstance(a, kind)), legal[0])


async def confirm(t: Table, command: str, **options: object) -> None:
    preview = await t.moderator.slash(t.table, command, **options)
    assert preview.response is not None, preview
    done = await t.moderator.click(preview.response.message, label="Confirm")
    assert text_of(done).startswith("Done"), text_of(done)


async def play_turns(t: Table, secrets: Secrets) -> None:
    recorded: set[int] = set()
    bought: set[int] = set()
    for keys in range(600):
        secrets.look(t)
        state = t.state()
        if state.game_phase is GamePhase.OVER or (state.turn or 0) > TURNS:
            return
        wait = t.session.current_wait()
        assert wait is not None
        if wait.kind == MODERATORS:
            rich = [f for f, own in state.factions.items() if own.spice >= 2]
            if state.game_phase is GamePhase.BATTLE and rich and state.turn not in recorded:
                recorded.add(state.turn)
                await confirm(t, "mod record payment", faction=rich[0].value, amount=1)
            else:
                await confirm(t, "mod record done")
        elif wait.kind == PROMPT:
            for faction in wait.factions:
                prompt = state.open_prompts()[0]
                action = Decline(faction, prompt.kind)
                await t.session.submit(faction, action, actor=1, key=f"leak-{keys}-{faction}")
        elif wait.kind == CHOICE and state.game_phase is GamePhase.BIDDING:
            faction = wait.factions[0]  # the bidder: one bid of 1 a turn, by the command
            if state.turn not in bought and state.is_legal(Bid(faction, 1)):
                bought.add(state.turn)
                result = await t.players[faction].slash(t.table, "bid", amount=1)
            else:
                result = await t.players[faction].slash(t.table, "pass")
                if text_of(result).startswith("Refused: you already passed on card"):
                    # right after its own /pass, a /pass reads as a repeat (bot.session.passes, P1):
                    # sent again, it is meant for the card now on offer
                    result = await t.players[faction].slash(t.table, "pass")
            assert text_of(result).startswith("Done"), text_of(result)
        elif wait.kind == CHOICE:
            faction = wait.factions[0]
            await t.session.submit(faction, choice(t, faction), actor=1, key=f"leak-{keys}")
        else:
            player = t.players[wait.factions[0]]
            turn = state.phase.turn
            step = "movement" if turn is not None and turn.step.value == "move" else "shipment"
            result = await player.slash(t.table, "pass", step=step)
            assert text_of(result).startswith("Done"), text_of(result)
    raise AssertionError("the game never reached its fourth turn")


async def test_a_whole_game_through_discord_leaks_no_secret(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game")
    seed = t.state().whole.chance.seed
    await t.moderator.slash(t.table, "mod spice", faction="atreides", amount=0)
    secrets = Secrets()
    await play_turns(t, secrets)
    state = t.state()
    assert (state.turn or 0) > TURNS or state.game_phase is GamePhase.OVER
    seen = [m.content for ch in (t.table, t.spectators) for m in ch.history()]
    text = "\n".join(seen)
    assert "Turn 3: the Battle phase begins." in text  # no phase is recorded any more
    assert "wins a treachery card for 1 spice" in text
    assert "CHOAM Charity" in text  # Atreides, left with no spice, claimed
    assert secrets.hidden, "no card stayed in a hand: the scan would prove nothing"
    for card in secrets.hidden:
        assert card not in text, card
    traitors = {name for kept in TRAITORS.of(state.whole).values() for name in kept}
    prediction = state.whole.prediction
    assert traitors and prediction is not None
    predicted, turn = prediction
    for line in text.splitlines():
        low = line.lower()
        if "traitor" in low:
            assert not any(name in line for name in traitors), line
        if "predict" in low:
            assert predicted.label not in line and f"turn {turn}" not in low, line
        if "has dialed" in low:
            assert not re.search(r"\d", line), line  # a dial is told only at the reveal
    assert not re.search(r"\b(hold|holds|has) \d+ spice\b", text)  # spice is behind shields
    assert str(seed) not in text and not re.search(r"\bseed\b", text, re.I)
    # the secrets did reach their owners: the scan looked where they would be
    atreides = "\n".join(m.content for m in t.private(Faction.ATREIDES).history())
    assert "You hold" in atreides and any(
        n in atreides for n in TRAITORS.of(state.whole)[Faction.ATREIDES]
    )
    assert all("already passed" in str(e) for e in refusals(simcord_env))  # repeats only
