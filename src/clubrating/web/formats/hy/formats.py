"""Armenian dates: "3 դեկտեմբերի 2026 թ." (the day, the month in the genitive, the year)."""

DATE_FORMAT = "j E Y թ."
