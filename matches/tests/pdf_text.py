"""The words a reportlab PDF draws, for tests that check what a page *shows* (not only that the file
is a PDF): each content stream decoded (``/ASCII85Decode``, ``/FlateDecode``, as reportlab writes
them), the strings of its text operators (``Tj``, ``TJ``) read back from WinAnsi, one a line, and
the count of the ellipses the page draws (a circled letter or penalty hit: ``c`` curves closed by
reportlab's ``ellipse``)."""

from __future__ import annotations

import base64
import re
import zlib

_STREAM = re.compile(rb"<<(.*?)>>\s*stream\r?\n(.*?)endstream", re.S)
_STRING = re.compile(rb"\((?:\\.|[^\\)])*\)")
_SHOWN = re.compile(rb"(\((?:\\.|[^\\)])*\))\s*Tj|\[((?:[^\]\\]|\\.)*)\]\s*TJ", re.S)


def _streams(pdf: bytes) -> list[bytes]:
    out = []
    for head, body in _STREAM.findall(pdf):
        data = body
        if b"/ASCII85Decode" in head:
            data = base64.a85decode(data.strip(), adobe=True)
        if b"/FlateDecode" in head:
            data = zlib.decompress(data)
        out.append(data)
    return out


def _unescape(literal: bytes) -> str:
    raw = literal[1:-1]
    out = bytearray()
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == 0x5C and i + 1 < len(raw):  # backslash
            nxt = raw[i + 1]
            octal = re.match(rb"[0-7]{1,3}", raw[i + 1 : i + 4])
            if octal:
                out.append(int(octal.group(), 8))
                i += 1 + len(octal.group())
                continue
            out.append({ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("b"): 8, ord("f"): 12}.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return out.decode("cp1252", errors="replace")


def pdf_text(pdf: bytes) -> str:
    """The strings the PDF's pages draw, in the order drawn, one a line."""
    lines = []
    for stream in _streams(pdf):
        for shown in _SHOWN.finditer(stream):
            if shown.group(1):
                lines.append(_unescape(shown.group(1)))
            else:
                lines.append("".join(_unescape(s) for s in _STRING.findall(shown.group(2))))
    return "\n".join(lines)


def pdf_ellipses(pdf: bytes) -> int:
    """How many ellipses the pages draw (reportlab draws one as four Bézier curves, then strokes)."""
    count = 0
    for stream in _streams(pdf):
        count += len(re.findall(rb"(?:[-\d.]+ ){6}c\s+(?:[-\d.]+ ){6}c\s+(?:[-\d.]+ ){6}c\s+(?:[-\d.]+ ){6}c", stream))
    return count
