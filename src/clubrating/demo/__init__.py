"""The demo club: the seeded simulator (:mod:`.simulate`, pure), engine self-play
(:mod:`.selfplay`) and the build that stores the club whole or not at all (:mod:`.build`).
"""
