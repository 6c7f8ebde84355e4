"""The screens of a match, for its start page and the field steward's sheet: each with its full
address and a QR code of it, drawn here (segno, pure Python) as inline SVG — no image to fetch, and
nothing the strict CSP would refuse (the SVG has attributes, no ``style``).

Vocabulary: a *screen* is one page a device at the field opens for a match — the scoreboard (a
phone), the TV (the scoreboard's TV layout, ``?tv=1``), the stream overlay (a browser source in
streaming software, with its language in the address since it has no cookie), the overlay builder,
the play-by-play, and the officials' two: the umpires' tablet and the scorer's laptop. Those two
ask for a login; their addresses are no secret (the match's number is public), so the sheet shows
them with that said, and names no official.
"""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from matches.models import Match

# Error correction M (15 %): a code on a TV photographed at an angle, or on a creased sheet, still
# reads; H would make the codes bigger for little gain.
QR_ERROR = "m"


def qr_svg(url: str, label: str) -> SafeString:
    """The QR code of ``url`` as an inline SVG that scales to its box (a viewBox, no size), dark
    on a white quiet zone so that it reads on a dark page too."""
    svg = segno.make(url, error=QR_ERROR).svg_inline(
        scale=1, border=4, omitsize=True, svgclass="qr", lineclass=None, dark="#000", light="#fff", title=label
    )
    # segno escapes the title; role="img" names the drawing by it for screen readers.
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))


@dataclass(frozen=True)
class Screen:
    key: str
    name: str
    purpose: str
    url: str
    login: bool
    qr: SafeString


def _overlay_builder_path(match: Match) -> str | None:
    """The overlay builder's address, when the app has one (it may take the match or not)."""
    for args in ([match.pk], []):
        try:
            return reverse("overlay_builder", args=args)
        except NoReverseMatch:
            continue
    return None


def match_screens(
    request: HttpRequest, match: Match, *, lang: str, keys: tuple[str, ...] | None = None
) -> list[Screen]:
    """The screens of ``match`` with absolute addresses (``keys``: only these, in this order)."""
    scoreboard = reverse("scoreboard", args=[match.pk])
    paths: list[tuple[str, str, str, str | None, bool]] = [
        ("scoreboard", _("Scoreboard"), _("For phones in the stands."), scoreboard, False),
        ("tv", _("TV"), _("The scoreboard's TV layout, for a big screen."), f"{scoreboard}?tv=1", False),
        (
            "overlay",
            _("Stream overlay"),
            _("A browser source for streaming software."),
            f"{reverse('overlay', args=[match.pk])}?lang={lang}",
            False,
        ),
        (
            "overlay_builder",
            _("Overlay builder"),
            _("Choose the overlay's look and copy its address."),
            _overlay_builder_path(match),
            False,
        ),
        (
            "play_by_play",
            _("Play-by-play"),
            _("Every event of the match in words, with the rule."),
            reverse("play_by_play", args=[match.pk]),
            False,
        ),
        (
            "referee",
            _("Umpires' tablet"),
            _("For the umpires and the referee."),
            reverse("referee", args=[match.pk]),
            True,
        ),
        ("scorer", _("Scorer's laptop"), _("For the match's scorer."), reverse("scorer", args=[match.pk]), True),
    ]
    by_key = {p[0]: p for p in paths if p[3] is not None}
    screens = []
    for key in keys or tuple(by_key):
        if key not in by_key:
            continue
        _key, name, purpose, path, login = by_key[key]
        assert path is not None
        url = request.build_absolute_uri(path)
        label = _("QR code of the %(screen)s: %(url)s") % {"screen": name, "url": url}
        screens.append(Screen(key, name, purpose, url, login, qr_svg(url, label)))
    return screens
