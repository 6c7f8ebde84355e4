"""The start pages: a match's (/matches/{id}/start/) and a tournament day's sheet for the field
steward (/tournaments/{id}/start/?date=), and the home page's links to them and to each screen.

The spectator (anonymous) reads them. A QR code is checked by reading it back: the modules the SVG
draws (segno's path: one horizontal run of dark modules per ``h``) must be the matrix of the
screen's address.
"""

from __future__ import annotations

import html as html_lib
import re
from types import ModuleType

import pytest
import segno
from django.test import Client, override_settings
from django.urls import URLResolver, include, path, reverse
from django.utils import timezone

import polo.urls
from matches.demo import load_demo
from matches.models import Match
from matches.public import urls as public_urls
from matches.public.screens import QR_ERROR

pytestmark = pytest.mark.django_db

BASE = "http://testserver"


@pytest.fixture
def demo():
    tournament, live = load_demo()
    live.refresh_from_db()
    return tournament, live


def read(url: str, lang: str = "en", client: Client | None = None) -> str:
    response = (client or Client(headers={"accept-language": lang})).get(url)
    assert response.status_code == 200
    return response.content.decode()


def screens(html: str) -> dict[str, dict[str, str]]:
    """The screens a page shows: key → its address (as linked) and its QR code's SVG."""
    found = {}
    for key, body in re.findall(r'<li class="st-screen[^"]*" data-screen="([^"]+)">(.*?)</li>', html, re.S):
        url = html_lib.unescape(re.search(r'<a class="st-url" href="([^"]+)"', body).group(1))
        found[key] = {"url": url, "svg": re.search(r"<svg.*?</svg>", body, re.S).group(0), "body": body}
    return found


def drawn_modules(svg: str) -> list[list[int]]:
    """The QR matrix an SVG of segno draws: its viewBox is the symbol with a 4-module quiet zone,
    its dark path a run of ``h`` strokes along the centre line of each row."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    d = re.search(r'<path stroke="#000" d="([^"]+)"', svg).group(1)
    grid = [[0] * size for _ in range(size)]
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s(-?[\d.]+))?", d):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for col in range(int(x), int(x + float(a))):
                grid[int(y)][col] = 1
            x += float(a)
    return [row[4:-4] for row in grid[4:-4]]


def matrix_of(url: str) -> list[list[int]]:
    return [list(row) for row in segno.make(url, error=QR_ERROR).matrix]


# --- A match's start page --------------------------------------------------------------------------


def test_it_gives_every_screen_of_the_match_with_its_full_address(demo):
    _, live = demo
    found = screens(read(reverse("start_match", args=[live.pk])))
    m = live.pk
    expected = {
        "scoreboard": f"{BASE}/matches/{m}/",
        "tv": f"{BASE}/matches/{m}/?tv=1",
        "overlay": f"{BASE}/matches/{m}/overlay/?lang=en",
        "play_by_play": f"{BASE}/matches/{m}/play-by-play/",
        "referee": f"{BASE}/matches/{m}/referee/",
        "scorer": f"{BASE}/matches/{m}/scorer/",
    }
    assert {k: found[k]["url"] for k in expected} == expected
    assert list(found)[:3] == ["scoreboard", "tv", "overlay"]


def test_each_qr_code_draws_its_screens_address(demo):
    _, live = demo
    found = screens(read(reverse("start_match", args=[live.pk])))
    assert len(found) >= 6
    for key, screen in found.items():
        assert drawn_modules(screen["svg"]) == matrix_of(screen["url"]), key
    # The reading is not trivially equal: another address draws another code.
    assert drawn_modules(found["scoreboard"]["svg"]) != matrix_of(found["tv"]["url"])


def test_the_qr_codes_are_inline_svg_that_the_csp_allows(demo):
    _, live = demo
    response = Client().get(reverse("start_match", args=[live.pk]))
    html = response.content.decode()
    assert "<img" not in html and 'style="' not in html and "<script" not in html
    assert "style-src 'self'" in response["Content-Security-Policy"]
    svg = screens(html)["scoreboard"]["svg"]
    assert svg.startswith('<svg role="img" viewBox=') and "<title>QR code of the Scoreboard: http://testserver/" in svg


def test_the_officials_screens_say_they_need_a_login_and_name_no_official(demo):
    _, live = demo
    html = read(reverse("start_match", args=[live.pk]))
    found = screens(html)
    for key in ("referee", "scorer"):
        assert "Officials only: log in first." in found[key]["body"]
    for key in ("scoreboard", "tv", "overlay", "play_by_play"):
        assert "log in" not in found[key]["body"]
    for person in ("Sam Scorer", "Ulises Umpire", "Uma Umpire", "Rita Referee", "scorer</", "umpire1"):
        assert person not in html


def test_it_says_the_field_the_time_and_the_teams(demo):
    _, live = demo
    html = read(reverse("start_match", args=[live.pk]))
    head = html[html.index('<header class="st-head">') : html.index("</header>", html.index("st-head"))]
    assert "La Dolfina Blue v Ellerstina Red" in head
    assert "Field 1" in head
    assert timezone.localtime(live.starts_at).strftime("%H:%M") in head


def test_it_reads_in_spanish_and_the_overlay_asks_for_spanish(demo):
    _, live = demo
    html = read(reverse("start_match", args=[live.pk]), "es")
    assert '<html lang="es">' in html
    assert "Página de inicio" in html and "Solo para oficiales: inicie sesión primero." in html
    assert "La Dolfina Blue vs. Ellerstina Red" in html or "La Dolfina Blue v Ellerstina Red" in html
    found = screens(html)
    assert found["overlay"]["url"] == f"{BASE}/matches/{live.pk}/overlay/?lang=es"
    assert drawn_modules(found["overlay"]["svg"]) == matrix_of(found["overlay"]["url"])
    assert "Tanteador" in found["scoreboard"]["body"] and "Tablet de los Umpires" in found["referee"]["body"]


def test_it_prints_one_match_per_page_with_big_codes(demo):
    _, live = demo
    html = read(reverse("start_match", args=[live.pk]))
    assert "css/start-sheet.css" in html
    css = polo.urls.__file__.rsplit("/polo/", 1)[0] + "/static/css/start-sheet.css"
    with open(css, encoding="utf-8") as f:
        text = f.read()
    print_rules = text[text.index("@media print") :]
    assert ".st-match { margin: 0; break-after: page; }" in print_rules
    assert ".site-header, .no-print { display: none; }" in print_rules
    assert re.search(r"\.st-screen \.qr \{ max-width: [4-9]cm; \}", print_rules)


def test_an_unknown_match_has_no_start_page():
    assert Client().get(reverse("start_match", args=[999999])).status_code == 404


# --- The overlay builder, when the app has one -------------------------------------------------------


def _urlconf(*, builder: bool) -> ModuleType:
    """The app's URLs with the public ones replaced: with an overlay builder, or without one."""
    public = [p for p in public_urls.urlpatterns if getattr(p, "name", None) != "overlay_builder"]
    if builder:
        public.append(path("matches/<int:match_id>/overlay/build/", lambda r, match_id: None, name="overlay_builder"))
    others = [
        p
        for p in polo.urls.urlpatterns
        if not (isinstance(p, URLResolver) and getattr(p.urlconf_module, "__name__", "") == "matches.public.urls")
    ]
    urlconf = ModuleType(f"start_pages_urls_{'with' if builder else 'without'}_builder")
    urlconf.urlpatterns = [*others, path("", include(public))]  # type: ignore[attr-defined]
    return urlconf


