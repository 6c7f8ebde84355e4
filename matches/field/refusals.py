"""Every refusal and trouble of a match kept at the field, by name, in the reader's language.

The tournament's server refuses a field's pairing or push with a protocol ``code``
(docs/LIVE-PROTOCOL.md) and says which of the texts below it means, with what in it
(``"detail": {"text": <name>, "params": {...}}``, beside the message in the request's language).
The field server keeps that detail with its link (``FieldLink.error_params``) and says it again in
the language of whoever reads it: the scorer's screen, ``./dev field status``. The field's own
troubles (no link, a pairing it cannot take) are named here too, so the field says them the same way.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

TEXTS: dict[str, Any] = {
    # The field token (``services.field_token_check``).
    "field_token_missing": _("Send the field token in the Authorization header (Bearer)."),
    "field_token_wrong": _("This field token is not known here: check it, or ask the committee for a new one."),
    "field_token_expired": _("This field token expired: ask the committee for a new one."),
    "field_token_revoked": _("The committee revoked this field token: ask the committee for a new one."),
    "field_token_other_match": _(
        "This field token is for %(scope)s: match %(match)s is not one of them. Nothing was stored; ask the "
        "committee for a token of this match."
    ),
    # The replica's append (``services.replica_append``).
    "not_kept_at_field": _(
        "This match is no longer kept at the field (the committee took it back, or it ended): the tournament's "
        "server takes no more of the field's events for it."
    ),
    "log_gap": _(
        "The field's log does not follow on from the tournament's server's: the server has %(last)s events, "
        "the batch starts after event %(after)s."
    ),
    "log_changed": _(
        "The field's log is not the one the tournament's server holds: event #%(seq)s differs. Nothing was stored; "
        "ask the committee."
    ),
    "log_hash_differs": _(
        "The log hash after the batch differs from the field's: nothing was stored; ask the committee."
    ),
    "log_other_match": _(
        "These events are of another match, or of this match with other teams, rosters or rules than the "
        "tournament's server has: nothing was stored; ask the committee."
    ),
    "log_not_accepted": _(
        "Event #%(seq)s of the field's log is refused by the rules here (%(code)s): nothing was stored."
    ),
    "invalid_log_body": _("The log is not valid: the body must be a JSON object."),
    "invalid_log_envelope": _("The log is not valid: after (a seq) and events (a list) are required."),
    "invalid_log_hashes": _("The log is not valid: prefix_hash, log_hash and config_hash are required."),
    "invalid_log_too_many": _("The log is not valid: at most %(most)s events a batch."),
    "invalid_log_event": _("The log is not valid: event #%(seq)s: %(problem)s"),
    # The field's own troubles (``sender``, ``wire``).
    "unreachable": _("The tournament's server cannot be reached (%(reason)s): the log is kept here."),
    "http_error": _("The tournament's server answered HTTP %(status)s: the log is kept here."),
    "not_https": _("The field token only travels over HTTPS: use the tournament's server's https:// address."),
    "pairing_format": _("This is not a pairing this field server reads (format %(format)s, version %(version)s)."),
    "pairing_missing": _("The pairing's %(key)s is missing or not valid."),
    "pairing_event": _("Event #%(seq)s of the pairing's log is not valid: %(problem)s"),
    "pairing_log_differs": _(
        "Event #%(seq)s of this field's log differs from the tournament's server's: ask the committee."
    ),
    "pairing_config": _("The match as paired differs from the tournament's server's (its config hash)."),
    "pairing_none": _("This field token authorises no match yet: ask the committee which token to use."),
}


def say(text: str, params: dict[str, Any] | None = None, lang: str | None = None) -> str:
    """The text named ``text`` with ``params``, in ``lang`` (the active language if None)."""
    if lang is None:
        return str(TEXTS[text]) % params if params else str(TEXTS[text])
    with translation.override(lang):
        return say(text, params)


def known(detail: Any) -> bool:
    """Whether ``detail`` (``{"text", "params"}``, from a refusal or a link) names a text here."""
    return (
        isinstance(detail, dict)
        and detail.get("text") in TEXTS
        and isinstance(detail.get("params", {}), dict)
        and all(isinstance(v, (str, int, float)) for v in detail.get("params", {}).values())
    )


def retell(detail: Any, fallback: str, lang: str | None = None) -> str:
    """The message of a stored refusal in ``lang``: its named text, or ``fallback`` (a message of a
    server of another version, as it came)."""
    if not known(detail):
        return fallback
    try:
        return say(detail["text"], detail.get("params") or None, lang)
    except (KeyError, TypeError, ValueError):
        return fallback
