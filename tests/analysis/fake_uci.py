"""A scripted UCI engine for protocol tests: answers every ``go`` with the legal
moves ranked by material (captures first), logs every command it receives to
``$FAKE_UCI_LOG``. Deterministic, instant, no chess knowledge beyond the rules.

``$FAKE_UCI_MODE`` makes it misbehave from the ``$FAKE_UCI_FROM``-th ``go`` on (default
the first): ``hang`` stops answering anything, ``garbage`` prints ``score cp abc``."""

from __future__ import annotations

import os
import sys
import time

import chess

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}


def material(board: chess.Board, color: chess.Color) -> int:
    return sum(
        VALUES.get(p.piece_type, 0) * (1 if p.color == color else -1)
        for p in board.piece_map().values()
    )


def ranked(board: chess.Board) -> list[tuple[chess.Move, str]]:
    scored = []
    for move in board.legal_moves:
        board.push(move)
        score = "mate 1" if board.is_checkmate() else f"cp {material(board, not board.turn)}"
        key = 10**6 if board.is_checkmate() else material(board, not board.turn)
        board.pop()
        scored.append((-key, move.uci(), move, score))
    scored.sort()
    return [(move, score) for _, _, move, score in scored]


def position(words: list[str]) -> chess.Board:
    if words[1] == "startpos":
        board, rest = chess.Board(), words[2:]
    else:
        board, rest = chess.Board(" ".join(words[2:8])), words[8:]
    for uci in rest[1:] if rest and rest[0] == "moves" else []:
        board.push_uci(uci)
    return board


def main() -> None:
    log = open(os.environ.get("FAKE_UCI_LOG", os.devnull), "a", encoding="utf-8")
    board, multipv, searches = chess.Board(), 1, 0
    mode, start = os.environ.get("FAKE_UCI_MODE", ""), int(os.environ.get("FAKE_UCI_FROM", "1"))
    for line in sys.stdin:
        line = line.strip()
        log.write(line + "\n")
        log.flush()
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name FakeFish 1.0\noption name Threads type spin default 1 min 1 max 8")
            print("option name Hash type spin default 16 min 1 max 64")
            print("option name MultiPV type spin default 1 min 1 max 5\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif line.startswith("setoption name MultiPV value"):
            multipv = int(words[-1])
        elif words[0] == "position":
            board = position(words)
        elif words[0] == "go":
            searches += 1
            if mode == "hang" and searches >= start:
                time.sleep(3600)  # alive, reading nothing, saying nothing
            lines = ranked(board)[: multipv if "nodes" in words else 1]
            for rank, (move, score) in enumerate(lines, start=1):
                if mode == "garbage" and searches >= start:
                    score = "cp abc"
                print(f"info depth 1 multipv {rank} score {score} nodes 1 pv {move.uci()}")
            print(f"bestmove {lines[0][0].uci() if lines else '(none)'}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    try:
        main()
        sys.stdout.flush()
    except BrokenPipeError:
        # The analyser closed the pipe (it gave up on this engine): end quietly, as Stockfish does,
        # instead of a Python traceback on the stderr the analyser shares with its user.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
