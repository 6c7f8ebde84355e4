"""The committee's screens and reports (``/committee/``)."""
from django.urls import path

from . import views_committee as v

app_name = "committee"

urlpatterns = [
    path("", v.home, name="home"),
    path("day/", v.day_view, name="day"),
    path("availability/", v.availability_view, name="availability"),
    path("tournaments/new/", v.tournament_new, name="tournament_new"),
    path("tournaments/<int:pk>/", v.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/edit/", v.tournament_edit, name="tournament_edit"),
    path("tournaments/<int:pk>/entries/new/", v.entry_new, name="entry_new"),
    path("tournaments/<int:pk>/matches/new/", v.match_new, name="match_new"),
    path("tournaments/<int:pk>/standings/", v.tournament_standings, name="standings"),
    path("tournaments/<int:pk>/bracket/", v.tournament_bracket, name="bracket"),
    path("fields/new/", v.field_new, name="field_new"),
    path("fields/<int:pk>/", v.field_edit, name="field_edit"),
    path("entries/<int:pk>/", v.entry_detail, name="entry"),
    path("entries/<int:pk>/withdraw/", v.entry_withdraw, name="entry_withdraw"),
    path("roster/<int:pk>/", v.roster_line_edit, name="roster_line"),
    path("matches/<int:pk>/", v.match_detail, name="match"),
    path("matches/<int:pk>/edit/", v.match_edit, name="match_edit"),
    path("matches/<int:pk>/officials/", v.match_officials, name="match_officials"),
    path("matches/<int:pk>/handicap/", v.match_handicap, name="match_handicap"),
    path("matches/<int:pk>/suspend/", v.match_suspend, name="match_suspend"),
    path("matches/<int:pk>/resume/", v.match_resume, name="match_resume"),
    path("matches/<int:pk>/abandon/", v.match_abandon, name="match_abandon"),
    path("matches/<int:pk>/overtime/", v.match_overtime, name="match_overtime"),
    path("matches/<int:pk>/forfeit/", v.match_forfeit, name="match_forfeit"),
    path("matches/<int:pk>/shootout/", v.match_shootout, name="shootout"),
    path("matches/<int:pk>/shootout/lot/", v.shootout_lot_view, name="shootout_lot"),
    path("matches/<int:pk>/shootout/start/", v.shootout_start, name="shootout_start"),
    path("matches/<int:pk>/shootout/attempt/", v.shootout_attempt, name="shootout_attempt"),
    path("matches/<int:pk>/report/", v.report_html, name="report"),
    path("matches/<int:pk>/report.pdf", v.report_pdf, name="report_pdf"),
    path("matches/<int:pk>/report/rebuild/", v.report_rebuild, name="report_rebuild"),
    path("matches/<int:pk>/log.csv", v.log_csv, name="log_csv"),
    path("matches/<int:pk>/log.json", v.log_json, name="log_json"),
    path("webhooks/", v.webhooks, name="webhooks"),
    path("webhooks/<int:pk>/", v.webhook_edit, name="webhook"),
]
