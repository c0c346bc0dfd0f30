"""Background jobs of the club: the engine analysis of stored games (:mod:`.analysis`),
the Django tasks that run it (:mod:`.tasks`), where a tournament's analysis stands (:mod:`.status`),
the RQ workers that share it over many
machines (:mod:`.rq_workers`) and the leases both kinds of job keep (:mod:`.leases`).
"""
