"""``{{ words|translated }}``: each of a list's marked English words (N_ in the pure packages,
such as a name match's reasons) in the page's language, for a page to join."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.conf import settings
from django.utils.translation import gettext

register = template.Library()


@register.filter
def translated(words: Iterable[str]) -> list[str]:
    return [gettext(word) for word in words]


@register.simple_tag
def languages_in_themselves() -> list[tuple[str, str]]:
    """The site's languages, each named in itself (settings.LANGUAGES: English, Հայերեն,
    Русский) for the switcher: Django's ``get_available_languages`` would translate the names
    into the page's language, and a reader looks for their own language's name as they write it."""
    return list(settings.LANGUAGES)
