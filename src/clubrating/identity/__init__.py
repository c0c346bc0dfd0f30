"""clubrating.identity: names (normalisation, comparison, the matcher's proposals).

:data:`MAX_PROPOSALS` lives here rather than in :mod:`.match` so that the command line can show
it without importing the matcher and rapidfuzz (docs/testing.md, "The start of a command").
"""

# At most this many proposals for one name (the arbiter reads at most 5).
MAX_PROPOSALS = 5
