"""clubrating.cpi: the Chess Performance Index, pure (docs/architecture.md, docs/rules.md C1-C7).

Per-ply facts (:mod:`.facts`) -> the factors of the registry (:mod:`.registry`, measured in
:mod:`.factors`) -> ΔCPI and the ledger (:mod:`.index`) under the settings of :mod:`.weights`;
:mod:`.version` names the rules the stored ledgers were scored by. No engine, no database, no
file I/O. A folder, not a facade: each name is imported from the module that defines it, so
that importing :mod:`.version` (every command's start) imports nothing else of the CPI.
"""
