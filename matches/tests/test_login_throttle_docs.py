"""docs/SECURITY.md backs each line with a named test (``path::test``): every one it names exists."""

from __future__ import annotations

import re

from polo.testing import BASE_DIR

CITATION = re.compile(r"`([\w./-]+\.py)::(\w+)`")


def test_every_test_security_md_names_exists():
    text = (BASE_DIR / "docs" / "SECURITY.md").read_text()
    cited = CITATION.findall(text)
    assert len(cited) >= 20
    missing = []
    for path, name in cited:
        source = BASE_DIR / path
        if not source.is_file() or not re.search(rf"^(async )?def {name}\(", source.read_text(), flags=re.M):
            missing.append(f"{path}::{name}")
    assert not missing, missing
