"""Where a webhook may send results (issue 36): public addresses by https only, checked when the
committee saves one and again at each delivery, the delivery sent to the address that was checked,
no redirect followed, a short timeout, and a log that says whether it was delivered and nothing of
what the far side answered."""

from __future__ import annotations

import ipaddress
import re
import socket
import time
from functools import partial

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from matches.committee import webhooks
from matches.committee.models import Webhook, WebhookDelivery

from .committee_helpers import Committee, Receiver

pytestmark = pytest.mark.django_db

PUBLIC = "93.184.215.14"  # a global address (written as a literal: no DNS is asked)


CAST = partial(Committee, periods=1)  # the cast fixture (conftest.py) makes one per test


@pytest.fixture
def debug(settings):
    """Development: http is allowed too (what is refused here is refused for the address)."""
    settings.DEBUG = True
    settings.WEBHOOK_ALLOWED_NETWORKS = []


@pytest.fixture
def dns(monkeypatch):
    """Names of our own: ``dns.names[name]`` lists the addresses it resolves to, one per lookup
    (the last one again after that); ``dns.asked`` the lookups made. Other names resolve as ever."""
    real = socket.getaddrinfo

    class Dns:
        names: dict[str, list[str]] = {}
        asked: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host in Dns.names:
            Dns.asked.append(host)
            found = Dns.names[host]
            address = found.pop(0) if len(found) > 1 else found[0]
            return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))]
        return real(host, port, *args, **kwargs)

    Dns.names, Dns.asked = {}, []
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return Dns


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def post_hook(cast: Committee, url: str, **headers):
    return cast.client().post(
        reverse("committee:webhooks"),
        {
            "name": "Results board",
            "url": url,
            "secret": "s3cret",
            "events": ["match.result"],
            "active": "on",
            "tournament": cast.match.tournament_id,
        },
        **headers,
    )


def url_error(response) -> str:
    assert response.status_code == 200, response.status_code
    return " ".join(str(e) for e in response.context["form"].errors.get("url", []))


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://169.254.169.254/latest/meta-data/",  # a cloud's metadata address
        "http://[::1]:8000/",
        "http://localhost/hook",
        "http://2130706433/",  # 127.0.0.1 written as one number (not even a valid URL to Django)
        "http://10.1.2.3/",
        "http://192.168.0.10/",
        "http://172.16.5.4/",
        "http://[fe80::1]/",
        "http://[fd00::1]/",
        "http://224.0.0.1/",
        "http://240.0.0.1/",
        "http://0.0.0.0/",
        "http://[::ffff:127.0.0.1]/",
        "http://100.64.0.1/",  # shared address space (carrier-grade NAT)
    ],
)
def test_the_committee_cannot_point_a_webhook_at_a_local_or_private_network(cast, debug, url):
    error = url_error(post_hook(cast, url))
    assert "public addresses" in error or "valid URL" in error, error
    assert not Webhook.objects.exists()


def test_a_name_that_resolves_to_a_private_address_is_refused(cast, debug, dns):
    dns.names["results.example"] = ["10.0.0.7"]
    assert "public addresses" in url_error(post_hook(cast, "https://results.example/hook"))
    assert not Webhook.objects.exists()


def test_only_https_outside_development(cast, settings):
    settings.DEBUG = False
    for url in (f"http://{PUBLIC}/hook", f"ftp://{PUBLIC}/hook"):
        assert "https://" in url_error(post_hook(cast, url)), url
    assert not Webhook.objects.exists()
    assert post_hook(cast, f"https://{PUBLIC}/hook").status_code == 302
    settings.DEBUG = True  # development: http too
    assert post_hook(cast, f"http://{PUBLIC}/other").status_code == 302
    assert Webhook.objects.count() == 2


def test_no_credentials_in_the_address(cast, debug):
    for url in (f"https://user:pass@{PUBLIC}/hook", f"https://user@{PUBLIC}/hook"):
        assert "user name or password" in url_error(post_hook(cast, url)), url
    assert not Webhook.objects.exists()


def test_the_refusal_is_in_the_members_language(cast, debug):
    error = url_error(post_hook(cast, "http://127.0.0.1/hook", HTTP_ACCEPT_LANGUAGE="es"))
    assert "direcciones públicas" in error, error


def test_the_admin_refuses_the_same_addresses(cast, debug):
    root = get_user_model().objects.create_superuser("root", password="x-long-enough-1")
    client = cast.client(root)
    response = client.post(
        reverse("admin:matches_webhook_add"),
        {"name": "Metadata", "url": "http://169.254.169.254/", "secret": "s", "events": '["match.result"]'},
    )
    assert response.status_code == 200 and "public addresses" in response.content.decode()
    assert not Webhook.objects.exists()


def deliver(hook: Webhook, key: str = "match.result:1:1") -> bool:
    try:
        webhooks.webhook_deliver(webhook_id=hook.pk, key=key, payload={"event": "match.result"})
    except webhooks.DeliveryFailed:
        return False
    return True


