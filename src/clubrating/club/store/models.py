"""The club's stored history and what is derived from it.

Stored history (the single source of truth): clubs, members, tournaments with
their entries (names as typed), games and byes, name links, merges, the audit
log. Derived (thrown away and rebuilt by the pure core, never edited in place):
:class:`RatingChange` and :class:`CurrentRating`.

Privacy (spec R18): players are names and results only. No date of birth,
address, phone or e-mail is stored for a player.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubrating.errors import Refused
from clubrating.formats.records import TimeControl
from clubrating.words import N_


def new_token() -> str:
    """An unguessable link token: 160 random bits (at least 128 are needed against guessing)."""
    return secrets.token_urlsafe(20)


class Visibility(models.TextChoices):
    """Who can see the club's pages (spec R15)."""

    ARBITER = "arbiter", _("Only the arbiters")
    UNLISTED = "unlisted", _("Anyone with the link (not indexed)")
    PUBLIC = "public", _("Public")


class NameDisplay(models.TextChoices):
    """Full names or initials (spec R16)."""

    FULL = "full", _("Full names")
    INITIALS = "initials", _("Initials")


class Club(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=60, unique=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.ARBITER
    )
    token = models.CharField(max_length=64, default=new_token, unique=True)
    names = models.CharField(max_length=10, choices=NameDisplay.choices, default=NameDisplay.FULL)
    # Rating policy (spec R3, R4, R6): settings of the club, not constants.
    policy = models.CharField(max_length=10, default="club")  # "club" or "fide"
    start_rating = models.FloatField(default=1200.0)
    k_new = models.FloatField(default=40.0)
    k_established = models.FloatField(default=20.0)
    k_new_games = models.PositiveIntegerField(default=20)
    provisional_games = models.PositiveIntegerField(default=5)
    separate_lists = models.BooleanField(default=False)  # one list per time control
    time_zone = models.CharField(
        max_length=64, blank=True, default=""
    )  # IANA name; "": the server's (zones.py)
    inactive_months = models.PositiveIntegerField(
        default=12
    )  # listed apart without a rated game for this long; 0: never
    moves_link_days = models.PositiveIntegerField(
        default=14
    )  # a board's moves link works this many days
    list_day = models.PositiveIntegerField(
        default=1
    )  # the day of the month whose start a monthly list stands at (docs/ratings.md)
    language = models.CharField(
        max_length=8, default="en"
    )  # of its pages when the visitor chose none (web/language.py)
    cpi_start = models.FloatField(default=0.0)
    cpi_weights = models.JSONField(default=dict, blank=True)  # overrides of the C1 weights
    # derived: the CPI rules (clubrating.cpi.version.SCORING_VERSION) the club's stored ledger
    # was scored by, "" unknown; a command's start re-scores a club whose mark is not this
    # version's (club.derived.ledger.rescore_stale_clubs)
    cpi_scored_with = models.CharField(max_length=16, blank=True, default="")
    arbiters = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="clubs", blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A person of the club. A merged member points at the member it was merged into."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=200)
    junior = models.BooleanField(default=False)  # initials by default (R16)
    full_name_consent = models.BooleanField(default=False)  # R17: recorded by the arbiter
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="absorbed"
    )
    # The day the member left the club: off the current list and the evening's registration,
    # history kept (docs/ratings.md, "Members who leave"); None while a member.
    left = models.DateField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["club", "name"])]

    def __str__(self) -> str:
        return self.name

    def active(self) -> Member:
        """The member this one stands for now: itself, or where its merges lead.

        Merges never form a cycle (services.merge checks under the club's lock);
        should a database hold one all the same, this says so instead of looping.
        """
        member, walked = self, [self.pk]
        while member.merged_into is not None:
            member = member.merged_into
            if member.pk in walked:
                raise merge_cycle([*walked, member.pk])
            walked.append(member.pk)
        return member


