"""Issue 11 in Chromium: with ``connect-src 'self'`` (no bare ws:/wss:) the live pages' websocket
still connects — in CSP Level 3 'self' covers the page's own origin over ws: — and the stream
overlay can be framed by the origins in ``OVERLAY_FRAME_ANCESTORS`` and by no other
(polo/tests/test_csp.py has the headers themselves)."""

from __future__ import annotations

import http.server
import threading

import pytest

from .live_helpers import IS_LIVE, LIVE, PageWatch, demo_match_id, wait_live

pytestmark = pytest.mark.browser


class HostPage:
    """A page on an origin of its own (127.0.0.1, another port) that frames the overlay, as a
    production switcher's page would. (A real local server: Chromium refuses a page it cannot place
    on the network from framing one on loopback.)"""

    def __init__(self) -> None:
        self.body = b""
        page = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page.body)))
                self.end_headers()
                self.wfile.write(page.body)

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def frame(self, url: str) -> str:
        self.body = (
            f'<!doctype html><title>switcher</title><iframe id="bar" src="{url}" width="1200"></iframe>'.encode()
        )
        return self.origin + "/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def switcher():
    page = HostPage()
    yield page
    page.close()


@pytest.fixture
def intruder():
    page = HostPage()
    yield page
    page.close()


def test_the_scoreboard_s_websocket_connects_under_connect_src_self(live_server_proc, page, watch, match_id):
    response = page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    policy = response.headers["content-security-policy"]
    assert "connect-src 'self';" in policy and "ws:" not in policy and "wss:" not in policy
    wait_live(page)  # the socket is open and its snapshot arrived
    assert page.evaluate(f"{LIVE}.wsUrl()").startswith(live_server_proc.url.replace("http://", "ws://"))
    # The clock offset is measured over that socket: pings answered (no CSP violation: ``watch``).
    page.wait_for_function(f"() => {LIVE}.state && {LIVE}.lastSeq > 0", timeout=10_000)


def test_the_overlay_is_framed_by_the_configured_switcher_only(make_server, context, switcher, intruder):
    server = make_server("framing", extra_env={"OVERLAY_FRAME_ANCESTORS": switcher.origin}).start()
    overlay = f"{server.url}/matches/{demo_match_id(server)}/overlay/"

    page = context.new_page()
    watch = PageWatch(page)
    page.goto(switcher.frame(overlay))
    page.frame_locator("#bar").locator("#overlay").wait_for(timeout=10_000)
    bar = next(f for f in page.frames if f.url == overlay)
    bar.wait_for_function(IS_LIVE, timeout=10_000)  # framed, and its websocket live
    assert watch.problems() == []

    refused = context.new_page()
    # The frame's load is refused at once, and Chromium says why on the console: wait for that message.
    with refused.expect_console_message(
        lambda msg: "frame-ancestors" in msg.text and switcher.origin in msg.text, timeout=10_000
    ):
        refused.goto(intruder.frame(overlay))
    assert not any(f.url == overlay and f.locator("#overlay").count() for f in refused.frames[1:])
