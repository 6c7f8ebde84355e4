"""The guides: each answers in both languages, shows pictures that exist (at the size it says, with
a text alternative), and links only to pages that answer; the header of every page links to the help."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from PIL import Image

from matches.help.views import GUIDES

ROLES = [slug for slug, _ in GUIDES]
LANGUAGES = [code for code, _ in settings.LANGUAGES]


class Page(HTMLParser):
    """The images and links of a page's guide (inside ``#guide``), and the page's language."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str]] = []
        self.links: list[str] = []
        self.lang = ""
        self.h1 = ""
        self._depth = 0  # inside <article id="guide">: its depth of <article>
        self._in_h1 = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.lang = a.get("lang", "")
        if tag == "article":
            self._depth += 1 if (self._depth or a.get("id") == "guide") else 0
        if not self._depth:
            return
        if tag == "img":
            self.images.append(a)
        elif tag == "a":
            self.links.append(a.get("href", ""))
        elif tag == "h1":
            self._in_h1 = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "article" and self._depth:
            self._depth -= 1
        if tag == "h1":
            self._in_h1 = False

    def handle_data(self, data: str) -> None:
        if self._in_h1:
            self.h1 += data


def read(client, path: str, lang: str) -> Page:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, path
    assert response.headers["Content-Language"] == lang
    page = Page()
    page.feed(response.content.decode())
    return page


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_each_guide_answers_in_each_language(client, db, role, lang):
    page = read(client, f"/help/{role}/", lang)
    assert page.lang == lang and page.h1.strip()
    others = {other: read(client, f"/help/{role}/", other).h1 for other in LANGUAGES if other != lang}
    assert page.h1 not in others.values(), "the guide is not written in this language"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_each_guide_shows_pictures_that_exist(client, db, role, lang):
    page = read(client, f"/help/{role}/", lang)
    assert page.images, "a guide shows the screens it is about"
    for image in page.images:
        assert image["alt"].strip(), image
        name = re.sub(r"^/?" + re.escape(settings.STATIC_URL.strip("/")) + "/", "", image["src"])
        found = finders.find(name)
        assert found, f"{image['src']} is not in static/"
        with Image.open(found) as picture:
            assert picture.size == (int(image["width"]), int(image["height"])), image["src"]
        assert name.endswith(f"-{lang}.jpg"), "a guide shows its screens in its own language"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_every_link_in_a_guide_resolves(client, db, role, lang):
    page = read(client, f"/help/{role}/", lang)
    assert page.links
    for href in page.links:
        assert href.startswith("/"), f"{href}: a guide links inside the app"
        status = client.get(href, HTTP_ACCEPT_LANGUAGE=lang).status_code
        assert status in (200, 302), f"{href}: {status}"  # 302: the committee's pages ask to log in


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_index_lists_every_guide(client, db, lang):
    html = client.get("/help/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    for role in ROLES:
        assert f'href="/help/{role}/"' in html


def test_an_unknown_guide_is_not_found(client, db):
    assert client.get("/help/groom/").status_code == 404


def test_every_page_links_to_the_help(client, db):
    assert 'class="help-link" href="/help/"' in client.get("/accounts/login/").content.decode()