def merge_cycle(walked: Sequence[int]) -> Refused:
    """The error for merges that come back to where they started (never made by the services)."""
    start = walked.index(walked[-1])
    loop = " -> ".join(str(m) for m in walked[start:])
    return Refused(
        N_(
            "the stored merges form a cycle (members %(loop)s): undo one of them "
            "(clubrating unmerge %(member)s)"
        ),
        loop=loop,
        member=walked[start],
    )


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")


class Tournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=200)
    date = models.DateField()
    sequence = models.IntegerField(default=0)  # order of events on the same day
    time_control = models.CharField(
        max_length=10,
        choices=[(tc.value, tc.value) for tc in TimeControl],
        default=TimeControl.STANDARD.value,
    )
    kind = models.CharField(max_length=10, default="chess")  # "chess" or "bughouse" (never rated)
    has_juniors = models.BooleanField(default=False)
    status = models.CharField(
        max_length=10, choices=TournamentStatus.choices, default=TournamentStatus.DRAFT
    )
    rounds = models.PositiveIntegerField(default=0)
    source_name = models.CharField(max_length=255, blank=True)
    source_format = models.CharField(
        max_length=16, blank=True
    )  # "trf", "pgn", "csv", "typed", "simulated"
    content_hash = models.CharField(max_length=64, blank=True)
    trf_headers = models.JSONField(
        default=list, blank=True
    )  # [[code, text], ...]: the file's TRF header lines
    teams = models.JSONField(
        default=list, blank=True
    )  # [[name, [start numbers by board]], ...]: TRF 013 lines
    created = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["date", "sequence", "id"]
        indexes = [models.Index(fields=["club", "status", "date", "sequence"])]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "content_hash"],
                name="one_import_per_file",
                condition=~models.Q(content_hash=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def is_published(self) -> bool:
        return self.status == TournamentStatus.PUBLISHED

    @property
    def is_rated(self) -> bool:
        return self.kind != "bughouse"


def rating_list_of(club: Club, tournament: Tournament) -> str:
    """The rating list a tournament counts in: its time control, or one list for every time control
    (the club's ``separate_lists`` off). The one definition the layers above read."""
    return tournament.time_control if club.separate_lists else TimeControl.STANDARD.value


class Entry(models.Model):
    """A name as written in one tournament, linked to a member only by the arbiter (R10)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    points = models.IntegerField(null=True, blank=True)  # half-points written in the file
    rank = models.PositiveIntegerField(
        null=True, blank=True
    )  # the place written in the file (TRF 86-89)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_entry_per_number"),
            # one member is one name of a tournament (R10): services.link checks it under the
            # club's lock, the database refuses it whatever writes (migration 0006)
            models.UniqueConstraint(fields=["tournament", "member"], name="one_entry_per_member"),
        ]


class Game(models.Model):
    """A pairing. Points are half-points; unplayed games are kept and never rated (R8)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveIntegerField()
    board = models.PositiveIntegerField(null=True, blank=True)
    white = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="white_games")
    black = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="black_games")
    white_points = models.PositiveSmallIntegerField()
    black_points = models.PositiveSmallIntegerField()
    played = models.BooleanField(default=True)
    unplayed = models.CharField(max_length=16, blank=True)  # formats.records.Unplayed value
    colours_known = models.BooleanField(default=True)
    moves = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "round", "board", "id"]


class Bye(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="byes")
    round = models.PositiveIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")
    points = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8)  # formats.records.ByeKind value

    class Meta:
        ordering = ["tournament", "round", "id"]


class Merge(models.Model):
    """Member ``absorbed`` is the same person as ``into`` (R12: reversible)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="merges")
    absorbed = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="merges_absorbed")
    into = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="merges_into")
    created = models.DateTimeField(auto_now_add=True)
    undone = models.DateTimeField(null=True, blank=True)


class Distinct(models.Model):
    """The arbiter said members ``one`` and ``other`` are two people (namesakes, twins):
    no longer listed as possibly one person. ``one`` has the lower id."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="distinct_pairs")
    one = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["one", "other"], name="distinct_pair_once")]


