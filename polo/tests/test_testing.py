"""The test servers' databases (``polo.testing``): each is a copy of one migrated template made once
per run, and none shares anything with another or with the template."""

from __future__ import annotations

import json

from polo import testing
from polo.testing import ServerProcess

# The content types that migrating writes, and the groups (none until a test makes one).
ROWS = (
    "import json; from django.contrib.auth.models import Group;"
    " from django.contrib.contenttypes.models import ContentType;"
    " print('ROWS', json.dumps([sorted(ContentType.objects.values_list('model', flat=True)),"
    " sorted(Group.objects.values_list('name', flat=True))]))"
)


def rows(server: ServerProcess) -> list[list[str]]:
    out = server.manage("shell", "-c", ROWS)
    return json.loads(out.split("ROWS", 1)[1].strip().splitlines()[0])


def test_each_server_gets_its_own_copy_of_one_migrated_template(tmp_path, monkeypatch):
    monkeypatch.setattr(testing, "_templates", {})  # this test's own template, made afresh
    made = []
    real = testing._migrated_template

    def counted():
        made.append(dict(testing._templates))
        return real()

    monkeypatch.setattr(testing, "_migrated_template", counted)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = ServerProcess(tmp_path / "a", "a", demo=False)
    second = ServerProcess(tmp_path / "b", "b", demo=False)
    try:
        assert len(testing._templates) == 1 and made[0] == {} and len(made[1]) == 1  # made once, then reused
        template = next(iter(testing._templates.values()))
        assert template not in (first.database_url, second.database_url) and first.database_url != second.database_url
        migrated, none = rows(first)
        assert {"match", "tournament", "user"} <= set(migrated) and none == []
        assert rows(second) == [migrated, []]  # what migrating writes is in every copy
        first.manage("shell", "-c", "from django.contrib.auth.models import Group; Group.objects.create(name='a')")
        assert rows(first) == [migrated, ["a"]]
        assert rows(second) == [migrated, []]  # a copy, not the same database
    finally:
        first.close()
        second.close()
