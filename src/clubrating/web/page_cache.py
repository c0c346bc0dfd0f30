"""The page cache on files (``clubrating serve``'s, web/access.club_view): Django's
FileBasedCache, each entry compressed at zlib's fastest level.

Django compresses at zlib's default level 6, which took 11 ms for a 250 KB club page, a fifth of
a rendered page's time; level 1 takes 1 ms and leaves 31 KB instead of 23 KB (docs/benchmarks.md,
"Rendered pages at 20 clients"). Entries are read back by Django's own ``get``: zlib reads any
level.
"""

from __future__ import annotations

import os
import pickle
import zlib
from typing import IO, Any

from django.core.cache.backends.filebased import FileBasedCache

LEVEL = 1  # zlib's fastest: Z_BEST_SPEED


class PageFileCache(FileBasedCache):
    """FileBasedCache whose entries are compressed at :data:`LEVEL`, and which counts its entries
    before culling with one ``os.listdir``: Django's ``_cull`` globs the directory and joins
    every name at each ``set``, a millisecond with its 300 entries."""

    def __init__(self, dir: str, params: dict[str, Any]) -> None:
        super().__init__(dir, params)
        self.folder = os.path.abspath(dir)  # as FileBasedCache's own

    def _cull(self) -> None:
        try:
            entries = sum(name.endswith(self.cache_suffix) for name in os.listdir(self.folder))
        except FileNotFoundError:  # removed meanwhile: set makes it again
            return
        if entries >= self._max_entries:  # Django's rule: cull once the cache is full
            django: Any = super()  # the stubs leave FileBasedCache._cull out
            django._cull()

    def _write_content(self, file: IO[bytes], timeout: Any, value: Any) -> None:
        # FileBasedCache._write_content (Django 5.2) with the level given: the expiry, then the
        # value pickled and compressed.
        expiry = self.get_backend_timeout(timeout)
        file.write(pickle.dumps(expiry, self.pickle_protocol))
        file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol), LEVEL))