class InitialEntry(models.Model):
    """A row of the club's initial list: a rating carried over from before its first
    tournament (stored history, replayed as the players' start). Its name is linked to
    a member by the arbiter, as a tournament's names are (R10); only linked rows count."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="initial_list")
    number = models.PositiveIntegerField()  # the row's place in the list
    name = models.CharField(max_length=200)
    rating = models.FloatField()
    games = models.PositiveIntegerField(null=True, blank=True)  # None: the list did not say
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.PROTECT, related_name="initial_entries"
    )

    class Meta:
        ordering = ["club", "number"]
        constraints = [
            models.UniqueConstraint(fields=["club", "number"], name="one_initial_row_per_number"),
            models.UniqueConstraint(fields=["club", "member"], name="one_initial_row_per_member"),
        ]


class RatingChange(models.Model):
    """Derived: one member's rating change in one tournament (rebuilt, never edited)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rating_changes"
    )
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_changes")
    rating_list = models.CharField(max_length=10)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    k = models.FloatField()
    games_before = models.PositiveIntegerField()
    games_rated = models.PositiveIntegerField()
    score_rated = models.PositiveIntegerField()  # half-points
    expected = models.FloatField()
    provisional_before = models.BooleanField()

    class Meta:
        ordering = ["tournament", "member"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "member"], name="one_change_per_member")
        ]

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


class CurrentRating(models.Model):
    """Derived: where each member stands now on each rating list."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="current_ratings")
    rating_list = models.CharField(max_length=10)
    rating = models.FloatField()
    games = models.PositiveIntegerField()
    provisional = models.BooleanField()
    last_played = models.DateField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["member", "rating_list"], name="one_rating_per_list")
        ]
        # the federation list's order (club/read/federation.py): a page is read from its place
        indexes = [models.Index(fields=["rating_list", "-rating", "member"], name="rating_order")]


class FrozenList(models.Model):
    """A month's rating list as it stood at the start of its day (the club's list day of that
    month when published), published once and never changed by a later correction
    (docs/ratings.md, "Monthly lists"): stored, not derived."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="frozen_lists")
    rating_list = models.CharField(max_length=10)
    month = models.DateField()  # the first day of the month
    day = models.DateField()  # the day the list stands at: it holds the games before it
    published_at = models.DateTimeField()
    published_by = models.CharField(max_length=150)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "rating_list", "month"], name="one_frozen_list_a_month"
            )
        ]


class FrozenRow(models.Model):
    """A member's line of a frozen list, as the list showed it that day (the name included)."""

    frozen_list = models.ForeignKey(FrozenList, on_delete=models.CASCADE, related_name="rows")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="frozen_rows")
    position = models.PositiveIntegerField()  # the line's place in the list, from 1
    rank = models.PositiveIntegerField(null=True)  # None: provisional or inactive, not ranked
    name = models.CharField(max_length=200)
    rating = models.FloatField()
    games = models.PositiveIntegerField()
    provisional = models.BooleanField()
    inactive = models.BooleanField()
    last_played = models.DateField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["frozen_list", "member"], name="one_frozen_row"),
            models.UniqueConstraint(fields=["frozen_list", "position"], name="one_frozen_place"),
        ]


class RebuildLog(models.Model):
    """Each rebuild, with whether the stored derived data matched the replay (R14)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rebuilds")
    when = models.DateTimeField(auto_now_add=True)
    reason = models.CharField(max_length=200)  # English, as written (old rows have only this)
    reason_text = models.JSONField(
        null=True, blank=True
    )  # the same sentence to translate (audit_text.stored)
    tournaments = models.PositiveIntegerField()
    changes_differing = models.PositiveIntegerField()
    ratings_changed = models.PositiveIntegerField()
    expected_difference = models.BooleanField(
        default=True
    )  # False for a manual check: a difference is a bug

    class Meta:
        indexes = [
            models.Index(fields=["club", "id"])
        ]  # the newest rebuild of a club (page cache key)


class AuditEntry(models.Model):
    """Who changed the history, when, from what to what."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit")
    when = models.DateTimeField(auto_now_add=True)
    who = models.CharField(max_length=150)
    action = models.CharField(max_length=40)
    target = models.CharField(max_length=200)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    summary = models.CharField(
        max_length=300, blank=True
    )  # English: the API, the CSV, the logs, old rows
    summary_text = models.JSONField(
        null=True, blank=True
    )  # the same sentence to translate (audit_text.stored)

    class Meta:
        ordering = ["-when", "-id"]
        indexes = [
            models.Index(fields=["club", "id"])
        ]  # the newest audit entry of a club (page cache key)


