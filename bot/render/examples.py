"""Example positions for the renderer's tests, benchmark and documentation pictures."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

from rules.board import Piece, standard_board
from rules.factions import Faction
from rules.view import FactionPublic, GameView, PublicView, SpiceView, StackView

ALL_FACTIONS = tuple(Faction)
STARRED = (Faction.EMPEROR, Faction.FREMEN)


def public_view(
    stacks: tuple[StackView, ...],
    *,
    storm_sector: int = 5,
    spice: tuple[SpiceView, ...] = (),
    to_act: Faction | None = Faction.EMPEROR,
    done: tuple[Faction, ...] = (Faction.ATREIDES, Faction.BENE_GESSERIT),
) -> PublicView:
    """A public view of a six-player game at the given position."""
    return PublicView(
        storm_sector=storm_sector,
        seats=ALL_FACTIONS,
        storm_order=ALL_FACTIONS,
        alliances=((Faction.ATREIDES, Faction.FREMEN),),
        advanced=True,
        factions=tuple(_standing(f) for f in ALL_FACTIONS),
        stacks=stacks,
        spice=spice,
        spice_bank=0,
        to_act=to_act,
        step="shipment",
        done=done,
        prompts=(),
        phase_complete=False,
        game=PHASE_ALONE,
    )


PHASE_ALONE = GameView(
    turn=1,
    last_turn=1,
    phase="shipment_movement",
    step="running",
    waiting=(),
    winner=(),
    won_by=None,
    spice_deck_cards=0,
    spice_discard=(),
    spice_discard_b=(),
    treachery_deck_cards=0,
    treachery_discard=(),
    leaders=(),
    dialers=(),
    dialed=(),
    alliance_offers=(),
    prediction_made=False,
    shield_wall_destroyed=False,
    kwisatz_haderach_active=False,
    alone=True,
)
"""The whole game's part of a Shipment & Movement phase played alone (turn 1)."""


def _standing(faction: Faction) -> FactionPublic:
    special = 2 if faction in STARRED else 0
    return FactionPublic(faction, 8, special, 2, 1 if special else 0, 3)


def busy_view(stack_count: int = 40, seed: int = 5) -> PublicView:
    """Six factions, ``stack_count`` stacks spread over the board, and spice."""
    rng = random.Random(seed)
    pieces = rng.sample(all_pieces(), stack_count)
    stacks = _one_kind_per_territory(
        _stack(ALL_FACTIONS[i % len(ALL_FACTIONS)], piece, rng) for i, piece in enumerate(pieces)
    )
    spice = tuple(SpiceView(t, s, rng.randint(2, 12)) for t, s in rng.sample(pieces, 6))
    return public_view(stacks, spice=spice)


def _stack(faction: Faction, piece: Piece, rng: random.Random) -> StackView:
    forces = rng.randint(1, 12)
    special = rng.randint(0, 3) if faction in STARRED else 0
    advisors = rng.randint(0, 3) if faction is Faction.BENE_GESSERIT else 0
    return StackView(faction, piece[0], piece[1], forces, special, advisors)


def _one_kind_per_territory(stacks: Iterable[StackView]) -> tuple[StackView, ...]:
    """The Bene Gesserit's advisors and fighters never share a territory (2.02.21): each
    territory keeps the kind of its first Bene Gesserit stack."""
    advisors_in: dict[str, bool] = {}
    out = []
    for stack in stacks:
        if stack.faction is Faction.BENE_GESSERIT:
            if advisors_in.setdefault(stack.territory, stack.advisors > 0):
                stack = replace(stack, forces=0, advisors=stack.advisors or stack.forces)
            else:
                stack = replace(stack, advisors=0)
        out.append(stack)
    return tuple(out)


def crowded_view(pieces: tuple[Piece, ...]) -> PublicView:
    """Every faction with forces, starred forces or (the Bene Gesserit) advisors, and
    spice, in each piece."""
    stacks = tuple(
        StackView(
            f,
            territory,
            sector,
            0 if f is Faction.BENE_GESSERIT else 10 + i,
            3 if f in STARRED else 0,
            4 if f is Faction.BENE_GESSERIT else 0,
        )
        for territory, sector in pieces
        for i, f in enumerate(ALL_FACTIONS)
    )
    spice = tuple(SpiceView(t, s, 12) for t, s in pieces)
    return public_view(stacks, spice=spice)


def all_pieces() -> list[Piece]:
    """Every territory-sector piece of the board, in board order."""
    return [p for t in standard_board() for p in t.pieces()]
