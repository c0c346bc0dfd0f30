"""The CPI presets fitted on real rated games (issue 11), written by
``benchmarks/fit_presets.py`` from ``clubrating calibrate``: do not edit by hand;
``acceptance/test_cpi_fit.py`` refits them and fails when they differ.
"""

from __future__ import annotations

FITTED: dict[str, dict[str, float]] = {
    'lichess-blitz': {
        'E': 30.7216,
        'T': 0.0,
        'O': 3.3508,
        'B1': 36.0321,
        'B2': 26.5426,
        'B3': 18.353,
        'M1': 0.0,
        'M2': 0.0,
        'M3': 0.0,
        'H': 0.0,
        'Br': 3.3412,
        'win': -4.4849,
        'draw': -0.3162,
        'loss': 0.0,
        'renormalise': 1.0,
        'min_plies': 20.0,
        'window': 10.0,
        'elo_alpha': 27.5954,
        'elo_beta': 0.009281,
        'elo_sigma': 5.607,
        'elo_mean': 1693.2,
        'elo_sd': 548.2,
        'elo_floor': 168.0,
        'decay': 50.0,
        'mean_E': 0.7293,
        'mean_T': 0.5,
        'mean_O': 0.8336,
        'mean_B1': 0.3736,
        'mean_B2': 0.1847,
        'mean_B3': 0.0998,
        'mean_M1': 0.7337,
        'mean_M2': 0.4054,
        'mean_M3': 0.4857,
    },
    'fide-classical': {
        'E': 52.9402,
        'T': 6.3847,
        'O': 3.2459,
        'B1': 16.4015,
        'B2': 13.1643,
        'B3': 22.8635,
        'M1': 0.0,
        'M2': 0.0,
        'M3': 0.0,
        'H': 0.0,
        'Br': 2.6158,
        'win': 1.9684,
        'draw': 2.6649,
        'loss': 0.0,
        'renormalise': 1.0,
        'min_plies': 20.0,
        'window': 10.0,
        'elo_alpha': 49.9527,
        'elo_beta': 0.00846,
        'elo_sigma': 4.4507,
        'elo_mean': 2105.3,
        'elo_sd': 359.4,
        'elo_floor': 100.8,
        'decay': 50.0,
        'mean_E': 0.8882,
        'mean_T': 0.5811,
        'mean_O': 0.9103,
        'mean_B1': 0.4803,
        'mean_B2': 0.1904,
        'mean_B3': 0.0972,
        'mean_M1': 0.7143,
        'mean_M2': 0.8182,
        'mean_M3': 0.95,
    },
}

POOLS: dict[str, str] = {'lichess-blitz': 'lichess blitz ratings of 2018', 'fide-classical': 'FIDE ratings, classical over the board'}

PROVENANCE: dict[str, dict[str, object]] = {
    'lichess-blitz': {'clubrating': '0.1.0', 'definitions': 2, 'engine': {'name': 'Stockfish', 'version': '15.1', 'nodes': 10000, 'multipv': 3, 'hash_mb': 4, 'threads': 1}, 'book': '/usr/share/games/gnuchess/book.bin', 'games': 600, 'sides': 1200, 'left_out': {}, 'files': ['lichess-blitz.pgn'], 'fitted': '2026-12-01', 'command': 'clubrating calibrate lichess-blitz.pgn --pool lichess-2018 --time-control blitz --nodes 10000 --min-plies 20 --window 10 --folds 5'},
    'fide-classical': {'clubrating': '0.1.0', 'definitions': 2, 'engine': {'name': 'Stockfish', 'version': '15.1', 'nodes': 10000, 'multipv': 3, 'hash_mb': 4, 'threads': 1}, 'book': '/usr/share/games/gnuchess/book.bin', 'games': 475, 'sides': 950, 'left_out': {'rapid, not classical': 1, 'without both ratings': 10}, 'files': ['lezcano_memorial_2025_broadcast.pgn', 'twic-classical.pgn'], 'fitted': '2026-12-01', 'command': 'clubrating calibrate lezcano_memorial_2025_broadcast.pgn twic-classical.pgn --pool fide --time-control classical --nodes 10000 --min-plies 20 --window 10 --folds 5'},
}

CROSS_VALIDATION: dict[str, dict[str, object]] = {
    'lichess-blitz': {'folds': 5, 'per_game': {'n': 1200, 'mae': 335.2, 'rmse': 408.6, 'r': 0.666}, 'per_10_games': {'n': 100, 'mae': 193.6, 'rmse': 246.5, 'r': 0.895}, 'delta_r': 0.666, 'acpl_r': -0.567, 'spec_delta_r': 0.379, 'interval_cover_10': 0.7, 'floor': 168.0},
    'fide-classical': {'folds': 5, 'per_game': {'n': 950, 'mae': 240.7, 'rmse': 303.0, 'r': 0.538}, 'per_10_games': {'n': 76, 'mae': 144.3, 'rmse': 180.9, 'r': 0.842}, 'delta_r': 0.541, 'acpl_r': -0.519, 'spec_delta_r': 0.367, 'interval_cover_10': 0.684, 'floor': 100.8},
}
