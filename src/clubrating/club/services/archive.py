"""A portable club archive: one club's whole history in a file, to move it to another
database (SQLite to PostgreSQL, one server to another).

The file is gzip'd JSON lines (docs/archive.md): a header, then one line per row, table by
table in the order the foreign keys need, then an end line with the number of rows. It is
written generically over the club app's models: a model belongs to the club through the
foreign keys that lead to :class:`Club`, and a model that does not is either listed in
:data:`LEFT_OUT` with the reason or makes :func:`club_tables` fail, so a model added later
is never forgotten silently.

Primary keys are remapped on import (the target may hold other clubs); the privacy token
is never written and a new one is issued; arbiters' logins come without passwords.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils.translation import gettext_noop

from clubrating import __version__
from clubrating.club.store import audit
from clubrating.club.store.models import Club
from clubrating.club.derived.ledger import rescore_if_stale
from clubrating.club.services import archive_values as checks
from clubrating.errors import InputError, Refused, Text
from clubrating.formats.common import GZIP, PG_DUMP, SQLITE, refuse_kinds
from clubrating.words import Nn_, without_controls

FORMAT = "clubrating-club"
VERSION = 1  # the version this code writes; READERS holds one reader for every version ever written

LEFT_OUT: dict[str, str] = {
    "club.positionsearch": "the engine's search cache, shared by every club and keyed by position: "
    "each game's analysis (club.gameanalysis) is in the archive, so nothing is re-analysed",
    "club.movesattempt": (
        "the moves links' throttle: keyed hashes of client addresses, kept a day, of no club"
    ),
    "club.lineage": (
        "the database's own token for its page caches, of no club: an imported club joins the "
        "lineage of the database it is imported into"
    ),
}
"""Models of the club app deliberately not in the archive, with the reason."""

NOT_WRITTEN: dict[str, tuple[str, ...]] = {
    # the unlisted link's secret: re-issued by the import; the CPI rules the club's ledger was
    # scored by, a mark of the database's own ledger: the import checks the ledger and marks it
    "club.club": ("token", "cpi_scored_with"),
}
"""Fields never written: the import gives them anew (a new token, this version's mark)."""

ARBITERS = "auth.login"  # the table name of the arbiters' logins in the file (usernames only)


@dataclass(frozen=True)
class Table:
    """A model of the club app and how its rows are found from the club."""

    model: type[models.Model]
    to_club: str  # the ORM path from a row to its club ("tournament__club"), "" for Club itself

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    def rows(self, club: Club) -> models.QuerySet[Any]:
        manager = self.model._default_manager
        found = (
            manager.filter(pk=club.pk)
            if not self.to_club
            else manager.filter(**{self.to_club: club})
        )
        return found.order_by("pk")


def foreign_keys(model: type[models.Model]) -> list[models.ForeignKey[Any, Any]]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.ForeignKey)]


def _path_to_club(
    model: type[models.Model], seen: frozenset[type[models.Model]] = frozenset()
) -> str | None:
    if model is Club:
        return ""
    for key in foreign_keys(model):
        target = key.related_model
        if not isinstance(target, type) or target is model or target in seen:
            continue
        rest = _path_to_club(target, seen | {model})
        if rest is not None:
            return key.name + (f"__{rest}" if rest else "")
    return None


def club_tables() -> list[Table]:
    """The club app's models that hold a club's rows, parents before children.

    A model neither reaching :class:`Club` through its foreign keys nor in :data:`LEFT_OUT`
    is an error: whoever adds a model says whether it is part of a club's history."""
    tables, forgotten = [], []
    for model in apps.get_app_config("club").get_models():
        path = _path_to_club(model)
        if path is not None:
            tables.append(Table(model, path))
        elif model._meta.label_lower not in LEFT_OUT:
            forgotten.append(model._meta.label_lower)
    if forgotten:
        raise RuntimeError(
            f"models neither in the club archive nor in archive.LEFT_OUT: {', '.join(forgotten)}"
        )
    return _parents_first(tables)


