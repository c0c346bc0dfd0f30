"""The CPI presets fitted on real rated games (issue 11), written by
``benchmarks/fit_presets.py`` from ``clubrating calibrate``: do not edit by hand;
``acceptance/test_cpi_fit.py`` refits them and fails when they differ.
"""

from __future__ import annotations

FITTED: dict[str, dict[str, float]] = {
    'lichess-blitz': {
        'E': 31.3884,
        'T': 0.0,
        'O': 0.9062,
        'B1': 37.6079,
        'B2': 27.6247,
        'B3': 17.4727,
        'M1': 0.0,
        'M2': 0.0,
        'M3': 0.0,
        'H': 0.0,
        'Br': 4.7074,
        'win': -4.2668,
        'draw': 1.0617,
        'loss': 0.0,
        'renormalise': 1.0,
        'min_plies': 20.0,
        'window': 10.0,
        'elo_alpha': 26.9863,
        'elo_beta': 0.009202,
        'elo_sigma': 5.9655,
        'elo_mean': 1691.3,
        'elo_sd': 550.9,
        'elo_floor': 154.5,
        'mean_E': 0.727,
        'mean_T': 0.5,
        'mean_O': 0.8253,
        'mean_B1': 0.3705,
        'mean_B2': 0.1882,
        'mean_B3': 0.1018,
        'mean_M1': 0.71,
        'mean_M2': 0.3676,
        'mean_M3': 0.4737,
    },
    'fide-classical': {
        'E': 63.2572,
        'T': 17.9779,
        'O': 8.4097,
        'B1': 3.1383,
        'B2': 10.369,
        'B3': 11.8479,
        'M1': 0.0,
        'M2': 0.0,
        'M3': 0.0,
        'H': -0.2997,
        'Br': 3.7982,
        'win': 10.2182,
        'draw': 7.7856,
        'loss': 0.0,
        'renormalise': 1.0,
        'min_plies': 20.0,
        'window': 10.0,
        'elo_alpha': 39.2678,
        'elo_beta': 0.021778,
        'elo_sigma': 7.3858,
        'elo_mean': 2015.5,
        'elo_sd': 300.2,
        'elo_floor': 73.0,
        'mean_E': 0.8728,
        'mean_T': 0.5809,
        'mean_O': 0.8953,
        'mean_B1': 0.4701,
        'mean_B2': 0.1863,
        'mean_B3': 0.0985,
        'mean_M1': 0.6667,
        'mean_M2': 0.75,
        'mean_M3': 0.9286,
    },
}

POOLS: dict[str, str] = {'lichess-blitz': 'lichess blitz ratings of 2018', 'fide-classical': 'FIDE ratings, classical over the board'}

PROVENANCE: dict[str, dict[str, object]] = {
    'lichess-blitz': {'draft': True},
    'fide-classical': {'draft': True},
}

CROSS_VALIDATION: dict[str, dict[str, object]] = {
    'lichess-blitz': {'folds': 5, 'per_game': {'n': 600, 'mae': 349.1, 'rmse': 427.6, 'r': 0.63}, 'per_10_games': {'n': 50, 'mae': 195.9, 'rmse': 246.2, 'r': 0.893}, 'delta_r': 0.632, 'acpl_r': -0.541, 'spec_delta_r': 0.353, 'interval_cover_10': 0.7, 'floor': 154.5},
    'fide-classical': {'folds': 5, 'per_game': {'n': 484, 'mae': 190.2, 'rmse': 233.0, 'r': 0.631}, 'per_10_games': {'n': 34, 'mae': 101.4, 'rmse': 123.9, 'r': 0.907}, 'delta_r': 0.634, 'acpl_r': -0.553, 'spec_delta_r': 0.483, 'interval_cover_10': 0.735, 'floor': 73.0},
}
