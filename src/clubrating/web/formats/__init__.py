"""The website's date formats (``settings.FORMAT_MODULE_PATH``), a module per language: the day
before the month in Armenian and Russian, the month in its genitive ("3 декабря 2026 г.",
"3 դեկտեմբերի 2026 թ."), as a page writes a date with ``|date:"DATE_FORMAT"``.

Django has no formats for Armenian (its default, "N j, Y", reads "Դեկ․ 3, 2026") and its Armenian
catalogue gives the month's genitive ("alt. month") in the nominative; the catalogue here marks
the twelve genitives (:data:`GENITIVE_MONTHS`) so that hy says "դեկտեմբերի"."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

# Django's own keys (django.utils.dates.MONTHS_ALT), read by the date format's "E"
GENITIVE_MONTHS = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