def _parents_first(tables: list[Table]) -> list[Table]:
    ordered: list[Table] = []
    waiting = list(tables)
    while waiting:
        placed = {t.model for t in ordered}
        ready = [
            t
            for t in waiting
            if all(
                k.related_model in placed
                or k.related_model is t.model
                or k.related_model not in {w.model for w in waiting}
                for k in foreign_keys(t.model)
            )
        ]
        if not ready:
            raise RuntimeError(
                "the club's models' foreign keys form a cycle: "
                + ", ".join(t.label for t in waiting)
            )
        ordered.extend(ready)
        waiting = [t for t in waiting if t not in ready]
    return ordered


# --- writing ---------------------------------------------------------------------------------


def encode(value: Any) -> Any:
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    return value


def row_fields(table: Table, row: models.Model) -> dict[str, Any]:
    secret = NOT_WRITTEN.get(table.label, ())
    return {
        f.attname: encode(f.value_from_object(row))
        for f in table.model._meta.concrete_fields
        if not f.primary_key and f.name not in secret
    }


def schema_version() -> str:
    """The newest migration of the club app applied to this database."""
    names = MigrationRecorder.Migration.objects.filter(app="club").values_list("name", flat=True)
    return max(names, default="")


def archive_lines(club: Club) -> Iterator[dict[str, Any]]:
    """The archive of ``club`` line by line (header, rows, end), as JSON documents."""
    tables = club_tables()
    yield {
        "format": FORMAT,
        "version": VERSION,
        "club": club.slug,
        "clubrating": __version__,
        "schema": schema_version(),
        "tables": [t.label for t in tables] + [ARBITERS],
    }
    count = 0
    for table in tables:
        for row in table.rows(club).iterator(chunk_size=2000):
            yield {"table": table.label, "pk": row.pk, "fields": row_fields(table, row)}
            count += 1
    for username in club.arbiters.order_by("username").values_list("username", flat=True):
        yield {"table": ARBITERS, "fields": {"username": username}}
        count += 1
    yield {"end": {"rows": count}}


def export_club(club: Club, path: Path) -> int:
    """Write ``club``'s archive to ``path``, a new file (gzip'd JSON lines); the number of rows
    written. One read transaction, so the archive is one moment of the history. Written beside
    it under a temporary name and linked into place, as a backup is (club/ops/backup.py): never a
    half-written archive under the chosen name, and an existing file, a device or another
    archive, is never replaced."""
    taken = Refused(
        gettext_noop("%(target)s exists already: choose another file name"), target=str(path)
    )
    if path.exists() or path.is_symlink():
        raise taken
    count = 0
    temporary = path.with_name(f".{path.name}.partial")
    try:
        with transaction.atomic(), gzip.open(temporary, "wt", encoding="utf-8") as handle:
            for line in archive_lines(club):
                handle.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
                count += 1
        os.link(temporary, path)  # fails, rather than replaces, when someone made it meanwhile
    except FileExistsError:
        raise taken from None
    except OSError as error:
        raise InputError(
            gettext_noop("cannot write the archive: %(value)s"),
            file=str(path),
            value=error.strerror or error,
        ) from None
    finally:
        temporary.unlink(missing_ok=True)
    return count - 2


# --- reading ---------------------------------------------------------------------------------


@dataclass
class ImportReport:
    club: Club
    rows: int
    new_logins: list[str] = field(default_factory=list)
    existing_logins: list[str] = field(default_factory=list)  # linked with --arbiters link
    left_out: list[str] = field(default_factory=list)  # named by the archive, not made arbiters
    ids: dict[str, dict[int, int]] = field(default_factory=dict)  # table -> old pk -> new pk

    @property
    def lines(self) -> list[Text]:
        """The report in words, translated where it is shown: the club, then the arbiters'
        logins."""
        said = [
            Text(
                Nn_(
                    "imported club '%(name)s' (%(slug)s): %(count)s row",
                    "imported club '%(name)s' (%(slug)s): %(count)s rows",
                ),
                name=self.club.name,
                slug=self.club.slug,
                count=self.rows,
            )
        ]
        if self.new_logins:
            said.append(
                Text(
                    gettext_noop("arbiters to re-invite (no password yet): %(logins)s"),
                    logins=", ".join(self.new_logins),
                )
            )
        if self.existing_logins:
            said.append(
                Text(
                    gettext_noop(
                        "arbiters with a login here already (kept their password): %(logins)s"
                    ),
                    logins=", ".join(self.existing_logins),
                )
            )
        if self.left_out:
            said.append(
                Text(
                    gettext_noop(
                        "arbiters of the archive not made arbiters here (--arbiters invite makes "
                        "new logins, --arbiters link LOGIN names an existing one): %(logins)s"
                    ),
                    logins=", ".join(self.left_out),
                )
            )
        return said

    def __str__(self) -> str:
        return "; ".join(str(line) for line in self.lines)


