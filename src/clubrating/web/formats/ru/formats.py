"""Russian dates: "3 декабря 2026 г." (the day, the month in the genitive, the year)."""

DATE_FORMAT = "j E Y г."
