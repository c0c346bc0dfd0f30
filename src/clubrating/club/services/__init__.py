"""Every write to a club's history: import, link, publish, correct, delete, merge.

Each service runs in one transaction together with the rebuild it causes
(spec R13, :func:`clubrating.club.derived.rebuild.rebuild_derived`) and leaves an audit entry
(who, when, old -> new). Views and commands call these; they never write
through the ORM themselves.

Every write to a club's history holds the club's lock
(:func:`clubrating.club.store.locking.history_write`) and reads again, under the
lock, what it checks: two arbiters (or an arbiter and a command) writing at
once wait for each other, and the second one's checks see the first's change.

Split by subject: :mod:`.clubs`, :mod:`.tournaments`, :mod:`.names`,
:mod:`.members`, :mod:`.history`, and the others of this folder; callers import
each name from the module that defines it (the lookups from
:mod:`clubrating.club.read`).
"""
