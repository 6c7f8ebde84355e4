"""Admin for every model, usable by a committee member: filters, search, roster inlines.

Events are shown read-only: the log is append-only and corrections are ``void`` events.

A committee member sees and changes only their own tournaments' records (``TournamentScoped``: the
lists, the forms' choices and the change pages; another tournament's record is "not found"), and the
shared records (fields, teams, players) only while no other tournament uses them. The federation
(superusers, the ``federation`` group) sees everything and assigns the committees
(``CommitteeAssignment``: added here, revoked by an action, never deleted).
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db import transaction
from django.utils.translation import gettext_lazy as _, ngettext

from .committee.forms import LOCKED_ONCE_PLAYED, FieldForm, TournamentForm, match_check, officials_check
from .committee.models import AuditEntry, MatchReport, Webhook, WebhookDelivery
from .committee.services import Action, audit_record, committee_assign, committee_revoke
from .models import CommitteeAssignment, Entry, Field, Match, MatchEvent, Player, RosterLine, Team, Tournament
from .officials.models import ScoreConfirmation
from .permissions import COMMITTEE_GROUP, committee_tournament_ids, is_federation
from .sessions import end_sessions


class TournamentScoped(admin.ModelAdmin):
    """Only the rows of the member's tournaments (``scope``: the lookup from the model to the
    tournament's id), and only those tournaments (and their entries) in the forms' choices."""

    scope = "tournament_id"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        ids = committee_tournament_ids(request.user)
        return queryset if ids is None else queryset.filter(**{f"{self.scope}__in": ids})

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        ids = committee_tournament_ids(request.user)
        if ids is not None and db_field.related_model is Tournament:
            kwargs["queryset"] = Tournament.objects.filter(pk__in=ids)
        elif ids is not None and db_field.related_model is Entry:
            kwargs["queryset"] = Entry.objects.filter(tournament_id__in=ids).select_related("team", "tournament")
        elif ids is not None and db_field.related_model is Match:
            kwargs["queryset"] = Match.objects.filter(tournament_id__in=ids)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class SharedRecord(admin.ModelAdmin):
    """A record the tournaments share (a field, a team, a player): every member sees it, but changes
    or deletes it only while no other tournament uses it (``used_by``: the tournaments that do)."""

    def used_by(self, obj) -> set[int]:
        raise NotImplementedError

    def _ours(self, request, obj) -> bool:
        ids = committee_tournament_ids(request.user)
        return obj is None or ids is None or self.used_by(obj) <= ids

    def has_change_permission(self, request, obj=None) -> bool:
        return super().has_change_permission(request, obj) and self._ours(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and self._ours(request, obj)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    show_change_link = True
    autocomplete_fields = ["team"]


class TournamentAdminForm(TournamentForm):
    """The committee's tournament form (its bounds, and the handicap limits against the teams
    entered), over every field the admin shows."""

    class Meta(TournamentForm.Meta):
        fields = "__all__"


@admin.register(Tournament)
class TournamentAdmin(TournamentScoped):
    """A tournament, checked as the committee's page checks it. Its rule edition (which the
    committee's page does not offer) is read-only once one of its matches has begun: every match's
    log is judged by it."""

    form = TournamentAdminForm
    scope = "pk"

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.matches.filter(last_seq__gt=0).exists():
            return ["rules_edition"]
        return []

    list_display = ["name", "club", "starts_on", "ends_on", "upper_handicap_limit", "rules_edition"]
    list_filter = ["club", "rules_edition", "starts_on"]
    search_fields = ["name", "club"]
    date_hierarchy = "starts_on"
    inlines = [EntryInline]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if not change:  # the creator runs it, as on the committee's pages
            committee_assign(member=request.user, tournament=obj, by=request.user)


@admin.register(Field)
class FieldAdmin(SharedRecord):
    form = FieldForm  # the committee's: a field the engine can lay Rule 22's lines out on
    list_display = ["name", "club", "length", "width", "boarded"]
    list_filter = ["club", "boarded"]
    search_fields = ["name", "club"]

    def used_by(self, obj: Field) -> set[int]:
        return set(Match.objects.filter(field=obj).values_list("tournament_id", flat=True))


@admin.register(Team)
class TeamAdmin(SharedRecord):
    list_display = ["name", "color"]
    search_fields = ["name"]

    def used_by(self, obj: Team) -> set[int]:
        return set(Entry.objects.filter(team=obj).values_list("tournament_id", flat=True))


@admin.register(Player)
class PlayerAdmin(SharedRecord):
    list_display = ["name", "handicap"]
    list_filter = ["handicap"]
    search_fields = ["name"]

    def used_by(self, obj: Player) -> set[int]:
        return set(RosterLine.objects.filter(player=obj).values_list("entry__tournament_id", flat=True))


class RosterLineInline(admin.TabularInline):
    """Read-only here: a roster is changed on the committee's entry page (``RosterLineForm``), which
    checks the tournament's handicap limits and Rule 21.d (no player knocked out today joins a team
    that plays again today); an editable inline would go round both."""

    model = RosterLine
    extra = 0
    can_delete = False
    fields = ["number", "player", "handicap"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Entry)
class EntryAdmin(TournamentScoped):
    list_display = ["team", "tournament", "handicap"]
    list_filter = [("tournament", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["team__name", "tournament__name"]
    inlines = [RosterLineInline]

    @admin.display(description=_("team handicap"))
    def handicap(self, obj: Entry) -> int:
        return obj.team_handicap


class MatchEventInline(admin.TabularInline):
    model = MatchEvent
    extra = 0
    can_delete = False
    fields = ["seq", "type", "payload", "sent_by", "received_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class MatchAdminForm(forms.ModelForm):
    """The admin's match form checks what the committee's forms check (``match_check``,
    ``officials_check``): the admin is no way round the rules."""

    class Meta:
        model = Match
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        tournament = cleaned.get("tournament") or (self.instance.tournament if self.instance.tournament_id else None)
        if tournament is not None:
            match_check(self, tournament)
        officials_check(self)
        return cleaned


@admin.register(Match)
class MatchAdmin(TournamentScoped):
    """A match's schedule and officials. Once its log has begun, what the rules fix then
    (``LOCKED_ONCE_PLAYED``: the chukkers' number and length, the teams, their ends, the handicap
    goals) is read-only here as on the committee's pages; a change is saved under the match's lock,
    and never writes the live path's own fields (the log position, the status, the state)."""

    form = MatchAdminForm
    list_display = ["__str__", "tournament", "field", "starts_at", "status", "last_seq"]
    list_filter = [("tournament", admin.RelatedOnlyFieldListFilter), "stage", "field", "status", "starts_at"]
    search_fields = ["home__team__name", "away__team__name", "tournament__name"]
    date_hierarchy = "starts_at"
    filter_horizontal = ["umpires"]
    autocomplete_fields = ["home", "away"]
    readonly_fields = ["status", "last_seq"]
    inlines = [MatchEventInline]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.last_seq > 0:
            return [*self.readonly_fields, *LOCKED_ONCE_PLAYED]
        return self.readonly_fields

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            audit_record(user=request.user, action=Action.MATCH_CREATE, match=obj, details=_changed(obj, form))
            return
        with transaction.atomic():
            current = Match.objects.select_for_update(of=("self",)).get(pk=obj.pk)
            fields = [name for name in form.cleaned_data if name in MATCH_COLUMNS]
            if current.last_seq > 0:  # (play may have begun since the form was read)
                fields = [name for name in fields if name not in LOCKED_ONCE_PLAYED]
            obj.save(update_fields=fields)
            audit_record(user=request.user, action=Action.MATCH_EDIT, match=obj, details=_changed(obj, form))


