"""Admin for every model, usable by a committee member: filters, search, roster inlines.

Events are shown read-only: the log is append-only and corrections are ``void`` events.
"""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .committee.models import AuditEntry, MatchReport, Webhook, WebhookDelivery
from .models import Entry, Field, Match, MatchEvent, Player, RosterLine, Team, Tournament
from .officials.models import ScoreConfirmation


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    show_change_link = True
    autocomplete_fields = ["team"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "upper_handicap_limit", "rules_edition"]
    list_filter = ["club", "rules_edition", "starts_on"]
    search_fields = ["name", "club"]
    date_hierarchy = "starts_on"
    inlines = [EntryInline]


@admin.register(Field)
class FieldAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "length", "width", "boarded"]
    list_filter = ["club", "boarded"]
    search_fields = ["name", "club"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "color"]
    search_fields = ["name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "handicap"]
    list_filter = ["handicap"]
    search_fields = ["name"]


class RosterLineInline(admin.TabularInline):
    model = RosterLine
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["team", "tournament", "handicap"]
    list_filter = ["tournament"]
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


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "field", "starts_at", "status", "last_seq"]
    list_filter = ["tournament", "stage", "field", "status", "starts_at"]
    search_fields = ["home__team__name", "away__team__name", "tournament__name"]
    date_hierarchy = "starts_at"
    filter_horizontal = ["umpires"]
    autocomplete_fields = ["home", "away"]
    readonly_fields = ["status", "last_seq"]
    inlines = [MatchEventInline]


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):
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


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records that are append-only (audit, confirmations, reports, deliveries): view and search."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "user", "action", "tournament", "match"]
    list_filter = ["action", "tournament"]
    search_fields = ["user__username", "action"]
    date_hierarchy = "at"


@admin.register(ScoreConfirmation)
class ScoreConfirmationAdmin(ReadOnlyAdmin):
    list_display = ["match", "period", "umpire", "home", "away", "at"]
    list_filter = ["match__tournament"]


@admin.register(MatchReport)
class MatchReportAdmin(ReadOnlyAdmin):
    list_display = ["match", "last_seq", "built_at"]
    list_filter = ["match__tournament"]
    exclude = ["pdf"]


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["name", "url", "tournament", "active"]
    list_filter = ["active", "tournament"]
    search_fields = ["name", "url"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    list_display = ["webhook", "key", "attempt", "status_code", "ok", "at"]
    list_filter = ["ok", "webhook"]
    search_fields = ["key"]
