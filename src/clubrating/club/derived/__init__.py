"""Data derived from the history, never edited in place: the ratings replay,
the CPI ledger (rebuilt together by :mod:`.rebuild`), the player card, the coach and the
fair-play signal."""
