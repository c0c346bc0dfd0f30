"""clubrating.formats: pure readers and writers of tournament files (TRF-16, PGN, CSV).

Every reader takes an open text handle and a source name for messages, and
returns a :class:`~clubrating.formats.records.TournamentRecord`; bad input is
an :class:`~clubrating.errors.InputError` with file and line. Opening files is
the shell's job (:mod:`clubrating.files`); a text of any format is read by
:mod:`clubrating.formats.reading`. Each name is imported from the module that defines it.
"""
