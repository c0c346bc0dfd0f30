"""clubrating: a chess club's own rating list and a per-game Chess Performance Index."""

__version__ = "0.1.0"
