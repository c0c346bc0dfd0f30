"""``{{ words|translated }}``: each of a list's marked English words (N_ in the pure packages,
such as a name match's reasons) in the page's language, for a page to join."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.translation import gettext

register = template.Library()


@register.filter
def translated(words: Iterable[str]) -> list[str]:
    return [gettext(word) for word in words]
