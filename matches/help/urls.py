"""The help pages (``/help/``): the index and one guide per role."""

from django.urls import path

from . import views

app_name = "help"

urlpatterns = [path("", views.index, name="index"), path("<slug:role>/", views.guide, name="guide")]
