"""English dates: "3 December 2026"."""

DATE_FORMAT = "j F Y"
