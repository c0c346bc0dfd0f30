"""How long a background job's worker may stay silent, and how often a job may lose its
worker: shared by the database backend's jobs (:mod:`clubrating.club.jobs.tasks`)
and the RQ jobs (:mod:`clubrating.club.jobs.rq_workers`), so neither imports the other for them."""

from __future__ import annotations

import datetime as dt

from clubrating.analysis.defaults import env_seconds

# A job whose worker has not renewed it for LEASE is taken as lost. The worker renews it every
# LEASE / 5 from a thread of its own, so only a dead (or frozen) worker loses it; 5 minutes let
# a machine that paused (a suspended laptop, a swapping server) come back without a second run.
LEASE = dt.timedelta(minutes=5)
LEASE_ENV = "CLUBRATING_JOB_LEASE"  # seconds
MAX_ATTEMPTS = 3  # a job that killed its worker three times (say, out of memory) is not tried again


def lease() -> dt.timedelta:
    """LEASE, or $CLUBRATING_JOB_LEASE seconds."""
    seconds = env_seconds(LEASE_ENV)
    return LEASE if seconds is None else dt.timedelta(seconds=seconds)


class JobLost(Exception):
    """Recorded as the failure of a job whose workers died MAX_ATTEMPTS times."""