def read_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The archive's lines as (line number, document); a damaged or cut file is one InputError.

    Read a line at a time, never more than :data:`~.archive_values.MAX_LINE_CHARS` of one: a
    longer line is refused with its number before the rest of it is decompressed."""
    _refuse_other_kinds(path)
    number = 0
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for number, text in enumerate(_lines(handle, path), 1):
                try:
                    document = json.loads(text, parse_constant=_no_constant)
                except json.JSONDecodeError as error:
                    raise InputError(
                        gettext_noop("not a line of a club archive (%(msg)s)"),
                        file=str(path),
                        line=number,
                        msg=error.msg,
                    ) from None
                except (
                    ValueError,
                    RecursionError,
                ) as error:  # NaN, an integer of 5,000 digits, [[[[...]]]]
                    raise InputError(
                        gettext_noop("not a line of a club archive (%(msg)s)"),
                        file=str(path),
                        line=number,
                        msg=str(error) or type(error).__name__,
                    ) from None
                if not isinstance(document, dict):
                    raise InputError(
                        gettext_noop("not a line of a club archive (expected a JSON object)"),
                        file=str(path),
                        line=number,
                    )
                yield number, _printable(document)
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as error:
        if isinstance(error, FileNotFoundError):
            raise InputError(gettext_noop("no such file"), file=str(path)) from None
        raise InputError(
            gettext_noop("the file is damaged or cut short (%(error)s)"),
            file=str(path),
            line=number + 1,
            error=error,
        ) from None


def _refuse_other_kinds(path: Path) -> None:
    """A directory, a backup or a text given for an archive, named as such (not "damaged")."""
    if path.is_dir():
        raise InputError(
            gettext_noop(
                "is a directory: expected a club archive (the gzip file export-club writes)"
            ),
            file=str(path),
        )
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError:
        return  # read_lines says it
    refuse_kinds(head, (SQLITE, PG_DUMP), str(path))
    if head and not head.startswith(GZIP[0]):
        raise InputError(
            gettext_noop("not a club archive: expected the gzip file export-club writes"),
            file=str(path),
        )


def _printable(value: Any) -> Any:
    """``value`` with the control characters of its texts removed, layout kept (tab, line ends):
    an archive is the club's own export, of rows that may have been stored before such
    characters were refused, so they are dropped rather than the club (docs/operations.md,
    "Control characters")."""
    if isinstance(value, str):
        return without_controls(value)
    if isinstance(value, dict):
        return {without_controls(key): _printable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_printable(item) for item in value]
    return value


def _lines(handle: IO[str], path: Path) -> Iterator[str]:
    number = 0
    while text := handle.readline(checks.MAX_LINE_CHARS + 1):
        number += 1
        if not text.endswith("\n"):
            if len(text) > checks.MAX_LINE_CHARS:
                raise InputError(
                    gettext_noop(
                        "a line longer than %(count)s characters: no line of a club archive is "
                        "that long"
                    ),
                    file=str(path),
                    line=number,
                    count=f"{checks.MAX_LINE_CHARS:,}",
                )
            raise EOFError("the last line is cut short")
        yield text


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON writes")


@contextmanager
def stored_times(tables: Iterable[Table]) -> Iterator[None]:
    """Keep the archive's times of creation: ``auto_now_add`` fields are set from the rows
    while the import runs, instead of from the clock."""
    fields = [
        f
        for t in tables
        for f in t.model._meta.concrete_fields
        if isinstance(f, models.DateField) and (f.auto_now_add or f.auto_now)
    ]
    saved = [(f, f.auto_now_add, f.auto_now) for f in fields]
    for f in fields:
        f.auto_now_add = f.auto_now = False
    try:
        yield
    finally:
        for f, add, now in saved:
            f.auto_now_add, f.auto_now = add, now


class Loader:
    """Rows of one archive inserted with new primary keys, foreign keys followed through
    the keys given so far; a key to the row's own table (a merged member's) is set after."""

    def __init__(self, path: Path, tables: list[Table]) -> None:
        self.path = path
        self.tables = {t.label: t for t in tables}
        self.ids: dict[str, dict[int, int]] = {t.label: {} for t in tables}
        self.later: list[
            tuple[Table, int, str, int, int]
        ] = []  # table, new pk, attname, old target, line
        self.done: set[str] = set()
        self.current: str | None = None
        self.line_of: dict[tuple[str, int], int] = {}  # (table, old pk) -> its line

    def error(self, line: int, message: str, **params: object) -> InputError:
        return InputError(message, file=str(self.path), line=line, **params)

    def table_of(self, line: int, label: Any) -> Table:
        table = self.tables.get(label) if isinstance(label, str) else None
        if table is None:
            raise self.error(
                line,
                gettext_noop("unknown table %(label)s: expected one of %(tables)s"),
                label=repr(label),
                tables=", ".join(self.tables),
            )
        if label != self.current:
            if label in self.done:
                raise self.error(
                    line,
                    gettext_noop(
                        "the rows of %(label)s come in two places: the archive is not in "
                        "table order"
                    ),
                    label=label,
                )
            if self.current is not None:
                self.done.add(self.current)
            self.current = label
        return table

    def add(self, line: int, document: dict[str, Any]) -> None:
        checks.refuse_keys(str(self.path), line, document, checks.ROW_KEYS, checks.ROW)
        table = self.table_of(line, document.get("table"))
        values, deferred = self.values(line, table, document.get("fields"))
        old = document.get("pk")
        if not isinstance(old, int):
            raise self.error(line, gettext_noop("a row without its whole-number pk"))
        if (first := self.line_of.setdefault((table.label, old), line)) != line:
            raise self.error(
                line,
                gettext_noop("%(label)s %(pk)s comes twice (also line %(first)s)"),
                label=table.label,
                pk=old,
                first=first,
            )
        row = table.model(**values)
        row.save(force_insert=True)
        self.ids[table.label][old] = row.pk
        self.later.extend((table, row.pk, attname, target, line) for attname, target in deferred)

    def values(
        self, line: int, table: Table, given: Any
    ) -> tuple[dict[str, Any], list[tuple[str, int]]]:
        if not isinstance(given, dict):
            raise self.error(line, gettext_noop("a row without its fields"))
        known = {f.attname: f for f in table.model._meta.concrete_fields if not f.primary_key}
        secret = sorted(set(given) & set(NOT_WRITTEN.get(table.label, ())))
        if secret:
            raise self.error(
                line,
                gettext_noop(
                    "%(table)s.%(field)s is never written in an archive (a new one is "
                    "issued on import): an archive holding it was not written by "
                    "clubrating"
                ),
                table=table.label,
                field=secret[0],
            )
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise self.error(
                line,
                gettext_noop(
                    "%(table)s has no field %(fields)s: the archive was written by a "
                    "newer clubrating"
                ),
                table=table.label,
                fields=", ".join(name[:40] for name in unknown[:5]),
            )
        # a column added by a later migration takes its default; one without a default was always
        # written
        missing = [
            name
            for name, f in known.items()
            if name not in given and not f.null and not f.has_default()
        ]
        if missing:
            raise self.error(
                line,
                gettext_noop("%(table)s without its column %(field)s, which every archive holds"),
                table=table.label,
                field=missing[0],
            )
        values: dict[str, Any] = {}
        deferred: list[tuple[str, int]] = []
        for attname, value in given.items():
            f = known[attname]
            if isinstance(f, models.ForeignKey) and value is not None:
                target = f.related_model._meta.label_lower  # type: ignore[union-attr]
                if target == table.label:
                    deferred.append((attname, value))
                    continue
                values[attname] = self.new_id(line, target, value)
            else:
                values[attname] = checks.checked_value(str(self.path), line, table.label, f, value)
        if table.model is Club:
            checks.club_settings_of(str(self.path), line, values)
        return values, deferred

    def new_id(self, line: int, label: str, old: Any) -> int:
        new = self.ids.get(label, {}).get(old) if isinstance(old, int) else None
        if new is None:
            raise self.error(
                line,
                gettext_noop("refers to %(label)s %(old)s, which is not before it in the archive"),
                label=label,
                old=repr(old),
            )
        return new

    def finish(self) -> None:
        for table, pk, attname, old, line in self.later:
            table.model._default_manager.filter(pk=pk).update(
                **{attname: self.new_id(line, table.label, old)}
            )


Reader = Any


def upgrade_v1(header: dict[str, Any]) -> dict[str, Any]:
    """Version 1 is read as it is; a reader of an older version would turn its lines into
    version 1's here (docs/archive.md says the rule)."""
    return header


