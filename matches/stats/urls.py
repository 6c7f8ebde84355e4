"""The statistics' pages (the API's are in ``matches.api.urls``): public box scores and tournament
statistics; the committee's full box score and the USPA score sheet under ``/committee/``."""

from django.urls import path

from . import views

app_name = "stats"

urlpatterns = [
    path("matches/<int:match_id>/stats/", views.match_box_score_page, name="match"),
    path("tournaments/<int:tournament_id>/stats/", views.tournament_stats_page, name="tournament"),
    path("committee/matches/<int:pk>/stats/", views.committee_box_score_page, name="committee_match"),
    path("committee/matches/<int:pk>/uspa-sheet/", views.uspa_sheet_page, name="uspa_sheet"),
    path("committee/matches/<int:pk>/uspa-sheet.pdf", views.uspa_sheet_pdf_view, name="uspa_sheet_pdf"),
]
