"""clubrating.analysis: the engine shell (python-chess + a UCI engine -> per-ply facts).

Public entry points:
- :func:`clubrating.analysis.runner.analyse_games` (many games, ``jobs`` engine processes);
- :class:`clubrating.analysis.runner.Analyzer` (one engine, for a background worker);
- :func:`clubrating.analysis.analyzer.analyse_game` (one game, any :class:`Searcher`);
- :class:`clubrating.analysis.cache.SearchCache` and its Memory / SQLite implementations.
"""