READERS = {1: upgrade_v1}
"""A reader for every version of the format ever written, newest last."""


@dataclass(frozen=True)
class Arbiters:
    """What an import does with the archive's arbiters' logins (``import-club --arbiters``):
    nothing unless asked, since the file names them and a file can be edited."""

    invite: bool = False  # make the logins this database lacks, without a password
    link: frozenset[str] = (
        frozenset()
    )  # logins of this database named to become the club's arbiters


def import_club(path: Path, *, who: str, arbiters: Arbiters = Arbiters()) -> ImportReport:
    """Load the archive at ``path`` in one transaction: a failure leaves nothing."""
    lines = read_lines(path)
    header = _header(path, lines)
    tables = club_tables()
    loader = Loader(path, tables)
    with transaction.atomic():
        with stored_times(tables):
            count, logins = _load_rows(path, lines, loader)
        clubs = list(loader.ids["club.club"].values())
        if len(clubs) != 1:
            raise InputError(
                gettext_noop("an archive holds one club, this one %(count)s"),
                file=str(path),
                count=len(clubs),
            )
        club = Club.objects.get(pk=clubs[0])
        # a ledger scored by another version's rules is scored anew before anyone reads it
        rescore_if_stale(club)
        report = ImportReport(club, count, ids=loader.ids)
        _make_arbiters(club, logins, arbiters, report)
        audit.record(
            club,
            who,
            "import-club",
            club.slug,
            new={
                "file": path.name,
                "rows": count,
                "written_by": header.get("clubrating"),
                "new_logins": report.new_logins,
                "linked_logins": report.existing_logins,
            },
        )
    return report


