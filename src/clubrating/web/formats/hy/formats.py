"""Armenian dates: "3 դեկտեմբերի 2026 թ." (the day, the month in the genitive, the year); numbers
with a decimal comma, as Unicode CLDR writes Armenian (Django ships no Armenian formats)."""

DATE_FORMAT = "j E Y թ."
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"