class Lineage(models.Model):
    """One row: a random token drawn when the database is made and drawn anew by every restore
    of a backup (club/ops/backup.py). A restore takes the ids of the audit, rebuild and ledger
    rows back to the backup's, so ids seen before it come again after it; the caches' keys
    (web/access.history_version) hold this token beside those ids, and no key of the lost
    lineage is ever made again (docs/operations.md, "The page cache")."""

    token = models.CharField(max_length=32)

    @staticmethod
    def sql() -> str:
        """The current token as a scalar subquery, for keys read in one plain statement."""
        return f"(SELECT MAX(token) FROM {Lineage._meta.db_table})"


# --- the Chess Performance Index (spec C1-C5) ---------------------------------------------


class GameAnalysis(models.Model):
    """Stored history of a kind: the engine's per-ply facts of one game, with the engine
    and limits that produced them. Re-scoring with new weights never re-runs the engine."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    engine = models.CharField(max_length=100)
    engine_version = models.CharField(max_length=100, blank=True)
    nodes = models.PositiveIntegerField()
    multipv = models.PositiveSmallIntegerField(default=3)
    facts = models.JSONField()  # clubrating.cpi.facts.GameFacts.to_dict()
    analysed_at = models.DateTimeField(auto_now_add=True)
    # derived: the scoring key (club.derived.ledger.scoring_key) under which the game was too
    # short to score; it has no ledger row then, and a rebuild under the same key does not score
    # it again
    unscored_with = models.CharField(max_length=16, blank=True, default="")


class PositionSearch(models.Model):
    """The search cache: one engine search per position and engine settings, for every game."""

    position = models.CharField(max_length=255)
    settings = models.CharField(max_length=255)
    lines = models.TextField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["position", "settings"], name="one_search_per_position")
        ]


class CpiEntry(models.Model):
    """Derived: one member's ΔCPI in one analysed game and the CPI after it (rebuilt, never
    edited)."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="cpi_entries")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cpi_entries")
    ordinal = models.PositiveIntegerField()  # position in the club's ledger
    color = models.CharField(max_length=5)
    cpi_before = models.FloatField()
    delta = models.FloatField()
    cpi_after = models.FloatField()
    factors = models.JSONField(default=dict)  # the player's factors in this game, for display

    class Meta:
        ordering = ["ordinal", "id"]
        constraints = [
            models.UniqueConstraint(fields=["member", "game"], name="one_cpi_entry_per_game")
        ]


# --- tonight's evening: a draft tournament clubrating pairs itself -----------------


class Evening(models.Model):
    """A draft tournament paired here, round by round (club.services.evening); published like an
    import."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="evening")
    planned_rounds = models.PositiveSmallIntegerField()
    paired_rounds = models.PositiveSmallIntegerField(default=0)
    system = models.CharField(
        max_length=20, default="swiss"
    )  # tournament.roundrobin.PairingSystem value
    keizer = models.JSONField(
        default=dict, blank=True
    )  # a Keizer season: its rules, how it is rated, the evening it continues (services/keizer)


class EveningPlayer(models.Model):
    """A registered name of the evening: from which round it is paired, until which."""

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="evening")
    joined_round = models.PositiveSmallIntegerField(default=1)  # a late entry is paired from here
    withdrawn_from = models.PositiveSmallIntegerField(
        null=True, blank=True
    )  # paired no more from here
    seed_rating = models.IntegerField(null=True, blank=True)  # the club rating it was seeded by


class EveningBoard(models.Model):
    """A pairing of the evening; its :class:`Game` is stored when the result is entered."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="evening_boards"
    )
    round = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    white = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    black = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="evening_board"
    )

    class Meta:
        ordering = ["tournament", "round", "board"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "board"], name="one_evening_board"
            )
        ]


