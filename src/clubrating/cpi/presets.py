"""The CPI presets fitted on real rated games, written by
``benchmarks/fit_presets.py`` from ``clubrating calibrate``: do not edit by hand;
``acceptance/test_cpi_fit.py`` refits them and fails when they differ.
"""

from __future__ import annotations

FITTED: dict[str, dict[str, float]] = {
    'lichess-blitz': {
        'E': 34.1,
        'T': 0.0,
        'O': 3.0717,
        'B1': 32.3957,
        'B2': 26.066,
        'B3': 18.4121,
        'M1': 0.0,
        'M2': 0.9545,
        'M3': 0.0,
        'H': 0.0,
        'Br': 4.8433,
        'win': -5.6369,
        'draw': -1.4786,
        'loss': 0.0,
        'renormalise': 1.0,
        'min_plies': 20.0,
        'window': 10.0,
        'elo_alpha': 15.0769,
        'elo_beta': 0.010551,
        'elo_sigma': 6.0881,
        'elo_mean': 1693.2,
        'elo_sd': 548.2,
        'elo_floor': 144.7,
        'decay': 50.0,
        'e_scale': 50.0,
        'e_cap': 500.0,
        'mean_E': 0.4077,
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
        'E': 27.735,
        'T': 6.7357,
        'O': 2.6129,
        'B1': 29.4145,
        'B2': 24.4868,
        'B3': 24.0151,
        'M1': 0.0,
        'M2': 0.0,
        'M3': 0.0,
        'H': -0.147,
        'Br': 1.3553,
        'win': -1.0629,
        'draw': 0.0293,
        'loss': 0.0,
        'renormalise': 1.0,
        'min_plies': 20.0,
        'window': 10.0,
        'elo_alpha': 27.4738,
        'elo_beta': 0.009075,
        'elo_sigma': 5.1679,
        'elo_mean': 2162.4,
        'elo_sd': 370.3,
        'elo_floor': 129.9,
        'decay': 50.0,
        'e_scale': 50.0,
        'e_cap': 500.0,
        'mean_E': 0.6904,
        'mean_T': 0.5788,
        'mean_O': 0.9162,
        'mean_B1': 0.5122,
        'mean_B2': 0.1867,
        'mean_B3': 0.0994,
        'mean_M1': 0.7778,
        'mean_M2': 0.8125,
        'mean_M3': 0.8571,
    },
}

POOLS: dict[str, str] = {'lichess-blitz': 'lichess blitz ratings of 2018', 'fide-classical': 'FIDE ratings, classical over the board'}

PROVENANCE: dict[str, dict[str, object]] = {
    'lichess-blitz': {'clubrating': '0.1.0', 'definitions': 3, 'engine': {'name': 'Stockfish', 'version': '15.1', 'nodes': 10000, 'multipv': 3, 'hash_mb': 4, 'threads': 1}, 'book': '/usr/share/games/gnuchess/book.bin', 'games': 600, 'sides': 1200, 'left_out': {}, 'files': ['lichess-blitz.pgn'], 'fitted': '2026-12-04', 'command': 'clubrating calibrate lichess-blitz.pgn --pool lichess-2018 --time-control blitz --nodes 10000 --min-plies 20 --window 10 --folds 5'},
    'fide-classical': {'clubrating': '0.1.0', 'definitions': 3, 'engine': {'name': 'Stockfish', 'version': '15.1', 'nodes': 150000, 'multipv': 3, 'hash_mb': 4, 'threads': 1}, 'book': '/usr/share/games/gnuchess/book.bin', 'games': 988, 'sides': 1972, 'left_out': {'rapid, not classical': 1, 'without both ratings': 10}, 'files': ['lezcano_memorial_2025_broadcast.pgn', 'lunahernandez_games_clk_eval.pgn', 'twic-classical.pgn'], 'fitted': '2026-12-04', 'command': 'clubrating calibrate lezcano_memorial_2025_broadcast.pgn lunahernandez_games_clk_eval.pgn twic-classical.pgn --pool fide --time-control classical --nodes 150000 --min-plies 20 --window 10 --folds 5'},
}

CROSS_VALIDATION: dict[str, dict[str, object]] = {
    'lichess-blitz': {'folds': 5, 'per_game': {'n': 1200, 'mae': 325.1, 'rmse': 400.4, 'r': 0.683}, 'per_10_games': {'n': 100, 'mae': 180.4, 'rmse': 225.6, 'r': 0.911}, 'delta_r': 0.682, 'acpl_r': -0.567, 'spec_delta_r': 0.379, 'interval_cover_10': 0.7, 'floor': 144.7},
    'fide-classical': {'folds': 5, 'per_game': {'n': 1972, 'mae': 243.3, 'rmse': 312.8, 'r': 0.535}, 'per_10_games': {'n': 172, 'mae': 157.2, 'rmse': 207.4, 'r': 0.826}, 'delta_r': 0.539, 'acpl_r': -0.485, 'spec_delta_r': 0.347, 'interval_cover_10': 0.744, 'floor': 129.9},
}
