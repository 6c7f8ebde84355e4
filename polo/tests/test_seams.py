"""The fast paths into libraries' internals (``polo/seams.py``): each fits the pinned library (this
fails when an upgrade changes what a seam relies on), each check can see a change, and a seam that
does not fit is turned off at start-up with an ERROR while the app goes on, on the library's
public path."""

from __future__ import annotations

import logging

import pytest
from django.conf import settings

from polo import seams


@pytest.fixture(autouse=True)
def _verified_again():
    """Whatever a test turns off, the next one starts from the start-up's verdict."""
    yield
    seams.verify()


@pytest.mark.parametrize("name", sorted(seams.SEAMS))
def test_each_seam_fits_the_pinned_library_and_is_on(name):
    seam = seams.SEAMS[name]
    assert seam.check() == [], f"{seam.library} {seams.version(seam.library)} changed what {name} relies on"
    assert seams.on(name) is (name not in settings.STOCK_PARTS and "all" not in settings.STOCK_PARTS)


def test_a_seam_whose_library_changed_is_turned_off_with_an_error_naming_what_is_missing(monkeypatch, caplog):
    name = sorted(seams.SEAMS)[0]
    monkeypatch.setattr(seams.SEAMS[name], "check", lambda: ["Thing.attribute"])
    with caplog.at_level(logging.WARNING, logger="polo.seams"):
        verdict = seams.verify([])
    assert verdict[name] is False and not seams.on(name)
    assert all(on for other, on in verdict.items() if other != name)
    [record] = [r for r in caplog.records if r.getMessage().startswith(f"seam {name} ")]
    assert record.levelno == logging.ERROR
    assert "Thing.attribute" in record.getMessage()


def test_a_check_that_cannot_run_turns_its_seam_off_too(monkeypatch, caplog):
    name = sorted(seams.SEAMS)[0]

    def broken():
        raise ImportError("no such module")

    monkeypatch.setattr(seams.SEAMS[name], "check", broken)
    with caplog.at_level(logging.ERROR, logger="polo.seams"):
        assert seams.verify([])[name] is False
    assert "no such module" in caplog.text


def test_stock_parts_turns_seams_off_by_name_or_all_with_a_warning(caplog):
    name = sorted(seams.SEAMS)[0]
    with caplog.at_level(logging.WARNING, logger="polo.seams"):
        verdict = seams.verify([name])
    assert verdict[name] is False
    assert [r.levelno for r in caplog.records if r.getMessage().startswith(f"seam {name} ")] == [logging.WARNING]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not any(seams.verify(["all"]).values())


def test_the_helpers_see_a_missing_attribute_parameter_assignment_or_call():
    class Library:
        def __init__(self) -> None:
            self.kept = 1

        def method(self, index, channel):
            return self.helper()

        def helper(self):
            return None

    assert seams.missing_attributes(Library, ("method", "gone"), "Library") == ["Library.gone"]
    assert seams.missing_assigned(Library, ("kept", "dropped")) == ["Library instances' dropped"]
    assert seams.missing_parameters(Library.method, ("index", "timeout"), "method") == ["method(timeout=)"]
    assert seams.missing_calls(Library.method, ("helper", "other"), "method") == ["method using other"]


def test_the_orm_seams_check_sees_django_lose_what_it_relies_on(monkeypatch):
    from django.db.models.base import ModelState
    from django.db.models.fields import Field

    check = seams.SEAMS["orm-compiled"].check
    monkeypatch.delattr(Field, "get_col")
    monkeypatch.delattr(ModelState, "adding")
    assert check() == ["Field.get_col", "ModelState.adding"]