# --- moves links: players enter their own game's moves (club.moves_links) -------------


class MovesLink(models.Model):
    """A capability link to enter one board's moves, issued to one of its players. Only the
    SHA-256 of its token is stored: the token itself is shown once, on the slips printed when
    it was made. A link made before links were issued per player has no player: either side."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="moves_links")
    round = models.PositiveIntegerField()
    board = models.PositiveIntegerField(null=True, blank=True)
    evening_board = models.ForeignKey(
        EveningBoard, null=True, blank=True, on_delete=models.CASCADE, related_name="moves_links"
    )  # an evening's board: its game comes later
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="moves_links"
    )
    token_hash = models.CharField(max_length=64, unique=True)  # hex SHA-256 of the token
    created = models.DateTimeField()
    expires = models.DateTimeField()
    revoked = models.DateTimeField(null=True, blank=True)
    player = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )  # the player it was issued to; None: either side
    colour = models.CharField(max_length=5, blank=True)  # "white" / "black" as printed on the slip
    device = models.CharField(
        max_length=32, blank=True
    )  # the device that first opened it (a keyed hash
    # of a random cookie, club.moves_links); "": none yet

    class Meta:
        ordering = ["tournament", "round", "board", "id"]


class SubmissionReason(models.TextChoices):
    """Why a players' submission was accepted or set aside (shown on the arbiter's game page)."""

    BOTH_SIDES = "both-sides", _("White's and Black's moves agreed")
    WITH_RESULT = "with-result", _("White's and Black's moves agreed; stored with the result")
    ARBITER = "arbiter", _("picked by the arbiter")
    OTHER_ACCEPTED = "other-accepted", _("another submission was accepted")
    PAIRING_CHANGED = (
        "pairing-changed",
        _("the pairing changed: its sender no longer plays this game"),
    )
    RESULTS_AGREED = "results-agreed", _("White's and Black's results agreed: entered")
    RESULT_ENTERED = "result-entered", _("the game's result was entered")


class MovesSubmission(models.Model):
    """Moves a player typed through a moves link; nothing of it is in the game until accepted."""

    link = models.ForeignKey(MovesLink, on_delete=models.CASCADE, related_name="submissions")
    text = models.TextField()  # as typed
    moves = models.TextField()  # the SAN it reads as (formats.movetext): compared
    plies = models.PositiveIntegerField()
    created = models.DateTimeField()
    state = models.CharField(
        max_length=10, default="pending"
    )  # pending, accepted, set-aside, superseded
    side = models.CharField(
        max_length=5, blank=True
    )  # "white" / "black" who sent it; "": a link of either side
    reason = models.CharField(max_length=16, blank=True, choices=SubmissionReason.choices)
    device = models.CharField(
        max_length=32, blank=True
    )  # the device that sent it (as MovesLink.device)

    class Meta:
        ordering = ["created", "id"]


class ResultSubmission(models.Model):
    """A result a player sent through their moves link: nothing of it is on the board until
    White's and Black's agree (club.services.phone_results) or the arbiter enters the result."""

    link = models.ForeignKey(MovesLink, on_delete=models.CASCADE, related_name="results")
    result = models.CharField(max_length=7)  # GameResult's value: 1-0, 0-1 or 1/2-1/2
    created = models.DateTimeField()
    state = models.CharField(max_length=10, default="pending")  # pending, accepted, superseded
    side = models.CharField(max_length=5, blank=True)  # as MovesSubmission.side
    reason = models.CharField(max_length=16, blank=True, choices=SubmissionReason.choices)
    device = models.CharField(max_length=32, blank=True)  # as MovesSubmission.device

    class Meta:
        ordering = ["created", "id"]


class MovesAttempt(models.Model):
    """One submission's throttle keys: the link, and a keyed hash of the client address (never
    the address itself). Kept a day (club.moves_links.THROTTLE_WINDOW), then deleted."""

    key = models.CharField(max_length=64, db_index=True)
    when = models.DateTimeField(db_index=True)
