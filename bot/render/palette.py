"""Colours of the board, the factions and the marks drawn on top."""

from __future__ import annotations

from rules.factions import Faction

RGB = tuple[int, int, int]

BACKGROUND: RGB = (24, 20, 18)
PANEL: RGB = (36, 30, 27)
PANEL_TEXT: RGB = (238, 228, 210)
PANEL_MUTED: RGB = (150, 138, 122)

TERRAIN: dict[str, RGB] = {
    "sand": (236, 204, 150),
    "rock": (170, 138, 110),
    "stronghold": (122, 86, 142),
    "polar_sink": (206, 220, 228),
}
LABEL_TEXT: dict[str, RGB] = {
    "sand": (72, 50, 28),
    "rock": (52, 34, 20),
    "stronghold": (255, 255, 255),
    "polar_sink": (40, 56, 70),
}
LABEL_HALO: dict[str, RGB] = {
    "sand": (246, 226, 190),
    "rock": (206, 182, 156),
    "stronghold": (70, 44, 84),
    "polar_sink": (232, 240, 244),
}
TERRITORY_BORDER: RGB = (74, 52, 34)
SECTOR_LINE: RGB = (150, 116, 80)
RING: RGB = (58, 44, 36)
RING_TEXT: RGB = (240, 226, 200)

STORM: RGB = (60, 66, 96)
STORM_ALPHA = 135
STORM_TEXT: RGB = (255, 120, 90)
HIGHLIGHT: RGB = (0, 230, 255)
MOVE_ARROW: RGB = (255, 255, 255)
SPICE: RGB = (150, 66, 26)
SPICE_TEXT: RGB = (255, 255, 255)

FACTION: dict[Faction, RGB] = {
    Faction.ATREIDES: (34, 139, 58),
    Faction.BENE_GESSERIT: (40, 90, 200),
    Faction.EMPEROR: (200, 30, 40),
    Faction.FREMEN: (245, 205, 30),
    Faction.HARKONNEN: (20, 20, 20),
    Faction.SPACING_GUILD: (245, 125, 20),
}
FACTION_TEXT: dict[Faction, RGB] = {
    Faction.ATREIDES: (255, 255, 255),
    Faction.BENE_GESSERIT: (255, 255, 255),
    Faction.EMPEROR: (255, 255, 255),
    Faction.FREMEN: (30, 24, 10),
    Faction.HARKONNEN: (255, 255, 255),
    Faction.SPACING_GUILD: (30, 20, 10),
}
"""Count text on a faction's token: dark on the light colours, white on the rest."""
