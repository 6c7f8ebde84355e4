"""``manage.py create_official``: how the committee's first officials get their logins."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.core.management.base import CommandError

from matches.permissions import is_committee

pytestmark = pytest.mark.django_db


def test_it_creates_a_scorer_who_can_log_in():
    call_command("create_official", "sam", "--role", "scorer", "--password", "s3cret-pass", "--name", "Sam Scorer")
    user = authenticate(username="sam", password="s3cret-pass")
    assert user is not None
    assert user.get_full_name() == "Sam Scorer"
    assert list(user.groups.values_list("name", flat=True)) == ["scorer"]
    assert not user.is_staff and not is_committee(user)


def test_a_committee_member_gets_the_admin_for_tournaments_but_cannot_change_events():
    call_command("create_official", "carmen", "--role", "committee", "--password", "c0mmittee-pass")
    user = authenticate(username="carmen", password="c0mmittee-pass")
    assert user.is_staff and is_committee(user)
    assert user.has_perm("matches.change_tournament") and user.has_perm("matches.add_match")
    assert user.has_perm("matches.view_matchevent")
    assert not user.has_perm("matches.change_matchevent") and not user.has_perm("matches.delete_matchevent")


def test_it_refuses_an_unknown_role():
    with pytest.raises(CommandError):
        call_command("create_official", "x", "--role", "king", "--password", "p")