def test_the_overlay_builder_is_offered_when_the_app_has_one(demo):
    _, live = demo
    with override_settings(ROOT_URLCONF=_urlconf(builder=True)):
        found = screens(read(f"/matches/{live.pk}/start/"))
    assert found["overlay_builder"]["url"] == f"{BASE}/matches/{live.pk}/overlay/build/"
    assert drawn_modules(found["overlay_builder"]["svg"]) == matrix_of(found["overlay_builder"]["url"])


def test_the_start_page_works_without_an_overlay_builder(demo):
    _, live = demo
    with override_settings(ROOT_URLCONF=_urlconf(builder=False)):
        found = screens(read(f"/matches/{live.pk}/start/"))
    assert "overlay_builder" not in found and "overlay" in found


# --- The day's sheet ---------------------------------------------------------------------------------


def test_the_days_sheet_has_every_match_of_the_day_with_the_stewards_screens(demo):
    tournament, live = demo
    day = timezone.localtime(live.starts_at).date()
    html = read(f"{reverse('start_day', args=[tournament.pk])}?date={day.isoformat()}")
    shown = [int(i) for i in re.findall(r'<section class="st-match" data-match-id="(\d+)">', html)]
    expected = [
        m.pk
        for m in Match.objects.filter(tournament=tournament).order_by("starts_at", "field__name")
        if timezone.localtime(m.starts_at).date() == day
    ]
    assert shown == expected and len(shown) >= 2
    sections = html.split('<section class="st-match"')[1:]
    for match_id, section in zip(shown, sections, strict=True):
        found = screens(section)
        assert list(found) == ["scoreboard", "tv", "overlay", "referee", "scorer"]
        assert found["tv"]["url"] == f"{BASE}/matches/{match_id}/?tv=1"
        assert drawn_modules(found["scorer"]["svg"]) == matrix_of(found["scorer"]["url"])
        assert f'href="/matches/{match_id}/start/"' in section


def test_the_days_sheet_of_a_day_without_matches_says_so(demo):
    tournament, _ = demo
    html = read(f"{reverse('start_day', args=[tournament.pk])}?date=1999-01-01")
    assert "No matches on this day." in html and "st-match" not in html.split("</head>")[1].replace("st-match {", "")


def test_the_days_sheet_in_spanish(demo):
    tournament, _ = demo
    html = read(reverse("start_day", args=[tournament.pk]), "es")
    assert "Hoja de inicio" in html and "Para el encargado de cancha" in html


# --- The home page -----------------------------------------------------------------------------------


def test_the_home_page_offers_each_screen_of_todays_matches_and_the_days_sheet(demo):
    tournament, live = demo
    html = read("/")
    item = re.search(rf'<li class="with-links" data-match-id="{live.pk}">.*?</li>', html, re.S).group(0)
    for href in (
        f"/matches/{live.pk}/",
        f"/matches/{live.pk}/?tv=1",
        f"/matches/{live.pk}/overlay/",
        f"/matches/{live.pk}/play-by-play/",
        f"/matches/{live.pk}/start/",
    ):
        assert f'href="{href}"' in item, href
    today = timezone.localdate().isoformat()
    assert f'href="/tournaments/{tournament.pk}/start/?date={today}"' in html


def test_the_home_page_in_spanish(demo):
    html = read("/", "es")
    assert "Página de inicio (códigos QR)" in html and "Jugada a jugada" in html
    assert "Hoja de inicio de la jornada: Demo Cup" in html
