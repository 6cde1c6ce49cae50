"""Autocomplete of the Revival commands: the caller's own legal revivals, with their price,
read from the session's live position (no store read, within Discord's 3 seconds). The
faction is the caller's own (a current moderator may name one with ``faction:``): nobody
is offered another faction's tanks or spice."""

from __future__ import annotations

from cogs.revival import choices as ch
from cogs.turn.autocomplete import _number, offer

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
ally_forces = offer(lambda state, faction, _: ch.ally_revival_forces(state, faction))
ally_special = offer(
    lambda state, faction, ns: ch.ally_revival_special(state, faction, _number(ns, "forces"))
)
