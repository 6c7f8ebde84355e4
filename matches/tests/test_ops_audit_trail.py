"""The audit trail is append-only, as the event log is (docs/SECURITY.md): the ORM refuses to change
or delete an entry, one by one or in bulk."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from matches.committee.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_the_orm_refuses_to_change_or_delete_an_audit_entry():
    entry = AuditEntry.objects.create(action=AuditEntry.Action.FIELD_CREATE, details={"name": "Field 9"})
    entry.details = {"name": "Field 10"}
    with pytest.raises(ValidationError):
        entry.save()
    with pytest.raises(ValidationError):
        entry.delete()
    with pytest.raises(ValidationError):
        AuditEntry.objects.filter(pk=entry.pk).update(details={})
    with pytest.raises(ValidationError):
        AuditEntry.objects.filter(pk=entry.pk).delete()
    assert AuditEntry.objects.get(pk=entry.pk).details == {"name": "Field 9"}
