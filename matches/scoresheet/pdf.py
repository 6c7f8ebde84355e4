"""The scoresheet in the official report's PDF (``committee.report_pdf`` calls these): the awards,
the signers with their roles and times, the log hash, and the same facts in the PDF's metadata so
that ``manage.py verify_report`` can read them back (docs/SCORESHEET.md).

The metadata: the PDF's *Subject* is ``polo-scoresheet match=<id> last_seq=<n> sha256=<hex>``; its
*Keywords* list the valid signatures as ``sig=<role>:<user id>:<epoch seconds>``. Both are ASCII, so
they stand in the file as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from matches.models import Match

from .selectors import broken_note, scoresheet

SUBJECT_PREFIX = "polo-scoresheet"
SUBJECT_RE = re.compile(rb"polo-scoresheet match=(\d+) last_seq=(\d+) sha256=([0-9a-f]{64})")
SIGNATURE_RE = re.compile(rb"sig=(umpire|referee):(\d+):(\d+)")


def _match(data: dict[str, Any]) -> Match | None:
    match_id = (data.get("match") or {}).get("id")
    return Match.objects.select_related("referee").filter(pk=match_id).first() if match_id else None


def pdf_metadata(data: dict[str, Any]) -> dict[str, str]:
    """``subject`` and ``keywords`` for reportlab's document (empty when the match is gone)."""
    match = _match(data)
    if match is None:
        return {}
    sheet = scoresheet(match, upto=data.get("last_seq"))
    signed = " ".join(f"sig={s.role}:{s.official_id}:{int(s.signed_at.timestamp())}" for s in sheet.valid)
    return {
        "subject": f"{SUBJECT_PREFIX} match={match.pk} last_seq={sheet.last_seq} sha256={sheet.log_hash}",
        "keywords": signed,
    }


def scoresheet_story(
    data: dict[str, Any],
    story: list[Any],
    para: Callable[..., Any],
    table: Callable[[list[str], list[list[Any]]], None],
) -> None:
    """Append the awards and the signed scoresheet to the report's story."""
    from matches.awards.selectors import match_awards

    match = _match(data)
    if match is None:
        return
    story.append(para(_("Awards"), "Heading3"))
    rows = []
    for award in match_awards(match):
        team = award.entry.team.name if award.entry_id else ""
        rows.append([award.get_kind_display(), award.player.name, team, award.horse, award.owner, award.breeder])
    table([_("Award"), _("Player"), _("Team"), _("Horse"), _("Owner"), _("Breeder")], rows)

    sheet = scoresheet(match, upto=data.get("last_seq"))
    story.append(para(_("Official scoresheet"), "Heading3"))
    if sheet.broken:
        story.append(para(broken_note(sheet), "Italic"))
    rows = [
        [
            s.name,
            s.role_label,
            timezone.localtime(s.signed_at).strftime("%Y-%m-%d %H:%M:%S"),
            s.last_seq,
            _("valid")
            if s.valid
            else _("altered: its seal does not match")
            if not s.sealed
            else _("broken: the log changed after it"),
        ]
        for s in sheet.signatures
    ]
    rows += [[o.name, o.role_label, _("to sign"), "", ""] for o in sheet.unsigned]
    table([_("Official"), _("Role"), _("Signed at"), _("Log position"), _("Signature")], rows)
    story.append(
        para(_("Log hash (SHA-256) of positions 1–%(seq)s: %(hash)s") % {"seq": sheet.last_seq, "hash": sheet.log_hash})
    )
    story.append(para(_("Check it with: manage.py verify_report <this PDF>"), "Italic"))
