"""The analysis's defaults that the command line shows in its help: the engine, its node
budget and the opening book. A module of their own, without python-chess, so that building
the parser does not import the engine's adapter (docs/testing.md, "The start of a command")."""

DEFAULT_ENGINE = "/usr/games/stockfish"  # Debian package stockfish (scripts/bootstrap)
DEFAULT_NODES = 150_000  # lichess's automatic analysis
DEFAULT_BOOK = "/usr/share/games/gnuchess/book.bin"  # Debian package gnuchess-book (bootstrap)
