"""What a browser shows of a page, as a list of events to compare: the oracle of a template's
rewrapping (tests/web/compare_templates.py, run by scripts/compare_pages).

A template's long line is wrapped by putting line breaks where HTML does not show them. This
module reads a page with the standard library's parser (none of Django's template code) and keeps
what a reader can tell apart:

- each start tag with its attributes in order, their values exact (a form's CSRF token, new at
  every render, is masked), and each end tag; an ``</option>`` the parser would imply anyway is
  left out;
- text as CSS's ``white-space: normal`` (the only mode the templates use) draws it: each run of
  whitespace one space, a space right after another one (across the edges of inline elements
  such as ``<a>`` or ``<small>``, and past a hidden input) not drawn, nor a space at the start or
  the end of a line (next to a block's edge: a paragraph, a table cell, a list item, a line
  break; the spaces between table rows or SVG shapes);
- the text of ``<pre>``, ``<textarea>`` and ``<script>`` exactly, and a ``<style>`` with its
  whitespace beside ``{``, ``}`` and ``;`` dropped (CSS reads none of it).

Whitespace between two inline elements stays a difference: ``<a>x</a><a>y</a>`` and
``<a>x</a> <a>y</a>`` read "xy" and "x y"; so does a space moved into or out of a link.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

# Elements whose edges end a line of text (CSS's display block, table parts, list items), the
# document's own parts and the shapes inside an SVG: whitespace beside them is not drawn. A form
# of the class "inline" is inline (web/base.html's style).
BLOCKS = frozenset(
    """html head body title meta link style base main header footer nav section article aside
    div p h1 h2 h3 h4 h5 h6 ul ol li dl dt dd table caption thead tbody tfoot tr th td colgroup
    col form fieldset legend figure figcaption hr br blockquote address details summary option
    optgroup datalist g path line polyline polygon rect circle ellipse defs desc""".split()
)
# Inline boxes drawn as one piece: the space beside them shows, and inside the ones with content
# (a button's label, a select's options) the space at their edges does not.
ATOMIC = frozenset({"input", "img", "select", "button", "svg", "textarea", "meter", "progress"})
EXACT = frozenset({"pre", "textarea", "script"})
MASKED = {"csrfmiddlewaretoken": "<the form's CSRF token>"}
WHITESPACE = re.compile(r"[ \t\n\r\f]+")
CSS_BREAK = re.compile(r"\s*([{};])\s*")

Event = tuple[str, ...]
# How an event stands in a line of text: "block" (an edge: a line starts or ends there), "box"
# (an atomic inline box), "open"/"close" (the edges of an atomic box's content), "inline" (an
# inline element's tag, or a hidden input: a space runs on past it), "text".
Kind = str


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[Event] = []
        self.kinds: list[Kind] = []
        self.inside: list[str] = []
        self.forms: list[str] = []  # each open form's kind

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        masked = MASKED.get(str(named.get("name")))
        shown = [
            k if v is None else f'{k}="{masked if masked and k == "value" else v}"'
            for k, v in attrs
        ]
        kind = "block" if tag in BLOCKS else "open" if tag in ATOMIC else "inline"
        if tag == "form":
            kind = "inline" if "inline" in str(named.get("class", "")).split() else "block"
            self.forms.append(kind)
        if tag in ("input", "img"):  # void: a box of its own, or nothing drawn when hidden
            kind = "inline" if named.get("type") == "hidden" or "hidden" in named else "box"
        self.add(("start", tag, *shown), kind)
        if tag in EXACT or tag == "style":
            self.inside.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.inside and self.inside[-1] == tag:
            self.inside.pop()
        kind = "block" if tag in BLOCKS else "close" if tag in ATOMIC else "inline"
        if tag == "form" and self.forms:
            kind = self.forms.pop()
        self.add(("end", tag), kind)

    def handle_data(self, data: str) -> None:
        where = self.inside[-1] if self.inside else ""
        if where in EXACT:
            self.add(("exact", data), "box")
        elif where == "style":
            self.add(("exact", CSS_BREAK.sub(r"\1", WHITESPACE.sub(" ", data)).strip()), "block")
        elif self.events and self.events[-1][0] == "text":
            self.events[-1] = ("text", self.events[-1][1] + data)
        else:
            self.add(("text", data), "text")

    def handle_comment(self, data: str) -> None:
        self.add(("comment", data), "inline")

    def handle_decl(self, decl: str) -> None:
        self.add(("decl", decl.lower()), "block")

    def add(self, event: Event, kind: Kind) -> None:
        self.events.append(event)
        self.kinds.append(kind)


def _collapsed(events: list[Event], kinds: list[Kind]) -> list[str | None]:
    """Each text event's text as drawn (None for the other events)."""
    texts: list[str | None] = [
        WHITESPACE.sub(" ", e[1]) if k == "text" else None for e, k in zip(events, kinds)
    ]
    hidden = True  # would a space here be dropped: at a line's start, or after a space
    for i, kind in enumerate(kinds):
        text = texts[i]
        if text is not None:
            text = texts[i] = text.lstrip(" ") if hidden else text
            hidden = text.endswith(" ") if text else hidden
        elif kind != "inline":
            hidden = kind in ("block", "open")
    hidden = True  # at a line's end
    for i in reversed(range(len(kinds))):
        text, kind = texts[i], kinds[i]
        if text is not None:
            text = texts[i] = text.rstrip(" ") if hidden else text
            hidden = hidden and not text
        elif kind != "inline":
            hidden = kind in ("block", "close")
    return texts


