"""Autocomplete of the Bidding commands: the caller's own legal choices, read from the
session's live position (no store read, within Discord's 3 seconds). The faction is the
caller's own (a current moderator may name one with ``faction:``): nobody is offered
another faction's hand or spice."""

from __future__ import annotations

from cogs.auction import choices as ch
from cogs.turn.autocomplete import _text, offer

take_hand = offer(lambda state, faction, _: ch.take_hand_targets(state, faction))
give_back = offer(lambda state, faction, ns: ch.give_back(state, faction, _text(ns, "cards") or ""))
