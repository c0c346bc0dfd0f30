"""What an attacker types or uploads, as Hypothesis strategies shared by the hostile-input
suite (test_hostile_cli.py, test_hostile_web.py): numbers at and past every bound, control
characters, every plane of Unicode, mixed encodings and byte order marks, long lines, gzip
nested or cut short, paths, SQL and template syntax.

A value is drawn from a named family, so a failure says which kind of input it was; the
suite counts each surface's inputs (``COUNTS``) for the table of docs/testing.md."""

from __future__ import annotations

import gzip
import io
import os
import contextlib
import resource
import signal
from collections import Counter
from collections.abc import Iterator

from hypothesis import strategies as st

from clubrating.words import find_control

# Curated values of each family: the ones that broke parsers elsewhere, always among the draws.
NUMBERS = [
    "0",
    "-1",
    "-0",
    "1e308",
    "-1e308",
    "1e-400",
    "NaN",
    "nan",
    "inf",
    "-Infinity",
    "9" * 400,
    "99999999999999999999",
    "2147483648",
    "-9223372036854775809",
    "0x10",
    "1_000",
    "²",
    "٣",
    "½",
    "1.5",
    "1,5",
    " 7 ",
    "+3",
    "00000000000000000001",
]
PATHS = [
    "../../../../etc/passwd",
    "/etc/shadow",
    "/dev/zero",
    "/dev/full",
    "/proc/self/mem",
    "/",
    ".",
    "~",
    "C:\\Windows\\system.ini",
    "\\\\server\\share",
    "file:///etc/passwd",
    "nul",
    "CON",
    "a/../../b",
    "-",
    "--help",
    "-x",
]
SYNTAX = [
    "'; DROP TABLE club_member; --",
    '" OR 1=1 --',
    "%",
    "_",
    "\\",
    "' OR ''='",
    "{{ 7*7 }}",
    "{% debug %}",
    "%(name)s",
    "%s%s%s%n",
    "{0}{1}",
    "${7*7}",
    "<script>alert(1)</script>",
    "<!--",
    "]]>",
    "=cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "javascript:alert(1)",
    "a=b=c",
    "=",
    "KEY=",
    "=VALUE",
]
CONTROLS = [
    "\x00",
    "\x1b[2J",
    "\x1b]0;pwned\x07",
    "\x07",
    "\x7f",
    "\x9b31m",
    "\r",
    "\n",
    "\t",
    "\x0c",
    "\udcff",
    "Ev\x1b[2Jil",
    "A\x00B",
]
UNICODE = [
    "\ufeff",
    "\u200b",
    "\u202eevil",
    "\u3000",
    "\U0001f600",
    "\U00020000",
    "\U000e0041",
    "\U0010fffd",
    "\ufffe",
    "\uffff",
    "é",
    "e\u0301",
    "ﬁ",
    "İ",
    "ß",
    "Ա",
    "Ё",
    "\u0661",
    "\U0001d7d8",
]
EMPTY = ["", " ", "  \t ", "\u00a0"]

FAMILIES: dict[str, st.SearchStrategy[str]] = {
    "number": st.one_of(
        st.sampled_from(NUMBERS),
        st.integers().map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
    ),
    "control": st.one_of(
        st.sampled_from(CONTROLS),
        st.tuples(
            st.text(max_size=8), st.characters(categories=["Cc", "Cs"]), st.text(max_size=8)
        ).map("".join),
    ),
    "unicode": st.one_of(
        st.sampled_from(UNICODE),
        st.text(
            alphabet=st.characters(codec=None, exclude_categories=["Cc", "Cs"]),
            min_size=1,
            max_size=20,
        ),
    ),
    "path": st.sampled_from(PATHS),
    "syntax": st.sampled_from(SYNTAX),
    "long": st.sampled_from([1_000, 70_000, 300_000]).map(lambda n: "A" * n),
    "empty": st.sampled_from(EMPTY),
}


def hostile_text() -> st.SearchStrategy[tuple[str, str]]:
    """(family, value): a value an attacker would type, and which kind it is."""
    return st.one_of(
        *(
            strategy.map(lambda value, family=family: (family, value))
            for family, strategy in FAMILIES.items()
        )
    )


def has_control(text: str) -> bool:
    return find_control(text) >= 0


def _gzip(data: bytes, times: int = 1) -> bytes:
    for _ in range(times):
        data = gzip.compress(data, mtime=0)
    return data


def bom_variants(text: str) -> list[bytes]:
    """``text`` in every encoding a club's computer might write it, byte order marks included."""
    return [
        text.encode("utf-8"),
        b"\xef\xbb\xbf" + text.encode("utf-8"),
        text.encode("utf-16"),
        text.encode("utf-16-be"),
        text.encode("utf-32"),
        text.encode("cp1252", "replace"),
        text.encode("koi8-r", "replace"),
        b"\xef\xbb\xbf" + text.encode("utf-16-le"),
    ]


