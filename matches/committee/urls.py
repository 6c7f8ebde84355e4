"""The committee's screens and reports (``/committee/``)."""

from django.urls import path

from .views import lockouts, match, results, setup, shootout

app_name = "committee"

urlpatterns = [
    path("", setup.home, name="home"),
    path("day/", setup.day_view, name="day"),
    path("availability/", setup.availability_view, name="availability"),
    path("tournaments/new/", setup.tournament_new, name="tournament_new"),
    path("tournaments/<int:pk>/", setup.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/edit/", setup.tournament_edit, name="tournament_edit"),
    path("tournaments/<int:pk>/entries/new/", setup.entry_new, name="entry_new"),
    path("tournaments/<int:pk>/matches/new/", setup.match_new, name="match_new"),
    path("tournaments/<int:pk>/standings/", results.tournament_standings, name="standings"),
    path("tournaments/<int:pk>/bracket/", results.tournament_bracket, name="bracket"),
    path("tournaments/<int:pk>/export.json", results.tournament_export, name="tournament_export"),
    path("fields/new/", setup.field_new, name="field_new"),
    path("fields/<int:pk>/", setup.field_edit, name="field_edit"),
    path("entries/<int:pk>/", setup.entry_detail, name="entry"),
    path("entries/<int:pk>/withdraw/", setup.entry_withdraw, name="entry_withdraw"),
    path("roster/<int:pk>/", setup.roster_line_edit, name="roster_line"),
    path("matches/<int:pk>/", match.match_detail, name="match"),
    path("matches/<int:pk>/edit/", setup.match_edit, name="match_edit"),
    path("matches/<int:pk>/officials/", match.match_officials, name="match_officials"),
    path("matches/<int:pk>/handicap/", match.match_handicap, name="match_handicap"),
    path("matches/<int:pk>/suspend/", match.match_suspend, name="match_suspend"),
    path("matches/<int:pk>/resume/", match.match_resume, name="match_resume"),
    path("matches/<int:pk>/abandon/", match.match_abandon, name="match_abandon"),
    path("matches/<int:pk>/overtime/", match.match_overtime, name="match_overtime"),
    path("matches/<int:pk>/forfeit/", match.match_forfeit, name="match_forfeit"),
    path("matches/<int:pk>/shootout/", shootout.match_shootout, name="shootout"),
    path("matches/<int:pk>/shootout/lot/", shootout.shootout_lot_view, name="shootout_lot"),
    path("matches/<int:pk>/shootout/start/", shootout.shootout_start, name="shootout_start"),
    path("matches/<int:pk>/shootout/attempt/", shootout.shootout_attempt, name="shootout_attempt"),
    path("matches/<int:pk>/report/", results.report_html, name="report"),
    path("matches/<int:pk>/report.pdf", results.report_pdf, name="report_pdf"),
    path("matches/<int:pk>/report/rebuild/", results.report_rebuild, name="report_rebuild"),
    path("matches/<int:pk>/log.csv", results.log_csv, name="log_csv"),
    path("matches/<int:pk>/log.json", results.log_json, name="log_json"),
    path("webhooks/", setup.webhooks, name="webhooks"),
    path("webhooks/<int:pk>/", setup.webhook_edit, name="webhook"),
    path("lockouts/", lockouts.lockout_list, name="lockouts"),
    path("lockouts/unlock/", lockouts.lockout_unlock, name="lockout_unlock"),
]
