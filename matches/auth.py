"""Login with throttling: after LOGIN_THROTTLE_ATTEMPTS failures for one username or one address
within LOGIN_THROTTLE_SECONDS, further attempts are refused until the window passes."""
from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


def _keys(request: HttpRequest) -> list[str]:
    username = (request.POST.get("username") or "").strip().lower()
    address = request.META.get("REMOTE_ADDR", "")
    return [f"login-fail:user:{username}", f"login-fail:addr:{address}"]


def is_throttled(request: HttpRequest) -> bool:
    try:
        return any((cache.get(key) or 0) >= settings.LOGIN_THROTTLE_ATTEMPTS for key in _keys(request))
    except RedisError as exc:  # officials must still log in at the field while Redis restarts
        log.warning("login throttle unavailable (not throttling): %r", exc)
        return False


def record_failure(request: HttpRequest) -> None:
    try:
        for key in _keys(request):
            cache.add(key, 0, settings.LOGIN_THROTTLE_SECONDS)
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, settings.LOGIN_THROTTLE_SECONDS)
    except RedisError as exc:
        log.warning("login throttle unavailable (failure not counted): %r", exc)


class ThrottledLoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if is_throttled(request):
            form = self.get_form()
            form.add_error(None, _("Too many failed attempts. Wait a few minutes and try again."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        record_failure(self.request)
        return super().form_invalid(form)
