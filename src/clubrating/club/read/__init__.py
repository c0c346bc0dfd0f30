"""Reads of the stored rows, one module per subject: the club, its members, its
tournaments, a player's history, the audit log, the name proposals, the rating policy."""
