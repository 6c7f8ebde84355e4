"""``tools/screenshots --guides`` (issue 12, items 6 and 8) runs as a reviewer runs it and writes the
guides' pictures: one JPEG per picture a guide shows, in each language, at the size the guide
declares (so the committed pictures in static/help/ are the script's, taken again with one command).
The same run (``--match``) takes the whole match (issue 38): every moment of it on every screen that
shows it, in each language (``screens.match_shots``), each taken once the screen showed that moment.
"""

from __future__ import annotations

import re
import subprocess

import pytest
from PIL import Image

from polo.testing import BASE_DIR

from .screens import LANGUAGES, MATCH_PHASES, MATCH_SCREENS, match_shots

# What Chromium draws from the demo's data: the same on either backend (CI runs it once, conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.backend_independent]

GUIDES = BASE_DIR / "templates" / "help"
PICTURE = re.compile(r"<img[^>]*\ssrc=\"\{% static 'help/([^']+)' %\}\"[^>]*>", re.S)


def guide_pictures() -> dict[str, tuple[int, int]]:
    """Each picture the guides show: its file name and the width and height the guide declares."""
    found = {}
    for path in sorted(GUIDES.glob("*/*.html")):
        for tag in PICTURE.finditer(path.read_text(encoding="utf-8")):
            size = tuple(int(re.search(rf'\s{a}="(\d+)"', tag.group(0)).group(1)) for a in ("width", "height"))
            found[tag.group(1)] = size
    return found


def test_the_script_writes_every_picture_the_guides_show_and_every_moment_of_a_match_on_every_screen(tmp_path):
    wanted = guide_pictures()
    assert len(wanted) >= 10 and all(name.endswith(("-en.jpg", "-es.jpg")) for name in wanted)
    done = subprocess.run(
        [str(BASE_DIR / "tools" / "screenshots"), "--guides", "--match", "--out", str(tmp_path)],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    written = {p.name for p in tmp_path.glob("*.jpg")}
    assert set(wanted) <= written, f"not written: {sorted(set(wanted) - written)}"
    for name, size in wanted.items():
        with Image.open(tmp_path / name) as picture:
            assert picture.format == "JPEG" and picture.size == size, name
        assert (BASE_DIR / "static" / "help" / name).is_file(), f"{name} is not committed in static/help/"

    # The whole match: each (moment, screen) pair in each language, and nothing else.
    shots = match_shots()
    assert len(shots) == len(LANGUAGES) * len(MATCH_PHASES) * len(MATCH_SCREENS) >= 100
    taken = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "match").rglob("*.png"))
    assert taken == sorted(shots)
    for shot in shots:
        screen = shot.rsplit("-", 1)[1].removesuffix(".png")
        (width, height), whole_page = MATCH_SCREENS[screen][1], MATCH_SCREENS[screen][3]
        with Image.open(tmp_path / shot) as picture:
            tall_enough = picture.height >= height if whole_page else picture.height == height
            assert picture.width == width and tall_enough, shot
    assert f"{len(written) + len(shots)} screenshots in {tmp_path}" in done.stdout
