"""Autocomplete of the Storm phase's commands: the caller's own legal choices, in words,
read from the session's live position (no store read, within Discord's 3 seconds). The
faction is the caller's own (a current moderator may name one with ``faction:``): nobody is
offered another faction's dial or forces."""

from __future__ import annotations

from cogs.storm import choices as ch
from cogs.turn.autocomplete import _number, _text, offer

dial = offer(lambda state, faction, _: ch.dials(state, faction))
weather_control = offer(lambda state, faction, _: ch.weather_control(state, faction))
loss_territory = offer(lambda state, faction, _: ch.loss_territories(state, faction))
loss_sector = offer(
    lambda state, faction, ns: ch.loss_sectors(state, faction, _text(ns, "territory"))
)
loss_special = offer(
    lambda state, faction, ns: ch.loss_specials(
        state, faction, _text(ns, "territory"), _number(ns, "sector")
    )
)