def test_a_name_that_now_resolves_to_loopback_is_not_sent_to(cast, debug, dns, receiver):
    """DNS can change between the save and the delivery: the address is checked again."""
    port = receiver.server.server_address[1]
    dns.names["results.example"] = [PUBLIC, "127.0.0.1"]
    assert post_hook(cast, f"http://results.example:{port}/hooks/polo").status_code == 302  # public then
    hook = Webhook.objects.get()
    assert not deliver(hook)  # loopback now
    assert receiver.requests == []
    assert list(hook.deliveries.values_list("ok", flat=True)) == [False]


def test_the_delivery_connects_to_the_address_it_checked(debug, settings, dns, receiver):
    """One lookup per attempt: the connection goes to the checked address, not to a second answer
    of the name (which could be another)."""
    settings.WEBHOOK_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]
    port = receiver.server.server_address[1]
    dns.names["results.example"] = ["127.0.0.1", "10.9.9.9"]  # a second lookup would be refused
    hook = Webhook.objects.create(name="r", url=f"http://results.example:{port}/hooks/polo", secret="s")
    assert deliver(hook)
    assert dns.asked == ["results.example"]
    assert [r["headers"]["Host"] for r in receiver.requests] == [f"results.example:{port}"]


def test_a_redirect_is_not_followed(debug, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]
    elsewhere, redirecting = Receiver(), Receiver([302])
    try:
        redirecting.headers = {"Location": elsewhere.url}
        hook = Webhook.objects.create(name="r", url=redirecting.url, secret="s")
        assert not deliver(hook)
        assert len(redirecting.requests) == 1 and elsewhere.requests == []
    finally:
        elsewhere.close()
        redirecting.close()


def test_an_endpoint_that_never_answers_is_given_up_after_the_timeout(debug, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # connections complete, nothing is ever read or answered
    try:
        hook = Webhook.objects.create(name="r", url=f"http://127.0.0.1:{silent.getsockname()[1]}/", secret="s")
        began = time.monotonic()
        assert not deliver(hook)
        assert time.monotonic() - began < 1 + 2  # the timeout, and some slack for a busy machine
    finally:
        silent.close()


def test_the_delivery_log_says_whether_it_was_delivered_not_what_the_far_side_answered(cast, debug, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]
    receiver = Receiver([500])
    receiver.body = b"Traceback: psycopg.OperationalError at 10.0.0.12:5432 (internal-db)"
    try:
        assert post_hook(cast, receiver.url).status_code == 302
        hook = Webhook.objects.get()
        assert not deliver(hook) and deliver(hook)
    finally:
        receiver.close()
    unreachable = Webhook.objects.create(name="gone", url=receiver.url, secret="s", tournament=cast.match.tournament)
    assert not deliver(unreachable)  # connection refused
    for h, expected in ((hook, ["no", "yes"]), (unreachable, ["no"])):
        page = cast.client().get(reverse("committee:webhook", args=[h.pk])).content.decode()
        table = page[page.index('id="deliveries"') : page.index("</table>", page.index('id="deliveries"'))]
        answers = re.findall(r"<td>(yes|no)</td></tr>", table)
        assert sorted(answers) == sorted(expected), table
        for internal in ("500", "HTTP", "Traceback", "internal-db", "refused", "Errno"):
            assert internal not in table, internal
    assert {f.name for f in WebhookDelivery._meta.get_fields()}.isdisjoint({"status_code", "error"})


def certificates(folder, name: str) -> tuple[str, str, str]:
    """A certificate authority of our own and a server certificate for ``name`` it signed: the
    CA's file, the server's certificate and its key (openssl, as an operator would)."""
    import subprocess

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    run(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Test authority",
    )
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", f"/CN={name}")
    (folder / "san.ext").write_text(f"subjectAltName=DNS:{name}\n")
    run(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "san.ext",
    )
    return str(folder / "ca.pem"), str(folder / "server.pem"), str(folder / "server.key")


@pytest.mark.parametrize(("certified", "delivered"), [("results.example", True), ("other.example", False)])
def test_https_goes_to_the_checked_address_and_checks_the_certificate_for_the_name(
    settings, dns, monkeypatch, tmp_path, certified, delivered
):
    """The connection is made to the checked address, but TLS is for the name: the server's
    certificate must be the name's (sent as SNI), as if the name had been resolved again."""
    import ssl

    settings.DEBUG = False
    settings.WEBHOOK_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]
    ca, cert, key = certificates(tmp_path, certified)
    monkeypatch.setenv("SSL_CERT_FILE", ca)  # our authority, as the system's would be
    receiver = Receiver()
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    receiver.server.socket = tls.wrap_socket(receiver.server.socket, server_side=True)
    try:
        dns.names["results.example"] = ["127.0.0.1"]
        port = receiver.server.server_address[1]
        hook = Webhook.objects.create(name="r", url=f"https://results.example:{port}/hooks/polo", secret="s")
        assert deliver(hook) is delivered
        assert [r["headers"]["Host"] for r in receiver.requests] == ([f"results.example:{port}"] if delivered else [])
    finally:
        receiver.close()
