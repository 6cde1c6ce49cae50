"""Autocomplete of the Bidding and Revival commands: the caller's own legal choices, with
their price, read from the session's live position (no store read, within Discord's 3
seconds). The faction is the caller's own (a current moderator may name one with
``faction:``): nobody is offered another faction's tanks, hand or spice."""

from __future__ import annotations

from cogs.auction import choices as ch
from cogs.turn.autocomplete import _number, _text, offer

revive_forces = offer(lambda state, faction, _: ch.revive_forces(state, faction))
revive_special = offer(
    lambda state, faction, ns: ch.revive_special(state, faction, _number(ns, "forces"))
)
revive_leader = offer(
    lambda state, faction, ns: ch.revive_leaders(
        state, faction, _number(ns, "forces"), _number(ns, "special")
    )
)
karama_forces = offer(lambda state, faction, _: ch.revive_forces(state, faction, "karama"))
karama_special = offer(
    lambda state, faction, ns: ch.revive_special(state, faction, _number(ns, "forces"), "karama")
)
karama_leader = offer(
    lambda state, faction, ns: ch.revive_leaders(
        state, faction, _number(ns, "forces"), _number(ns, "special"), "karama"
    )
)
ghola_forces = offer(lambda state, faction, _: ch.revive_forces(state, faction, "ghola"))
ghola_special = offer(
    lambda state, faction, ns: ch.revive_special(state, faction, _number(ns, "forces"), "ghola")
)
ghola_leader = offer(
    lambda state, faction, ns: ch.revive_leaders(
        state, faction, _number(ns, "forces"), _number(ns, "special"), "ghola"
    )
)
take_hand = offer(lambda state, faction, _: ch.take_hand_targets(state, faction))
give_back = offer(lambda state, faction, ns: ch.give_back(state, faction, _text(ns, "cards") or ""))
