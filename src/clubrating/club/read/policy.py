"""A club's rating policy: its settings turned into the pure core's Policy."""

from __future__ import annotations

from clubrating.club.store.models import Club
from clubrating.rating.policy import Policy, club_policy, fide_policy


def policy_for(club: Club) -> Policy:
    if club.policy == "fide":
        return fide_policy()
    return club_policy(
        start_rating=club.start_rating,
        k_new=club.k_new,
        k_established=club.k_established,
        k_new_games=club.k_new_games,
        provisional_below=club.provisional_games,
    )