def hostile_file(valid: str) -> st.SearchStrategy[tuple[str, bytes]]:
    """(family, bytes) of a file: ``valid`` (a good file of the surface's kind) damaged, re-encoded,
    mixed with hostile text, or something else entirely."""
    lines = valid.splitlines(keepends=True)

    def spliced(drawn: tuple[int, tuple[str, str]]) -> tuple[str, bytes]:
        at, (family, value) = drawn
        line = lines[at % len(lines)]
        middle = len(line) // 2
        changed = [
            *lines[: at % len(lines)],
            line[:middle] + value + line[middle:],
            *lines[at % len(lines) + 1 :],
        ]
        # any lone surrogate as the bytes a careless encoder writes for it (no UTF-8 either)
        return family, "".join(changed).encode("utf-8", "surrogatepass")

    return st.one_of(
        st.tuples(st.integers(0, 1000), hostile_text()).map(spliced),
        st.sampled_from(bom_variants(valid)).map(lambda data: ("encoding", data)),
        st.sampled_from([valid.encode()[:n] for n in (1, 17, len(valid.encode()) // 2)]).map(
            lambda d: ("cut", d)
        ),
        st.sampled_from(
            [
                valid.encode("utf-8") + "Zoë Ölçer,1-0\n".encode("cp1252", "replace"),
                "Zoë\n".encode("utf-8") + "Zoë\n".encode("latin-1") + valid.encode(),
            ]
        ).map(lambda d: ("mixed encodings", d)),
        st.sampled_from(
            [
                b"A" * 2_000_000 + b"\n",
                (valid.rstrip("\n") + "x" * 500_000 + "\n").encode(),
                b"\n" * 200_000,
            ]
        ).map(lambda d: ("long lines", d)),
        st.sampled_from(
            [
                _gzip(valid.encode()),
                _gzip(valid.encode(), 20),
                _gzip(valid.encode())[:-9],
                _gzip(b"\x00" * 20_000_000),
            ]
        ).map(lambda d: ("gzip", d)),
        st.binary(max_size=300).map(lambda d: ("binary", d)),
        st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff\x00", b"\r\n\r\n"]).map(
            lambda d: ("empty", d)
        ),
    )


def hostile_archive(valid: bytes) -> st.SearchStrategy[tuple[str, bytes]]:
    """(family, bytes) of a club archive: gzip'd JSON lines tampered with (``valid`` is one)."""
    plain = gzip.decompress(valid)
    header, _, rest = plain.partition(b"\n")

    def lines_with(drawn: tuple[str, str]) -> tuple[str, bytes]:
        family, value = drawn
        import json

        document = json.loads(header)
        document[next(iter(document))] = value
        return family, _gzip(json.dumps(document).encode("utf-8", "surrogatepass") + b"\n" + rest)

    return st.one_of(
        hostile_text().map(lines_with),
        st.sampled_from([valid[:n] for n in (10, len(valid) // 2, len(valid) - 4)]).map(
            lambda d: ("cut", d)
        ),
        st.sampled_from(
            [
                _gzip(valid, 1),
                _gzip(valid, 30),
                _gzip(b"\x00" * 30_000_000),
                _gzip(b"[" * 200_000 + b"\n"),
                _gzip(b'{"a":' * 100_000 + b"\n"),
                _gzip(plain.replace(b"\n", b"", 1)),
                _gzip(b"A" * 5_000_000),
            ]
        ).map(lambda d: ("gzip", d)),
        st.binary(max_size=300).map(lambda d: ("binary", d)),
    )


# The bounds of one input, generous for a loaded CI machine: a command or a request that takes
# longer has hung (a sleep of inf seconds, a loop over a bomb), one that grows the process by
# more has read a bomb whole. The speed itself is benchmarks/' business.
SECONDS_PER_INPUT = 90
GROWTH_BYTES = 1_000_000_000


class Hung(BaseException):
    """Not an Exception: neither the command's own handlers nor Hypothesis's shrinking (which would
    run the hanging input again and again) may catch it."""


@contextlib.contextmanager
def bounded(what: str) -> Iterator[None]:
    """Fail when ``what`` runs longer than SECONDS_PER_INPUT or grows the process's peak memory by
    more than GROWTH_BYTES (Linux ru_maxrss: kilobytes)."""

    def hung(signum: int, frame: object) -> None:
        raise Hung(f"still running after {SECONDS_PER_INPUT} s: {what}")

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(SECONDS_PER_INPUT)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) * 1024
    assert grown < GROWTH_BYTES, f"grew the process by {grown:,} bytes: {what}"


# How many inputs each surface took in this process: surface -> count.
COUNTS: Counter[str] = Counter()


def record(surface: str) -> None:
    """Append the surface's count to $CLUBRATING_HOSTILE_COUNTS (a tab-separated file), from which
    docs/testing.md's table is made: the workers of pytest-xdist each count their own share."""
    path = os.environ.get("CLUBRATING_HOSTILE_COUNTS")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{surface}\t{COUNTS[surface]}\n")


__all__ = [
    "COUNTS",
    "FAMILIES",
    "bom_variants",
    "bounded",
    "has_control",
    "hostile_archive",
    "hostile_file",
    "hostile_text",
    "io",
    "record",
]
