from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .auth import ThrottledLoginView

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
