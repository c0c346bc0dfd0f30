"""The RQ jobs' old dotted names, for jobs queued in Redis before the jobs moved to
:mod:`clubrating.club.jobs.rq_workers`: RQ stores a job's function and its failure callback
by name. (The database backend's stored names are rewritten by a migration instead.)"""

from clubrating.club.jobs.rq_workers import analyse_game, game_failed

__all__ = ["analyse_game", "game_failed"]