def rendered(page: str) -> list[Event]:
    """The page's events as a reader tells them apart (see the module's text)."""
    reader = _Reader()
    reader.feed(page)
    reader.close()
    texts = _collapsed(reader.events, reader.kinds)
    out: list[Event] = []
    for event, text in zip(reader.events, texts):
        if event == ("end", "option"):  # the parser implies it before the next option
            continue
        if text is None:
            out.append(event)
        elif text:
            out.append(("text", text))
    return out


def differences(before: str, after: str, context: int = 3) -> list[str]:
    """The first place where the two pages read differently, with a few events around it, or
    nothing when they read the same."""
    one, other = rendered(before), rendered(after)
    if one == other:
        return []
    at = next((i for i, (a, b) in enumerate(zip(one, other)) if a != b), min(len(one), len(other)))
    lo = max(0, at - context)
    return [
        f"event {at}: before {one[lo : at + context]!r}",
        f"event {at}: after  {other[lo : at + context]!r}",
    ]


def flat(page: str) -> str:
    """The page written again from what a reader tells apart, for a test to look for a piece of
    markup in whatever way its template is wrapped: each tag as ``<tag name="value">`` with its
    attributes in the template's order (a value escaped as Django escapes it, the CSRF token
    masked),
    ``</tag>``, text as drawn (a run of whitespace one space, none beside a block's edge; ``&``,
    ``<`` and ``>`` escaped, quotes as they read), and nothing between two tags the browser
    shows no space between: ``<td>1</td>\n  <td>2</td>`` is ``<td>1</td><td>2</td>``."""
    out: list[str] = []
    for event in rendered(page):
        kind, rest = event[0], event[1:]
        if kind == "start":
            attributes = [_attribute(a) for a in rest[1:]]
            out.append("<" + " ".join((rest[0], *attributes)) + ">")
        elif kind == "end":
            out.append(f"</{rest[0]}>")
        elif kind == "text":
            out.append(html.escape(rest[0], quote=False))
        elif kind == "exact":
            out.append(rest[0])
        elif kind == "comment":
            out.append(f"<!--{rest[0]}-->")
        else:
            out.append(f"<!{rest[0]}>")
    return "".join(out)


def _attribute(shown: str) -> str:
    name, equals, value = shown.partition("=")
    if not equals:
        return name
    return f'{name}="{html.escape(value[1:-1])}"'
