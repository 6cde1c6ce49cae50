"""Discord's timestamps in words, for the records read outside Discord (the demo's)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.words.stamps import stamps_in_words

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
AT = int(datetime(2026, 1, 1, 13, 5, tzinfo=UTC).timestamp())


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f"<t:{AT}:f> (<t:{AT}:R>)", "Thursday 1 January 2026, 13:05 UTC (in 1 hour)"),
        (f"<t:{AT}>", "Thursday 1 January 2026, 13:05 UTC"),
        (f"<t:{AT}:t>", "13:05 UTC"),
        (f"<t:{AT}:D>", "1 January 2026"),
        (f"<t:{AT}:d>", "01/01/2026"),
        (f"<t:{AT - 3900 - 300}:R>", "5 minutes ago"),
        (f"<t:{AT - 3900}:R>", "now"),
        (f"<t:{AT + 86400 * 2}:R>", "in 2 days"),
        ("<t:12x> and <@1> stay as typed", "<t:12x> and <@1> stay as typed"),
    ],
)
def test_each_style_reads_in_words(text: str, words: str) -> None:
    assert stamps_in_words(text, NOW) == words