def _make_arbiters(club: Club, logins: list[str], arbiters: Arbiters, report: ImportReport) -> None:
    """The archive's arbiters made as ``arbiters`` says; the others listed in the report, not
    made."""
    User = get_user_model()
    stray = sorted(arbiters.link - set(logins))
    if stray:
        raise InputError(
            gettext_noop(
                "--arbiters link %(login)s: the archive names no such arbiter (it names %(logins)s)"
            ),
            login=stray[0],
            logins=", ".join(logins) or "none",
        )
    for username in logins:
        user = User.objects.filter(username=username).first()
        if user is not None and username in arbiters.link:
            report.existing_logins.append(username)
        elif username in arbiters.link:
            raise Refused(
                gettext_noop(
                    "--arbiters link %(login)s: this database has no login %(login)s "
                    "(--arbiters invite makes new ones)"
                ),
                login=username,
            )
        elif user is None and arbiters.invite:
            user = User(username=username)
            user.set_unusable_password()
            user.save()
            report.new_logins.append(username)
        else:
            report.left_out.append(username)
            continue
        club.arbiters.add(user)


def _load_rows(
    path: Path, lines: Iterator[tuple[int, dict[str, Any]]], loader: Loader
) -> tuple[int, list[str]]:
    """Every row after the header inserted; the rows counted, the arbiters' usernames."""
    logins: list[str] = []
    ended: dict[str, Any] | None = None
    count = 0
    for number, document in lines:
        if ended is not None:
            raise InputError(gettext_noop("a line after the end line"), file=str(path), line=number)
        if "end" in document:
            ended = _end(path, number, document)
            continue
        if document.get("table") == ARBITERS:
            logins.append(_username(path, number, document, logins))
        else:
            if document.get("table") == "club.club":
                _refuse_taken_slug(path, number, document)
            loader.add(number, document)
        count += 1
    if ended is None:
        raise InputError(
            gettext_noop("the archive is cut short: no end line"), file=str(path), line=count + 2
        )
    if ended.get("rows") != count:
        raise InputError(
            gettext_noop("the end line counts %(value)s rows, the archive holds %(count)s"),
            file=str(path),
            line=ended["line"],
            value=repr(ended.get("rows"))[:40],
            count=count,
        )
    loader.finish()
    return count, logins


