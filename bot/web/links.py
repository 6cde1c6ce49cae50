"""The live page's address and the words that carry it to a game's channels (the cogs pin
them in the table's and the spectators' channels when the game starts)."""

from __future__ import annotations

from collections.abc import Sequence


def page_url(base: str, game_id: int) -> str:
    """The game's page under ``WEB_BASE_URL`` (kept without its final "/")."""
    return f"{base}/games/{game_id}"


def pin_text(base: str, game_id: int) -> str:
    """The message pinned in the table's and the spectators' channels."""
    return (
        f"**The game's live page:** {page_url(base, game_id)}\n"
        "The map (zoom it on a phone), the record in words with the battles' pictures, "
        "the charts turn by turn, and any past moment of the game."
    )


def pin_failed_text(base: str, game_id: int, channels: Sequence[str]) -> str:
    """For the moderators, once: where the link could not be pinned, and the link."""
    where = " and ".join(f"<#{channel}>" for channel in channels)
    return (
        f"The live page's link could not be pinned in {where}: Mentat needs the Manage "
        f"Messages permission there. The game runs on; its page is {page_url(base, game_id)} "
        "(pin it by hand, or give the permission)."
    )