# The columns of a match the admin's form may write (not its many-to-many umpires, saved apart).
MATCH_COLUMNS = frozenset(f.name for f in Match._meta.concrete_fields if f.editable and not f.primary_key)


def _changed(obj, form) -> dict:
    return {"id": obj.pk, "name": str(obj), "changed": list(form.changed_data)}


@admin.register(MatchEvent)
class MatchEventAdmin(TournamentScoped):
    scope = "match__tournament_id"
    list_display = ["match", "seq", "type", "sent_by", "received_at"]
    list_filter = ["type", "match__tournament"]
    search_fields = ["client_id", "type"]
    readonly_fields = ["match", "seq", "client_id", "type", "payload", "sent_by", "received_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(TournamentScoped):
    """Records that are append-only (audit, confirmations, reports, deliveries): view and search."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "user", "action", "acting_as", "tournament", "match"]
    list_filter = ["action", "scope", ("tournament", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["user__username", "action"]
    date_hierarchy = "at"

    @admin.display(description=_("acting as"))
    def acting_as(self, obj: AuditEntry) -> str:
        return obj.acting_as()


@admin.register(ScoreConfirmation)
class ScoreConfirmationAdmin(ReadOnlyAdmin):
    scope = "match__tournament_id"
    list_display = ["match", "period", "umpire", "home", "away", "at"]
    list_filter = [("match__tournament", admin.RelatedOnlyFieldListFilter)]


@admin.register(MatchReport)
class MatchReportAdmin(ReadOnlyAdmin):
    scope = "match__tournament_id"
    list_display = ["match", "last_seq", "built_at"]
    list_filter = [("match__tournament", admin.RelatedOnlyFieldListFilter)]
    exclude = ["pdf"]


@admin.register(Webhook)
class WebhookAdmin(TournamentScoped):
    """A webhook of every tournament (no tournament) is the federation's; a member's names one of theirs."""

    list_display = ["name", "url", "tournament", "active"]
    list_filter = ["active", ("tournament", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["name", "url"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        if not is_federation(request.user) and "tournament" in form.base_fields:
            form.base_fields["tournament"].required = True
        return form


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    scope = "webhook__tournament_id"
    list_display = ["webhook", "key", "attempt", "ok", "at"]
    list_filter = ["ok", "webhook"]
    search_fields = ["key"]


@admin.register(CommitteeAssignment)
class CommitteeAssignmentAdmin(TournamentScoped):
    """Who runs which tournament. The federation assigns (add) and revokes (the action); an
    assignment is never deleted, as the audit trail names it. Each is recorded in the trail."""

    list_display = ["user", "tournament", "assigned_at", "assigned_by", "revoked_at", "revoked_by"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter), ("tournament", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["user__username", "user__first_name", "user__last_name", "tournament__name"]
    fields = ["user", "tournament", "assigned_at", "assigned_by", "revoked_at", "revoked_by"]
    readonly_fields = ["assigned_at", "assigned_by", "revoked_at", "revoked_by"]
    autocomplete_fields = ["tournament"]
    actions = ["revoke"]

    def get_readonly_fields(self, request, obj=None):
        return self.fields if obj is not None else self.readonly_fields

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":
            kwargs["queryset"] = (
                get_user_model().objects.filter(is_active=True, groups__name=COMMITTEE_GROUP).order_by("username")
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_add_permission(self, request) -> bool:
        return is_federation(request.user) and super().has_add_permission(request)

    def has_change_permission(self, request, obj=None) -> bool:
        return is_federation(request.user) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not is_federation(request.user):
            actions.pop("revoke", None)
        return actions

    def save_model(self, request, obj, form, change) -> None:
        if change:
            return  # every field is read-only once assigned: revoke it and assign again
        assignment = committee_assign(member=obj.user, tournament=obj.tournament, by=request.user)
        obj.pk, obj.assigned_at, obj.assigned_by = assignment.pk, assignment.assigned_at, assignment.assigned_by

    @admin.action(description=_("Revoke the selected assignments"))
    def revoke(self, request, queryset) -> None:
        revoked = 0
        for assignment in queryset.filter(revoked_at__isnull=True):
            committee_revoke(assignment=assignment, by=request.user)
            revoked += 1
        text = ngettext("%(count)d assignment revoked.", "%(count)d assignments revoked.", revoked)
        self.message_user(request, text % {"count": revoked}, messages.SUCCESS)


User = get_user_model()
admin.site.unregister(User)  # django.contrib.auth's, registered first (INSTALLED_APPS): replaced here


@admin.register(User)
class OfficialAdmin(UserAdmin):
    """Django's user admin, with an action that ends the selected users' sessions on every device
    (a laptop left at the field, an official taken off the tournament): their next request asks
    them to sign in."""

    actions = ["sign_out_everywhere"]

    def get_deleted_objects(self, objs, request):
        """An official who logged events of a match is never deleted (``MatchEvent.sent_by`` is
        PROTECT: the append-only log keeps its authors). Django lists the events that protect the
        account; this says why, and what to do instead."""
        found = super().get_deleted_objects(objs, request)
        authors = sorted(
            set(MatchEvent.objects.filter(sent_by__in=list(objs)).values_list("sent_by__username", flat=True))
        )
        if authors:
            text = _(
                "A match's log keeps its authors, and %(users)s logged events in one: an official who logged "
                "events cannot be deleted. Make the account inactive instead (untick “Active” on its page): "
                "it can no longer sign in, and the log still names it."
            )
            self.message_user(request, text % {"users": ", ".join(authors)}, messages.ERROR)
        return found

    @admin.action(description=_("Sign the selected users out everywhere"), permissions=["change"])
    def sign_out_everywhere(self, request, queryset) -> None:
        ended = end_sessions(queryset)
        text = ngettext("%(count)d session ended.", "%(count)d sessions ended.", ended)
        self.message_user(request, text % {"count": ended}, messages.SUCCESS)
