"""The oracle of the templates' rewrapping (rendered.py): the line breaks HTML does not show pass,
every change a reader can see is found."""

from __future__ import annotations

import pytest

from .rendered import differences, flat

TOKEN = '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("<p>One</p><p>Two</p>", "<p>One</p>\n<p>Two</p>"),
        ('<form method="post" action="/x/">', '<form method="post"\n      action="/x/">'),
        ("<p>a long sentence</p>", "<p>a long\nsentence</p>"),
        ("<p>\n  text  </p>", "<p>text</p>"),
        (
            "<table><tr><td>1</td><td>2</td></tr></table>",
            "<table>\n<tr><td>1</td>\n<td>2</td></tr>\n</table>",
        ),
        (
            '<svg><g><line x1="0"/><line x1="1"/></g></svg>',
            '<svg><g><line x1="0"/>\n<line x1="1"/></g></svg>',
        ),
        (
            "<style>a{color:red}b{color:blue}</style>",
            "<style>a{color:red}\nb{ color:blue }</style>",
        ),
        (TOKEN.format("abc"), TOKEN.format("xyz")),
        (
            "<datalist><option value=a><option value=b></datalist>",
            "<datalist><option value=a></option><option value=b></option></datalist>",
        ),
        ("<p>R&amp;D</p>", "<p>R&D</p>"),
        ('<p>a</p><form method="post">', '<p>a</p>\n<form method="post">'),
        ("<p><small>The text</small></p>", "<p><small>\n  The text\n</small>\n</p>"),
        ("<p>a <strong>b</strong></p>", "<p>a\n <strong>b</strong></p>"),
        (
            'x <form class="inline"><input type="hidden" name="e"><button>Go</button></form>',
            'x\n<form class="inline">\n  <input type="hidden" name="e">\n'
            "  <button>Go</button></form>",
        ),
        ("<button>Go</button>", "<button>\n  Go\n</button>"),
        (
            "<select><option>1</option><option>2</option></select>",
            "<select>\n<option>1\n<option>2\n</select>",
        ),
    ],
)
def test_a_break_the_browser_does_not_show_reads_the_same(before: str, after: str) -> None:
    assert differences(before, after) == []


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            '<nav><a href="/">One</a><a href="/t/">Two</a></nav>',
            '<nav><a href="/">One</a>\n<a href="/t/">Two</a></nav>',
        ),
        ("<p><strong>7</strong>points</p>", "<p><strong>7</strong> points</p>"),
        ("<p>a long sentence</p>", "<p>a longer sentence</p>"),
        ('<p class="a b">x</p>', '<p class="a  b">x</p>'),
        ("<textarea>1. e4 e5</textarea>", "<textarea>1. e4\ne5</textarea>"),
        ("<pre>a  b</pre>", "<pre>a b</pre>"),
        ("<style>a:hover{color:red}</style>", "<style>a :hover{color:red}</style>"),
        ('<input name="round" value="1">', '<input name="round" value="2">'),
        ("<p>x</p>", "<p>x</p><!-- a comment -->"),
        (
            '<p><form class="inline"><button>A</button></form>'
            '<form class="inline"><button>B</button>',
            '<p><form class="inline"><button>A</button></form>\n'
            '<form class="inline"><button>B</button>',
        ),  # web/base.html: form.inline{display:inline}
        ("<p>7<svg></svg></p>", "<p>7 <svg></svg></p>"),
        ('<label>a</label><input name="a">', '<label>a</label>\n<input name="a">'),
        ('<input name="a"><input name="b">', '<input name="a">\n<input name="b">'),
        ("<p>a <a>link</a></p>", "<p>a<a> link</a></p>"),  # the space moved into the link
        (
            "<label>a</label><select><option>1</select>",
            "<label>a</label>\n<select><option>1</select>",
        ),
        ("<p>x</p><p>y</p>", "<p>x</p>"),
    ],
)
def test_a_change_a_reader_can_see_is_found(before: str, after: str) -> None:
    found = differences(before, after)
    assert len(found) == 2 and found[0].startswith("event "), found


@pytest.mark.parametrize(
    ("page", "written"),
    [
        (
            '<table>\n  <tr>\n    <td class="n">1</td>\n    <td>2</td>\n  </tr>\n</table>',
            '<table><tr><td class="n">1</td><td>2</td></tr></table>',
        ),
        (
            '<a href="/p/?a=1&amp;b=2"\n   rel="next">Next  page</a>',
            '<a href="/p/?a=1&amp;b=2" rel="next">Next page</a>',
        ),
        ("<p>R&amp;D &lt;b&gt; &#x27;x&#x27;</p>", "<p>R&amp;D &lt;b&gt; 'x'</p>"),
        (
            '<input type="checkbox" checked\n       name="a">',
            '<input type="checkbox" checked name="a">',
        ),
        ("<p>a\n  <strong>b</strong></p>", "<p>a <strong>b</strong></p>"),
        ('<p title="say &quot;hi&quot;">x</p>', '<p title="say &quot;hi&quot;">x</p>'),
        ("<pre>  two\n  lines</pre>", "<pre>  two\n  lines</pre>"),
        ("<!DOCTYPE html>\n<!-- kept -->\n<p>x</p>", "<!doctype html><!-- kept --><p>x</p>"),
        (TOKEN.format("abc"), TOKEN.format("&lt;the form&#x27;s CSRF token&gt;")),
    ],
)
def test_flat_writes_the_page_as_it_reads(page: str, written: str) -> None:
    assert flat(page) == written


def test_flat_reads_the_same_for_a_rewrapped_page_and_differs_for_a_visible_change() -> None:
    one = '<p>Played <a href="/t/1/">the open</a>, <small>round 3</small></p>'
    wrapped = '<p>\n  Played\n  <a href="/t/1/">the open</a>,\n  <small>round 3</small>\n</p>'
    assert flat(one) == flat(wrapped)
    assert flat(one) != flat(one.replace("</a>,", "</a> ,"))
