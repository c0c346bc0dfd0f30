"""What the services tell the layers above them, without importing them.

The services send these inside their transaction; the tasks layer connects its
receivers when Django starts (:meth:`clubrating.club.apps.ClubConfig.ready`) and
queues its jobs for after the commit, so a rolled-back write queues nothing.
"""

from __future__ import annotations

from django.dispatch import Signal

tournament_published = Signal()
"""Sent by :func:`clubrating.club.services.tournaments.publish` with ``tournament=`` (the published
:class:`~clubrating.club.store.models.Tournament`), inside the transaction that publishes it."""

moves_attached = Signal()
"""Sent by :mod:`clubrating.club.services.moves` with ``tournament=`` (a published
:class:`~clubrating.club.store.models.Tournament` whose games just got moves), inside the
transaction that stores them: the new moves are analysed as a publish's are."""
