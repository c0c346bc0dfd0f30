"""The club itself: created, who may see it and how names are shown."""

from __future__ import annotations

from anyascii import anyascii
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from clubrating.club.store import audit
from clubrating.formats import zones
from clubrating.club.store.locking import history_write
from clubrating.club.store.locking import reread
from clubrating.club.store.models import Club, NameDisplay, Visibility, new_token
from clubrating.club.services.outcome import Outcome
from clubrating.cpi.version import SCORING_VERSION
from clubrating.errors import InputError, Refused, Text


# Armenian "ու" is one sound, u, and "և" is "ev" (reformed orthography); letter by letter anyascii
# would write "ow" and "ew" ("akowmb" for "ակումբ").
_ARMENIAN = str.maketrans({"\u0587": "ev"})
_ARMENIAN_U = (("ու", "u"), ("Ու", "U"), ("ՈՒ", "U"))
MAX_SLUG = 60  # Club.slug's length


def slug_for(text: str) -> str:
    """The club's address word for ``text`` in any script: transliterated to Latin (anyascii),
    then Django's slugify ("Երևանի շախմատի ակումբ" -> "erevani-shakhmati-akumb", "Шахматный
    клуб" -> "shakhmatnyy-klub"); "" when nothing in it reads as a letter or a digit."""
    text = text.translate(_ARMENIAN)
    for armenian, latin in _ARMENIAN_U:
        text = text.replace(armenian, latin)
    return slugify(anyascii(text))[:MAX_SLUG].strip("-")


def create_club(
    name: str,
    *,
    who: str,
    slug: str | None = None,
    policy: str = "club",
    separate_lists: bool = False,
    time_zone: str = "",
) -> Club:
    name = name.strip()
    if not name:
        raise InputError(gettext_noop("a club needs a name"))
    if policy not in ("club", "fide"):
        raise InputError(
            gettext_noop("unknown policy %(policy)s: expected 'club' or 'fide'"),
            policy=repr(policy),
        )
    time_zone = zones.parse_zone(time_zone)
    slug = slug_for(slug or name) or "club"
    taken = Refused(
        gettext_noop("a club with the short name %(slug)s exists already"), slug=repr(slug)
    )
    if Club.objects.filter(slug=slug).exists():
        raise taken
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name,
                slug=slug,
                policy=policy,
                separate_lists=separate_lists,
                names=NameDisplay.FULL,
                time_zone=time_zone,
                cpi_scored_with=SCORING_VERSION,  # no ledger: scored by any rules
            )
            audit.record(
                club,
                who,
                "create-club",
                club.slug,
                new={"name": name, "policy": policy, "time_zone": zones.zone_name(time_zone)},
            )
    except IntegrityError:
        if Club.objects.filter(slug=slug).exists():  # created meanwhile by another process
            raise taken from None
        raise
    return club


# Who sees the club and how names are shown, as the privacy's message says them (Visibility's
# and NameDisplay's labels are the pages' capitalised headings).
SEEN_BY: dict[str, str] = {
    Visibility.ARBITER: gettext_noop("only the arbiters"),
    Visibility.UNLISTED: gettext_noop("anyone with the link (not indexed)"),
    Visibility.PUBLIC: gettext_noop("public"),
}
NAMES_SHOWN: dict[str, str] = {
    NameDisplay.FULL: gettext_noop("full names"),
    NameDisplay.INITIALS: gettext_noop("initials"),
}


def set_privacy(
    club: Club,
    *,
    who: str,
    visibility: str | None = None,
    names: str | None = None,
    rotate_token: bool = False,
) -> Outcome:
    if visibility is not None and visibility not in Visibility.values:
        raise InputError(
            gettext_noop("unknown visibility %(visibility)s: expected one of %(value)s"),
            visibility=repr(visibility),
            value=", ".join(Visibility.values),
        )
    if names is not None and names not in NameDisplay.values:
        raise InputError(
            gettext_noop("unknown name display %(names)s: expected one of %(value)s"),
            names=repr(names),
            value=", ".join(NameDisplay.values),
        )
    with history_write(club):
        reread(club)
        old = {"visibility": club.visibility, "names": club.names}
        club.visibility = visibility or club.visibility
        club.names = names or club.names
        if rotate_token:
            club.token = new_token()
        club.save(update_fields=["visibility", "names", "token"])
        audit.record(
            club,
            who,
            "privacy",
            club.slug,
            old=old,
            new={"visibility": club.visibility, "names": club.names, "token_rotated": rotate_token},
        )
    return Outcome(
        Text(
            gettext_noop("%(name)s: visible to %(value)s, %(value2)s"),
            name=club.name,
            value=Text(SEEN_BY[club.visibility]),
            value2=Text(NAMES_SHOWN[club.names]),
        )
    )
