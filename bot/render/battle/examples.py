"""Example reveals for the battle picture's tests and documentation (docs/battle-reveal.png):
public events as the engine emits them for a fight, a traitor, and an explosion."""

from __future__ import annotations

from bot.render.battle.reveal import BattleReveal
from rules.battle.events import (
    BattleWon,
    KwisatzHaderachKilled,
    LasgunShield,
    PlanRevealed,
    TraitorCalled,
    WeaponStruck,
)
from rules.events import ForcesLost, LeaderKilled, SpicePaid, SpiceReceived
from rules.factions import Faction

F = Faction
AT, BG, HK, EM = F.ATREIDES, F.BENE_GESSERIT, F.HARKONNEN, F.EMPEROR


def fought() -> BattleReveal:
    """The Atreides' Crysknife kills the Harkonnen leader; the Atreides win 6 to 4."""
    plans = (
        PlanRevealed(AT, "Duncan Idaho", 3, 2, "Crysknife", "Snooper", True),
        PlanRevealed(HK, "Captain Iakin Nefud", 4, 4, "Chaumas", None, False),
    )
    outcome = (
        WeaponStruck(AT, "Crysknife", "Captain Iakin Nefud", True, None, "1.07.06.01"),
        WeaponStruck(HK, "Chaumas", "Duncan Idaho", False, "Snooper", "1.07.06.01"),
        BattleWon(AT, HK, "Arrakeen", 7, 4, "1.07.06"),
        LeaderKilled(HK, "Captain Iakin Nefud", "1.07.06.02"),
        SpiceReceived(AT, 2, "1.07.06.02"),
        ForcesLost(HK, "Arrakeen", 9, 6, 0, 0, "1.07.06.04"),
        ForcesLost(AT, "Arrakeen", 9, 3, 0, 0, "1.07.06.05"),
        SpicePaid(AT, 2, None),
        SpicePaid(HK, 4, None),
    )
    return BattleReveal("Arrakeen", plans, outcome, turn=3)


def betrayed() -> BattleReveal:
    """The Bene Gesserit reveal Duncan Idaho as their traitor."""
    plans = (
        PlanRevealed(BG, "Alia", 1, 0, None, "Shield", False),
        PlanRevealed(AT, "Duncan Idaho", 3, 0, "Crysknife", "Snooper", False),
    )
    outcome = (
        TraitorCalled(BG, "Duncan Idaho", AT, "1.07.06.06"),
        BattleWon(BG, AT, "Arrakeen", 0, 0, "1.07.06.06"),
        LeaderKilled(AT, "Duncan Idaho", "1.07.06.02"),
        SpiceReceived(BG, 2, "1.07.06.06"),
        ForcesLost(AT, "Arrakeen", 9, 4, 0, 0, "1.07.06.06"),
    )
    return BattleReveal("Arrakeen", plans, outcome, turn=4)


def waiting() -> BattleReveal:
    """Revealed; the traitor question is still open."""
    return BattleReveal("Arrakeen", betrayed().plans, (), turn=4)


def exploded() -> BattleReveal:
    """A lasgun meets a shield: everything in the territory dies, the Kwisatz Haderach too."""
    plans = (
        PlanRevealed(EM, "Cheap Hero", 5, 5, "Lasgun", None, False),
        PlanRevealed(AT, "Lady Jessica", 2, 0, None, "Shield", True),
    )
    outcome = (
        LasgunShield("Carthag", 6, "3.01.14"),
        ForcesLost(AT, "Carthag", 10, 5, 0, 0, "3.01.14"),
        ForcesLost(EM, "Carthag", 10, 3, 2, 0, "3.01.14"),
        LeaderKilled(AT, "Lady Jessica", "1.07.06.02"),
        KwisatzHaderachKilled("2.01.12"),
        SpicePaid(EM, 5, None),
    )
    return BattleReveal("Carthag", plans, outcome, turn=6)