def _end(path: Path, line: int, document: dict[str, Any]) -> dict[str, Any]:
    checks.refuse_keys(str(path), line, document, checks.END_KEYS, checks.END)
    end = document["end"]
    if not isinstance(end, dict):
        raise InputError(
            gettext_noop('the end line without its count: expected {"end": {"rows": N}}'),
            file=str(path),
            line=line,
        )
    checks.refuse_keys(str(path), line, end, checks.END_FIELDS, checks.END)
    return {**end, "line": line}


def _header(path: Path, lines: Iterator[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    first = next(lines, None)
    if first is None:
        raise InputError(gettext_noop("an empty file, not a club archive"), file=str(path), line=1)
    _, header = first
    if header.get("format") != FORMAT:
        raise InputError(
            gettext_noop('not a club archive: expected a header with "format": "%(FORMAT)s"'),
            file=str(path),
            line=1,
            FORMAT=FORMAT,
        )
    version = header.get("version")
    reader = READERS.get(version) if isinstance(version, int) else None
    if reader is None:
        raise InputError(
            gettext_noop(
                "archive version %(version)s: this clubrating reads versions "
                "%(value)s (a newer archive needs a newer clubrating)"
            ),
            file=str(path),
            line=1,
            version=repr(version)[:40],
            value=", ".join(map(str, READERS)),
        )
    checks.refuse_keys(str(path), 1, header, checks.HEADER_KEYS, checks.HEADER)
    return reader(header)


def _refuse_taken_slug(path: Path, line: int, document: dict[str, Any]) -> None:
    fields = document.get("fields")
    slug = fields.get("slug") if isinstance(fields, dict) else None
    if isinstance(slug, str) and Club.objects.filter(slug=slug).exists():
        raise Refused(
            gettext_noop(
                "%(path)s:%(line_number)s: a club with the short "
                "name %(slug)s exists already in this database"
            ),
            path=path,
            line_number=line,
            slug=repr(slug),
        )


def _username(path: Path, line: int, document: dict[str, Any], seen: list[str]) -> str:
    """The login's name, as ``arbiter add`` takes one (Django's username rules, 150 characters)."""
    checks.refuse_keys(str(path), line, document, checks.LOGIN_KEYS, checks.LOGIN)
    fields = document.get("fields")
    if not isinstance(fields, dict):
        raise InputError(
            gettext_noop("an arbiter's login without a username"), file=str(path), line=line
        )
    checks.refuse_keys(str(path), line, fields, checks.LOGIN_FIELDS, checks.LOGIN)
    field = get_user_model()._meta.get_field("username")
    username = checks.checked_value(str(path), line, ARBITERS, field, fields.get("username"))
    if not username or username in seen:
        raise InputError(
            gettext_noop("an arbiter's login without a username, or named twice"),
            file=str(path),
            line=line,
        )
    return str(username)


def _arbiter_login(club: Club, username: str) -> bool:
    """Make ``username`` an arbiter of ``club``; True if the login is new (no password:
    re-invited)."""
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    created = user is None
    if user is None:
        user = User(username=username)
        user.set_unusable_password()
        user.save()
    club.arbiters.add(user)
    return created
