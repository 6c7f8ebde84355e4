"""Bytes a spectator downloads for each public live page: the HTML and every stylesheet and script
it links (the JavaScript catalog and the ES modules it preloads included), raw and
gzip-compressed (what WhiteNoise serves in production for the static files).

    python bench/page_weight.py                 # starts its own server with the demo
    python bench/page_weight.py --url http://127.0.0.1:8000   # or measures a running one

Prints a table and writes ``bench/results/page_weight.json``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import tempfile
import urllib.request
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
RESULTS = BASE_DIR / "bench" / "results" / "page_weight.json"
# Scripts (classic and module), stylesheets, and the modules a page preloads: every module its
# scripts import (polo/tests/test_js_modules.py keeps the preloads and the imports the same).
ASSET_RE = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*rel="(?:stylesheet|modulepreload)"[^>]*\shref)="([^"]+)"')


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=15) as response:
        return response.read()


def weigh(base: str, path: str) -> dict:
    html = fetch(base + path)
    parts = [{"url": path, "raw": len(html), "gzip": len(gzip.compress(html, 9))}]
    for asset in ASSET_RE.findall(html.decode()):
        body = fetch(base + asset)
        parts.append({"url": asset, "raw": len(body), "gzip": len(gzip.compress(body, 9))})
    assets = parts[1:]
    return {
        "page": path,
        "parts": parts,
        "js_css_raw": sum(p["raw"] for p in assets),
        "js_css_gzip": sum(p["gzip"] for p in assets),
        "total_raw": sum(p["raw"] for p in parts),
        "total_gzip": sum(p["gzip"] for p in parts),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (default: start one with the demo)")
    parser.add_argument("--match", type=int, default=1)
    parser.add_argument("--tournament", type=int, default=1)
    args = parser.parse_args()
    server = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        from polo.testing import ServerProcess

        server = ServerProcess(Path(tempfile.mkdtemp(prefix="page-weight-")), "weight").start()
        base = server.url
    try:
        pages = [
            weigh(base, p)
            for p in (
                f"/matches/{args.match}/",
                f"/matches/{args.match}/overlay/",
                f"/tournaments/{args.tournament}/live/",
                f"/matches/{args.match}/play-by-play/",
                f"/matches/{args.match}/start/",
                f"/tournaments/{args.tournament}/start/",
            )
        ]
    finally:
        if server:
            server.close()
    print(f"{'page':<32} {'JS+CSS raw':>10} {'JS+CSS gz':>10} {'total raw':>10} {'total gz':>9}")
    for p in pages:
        print(f"{p['page']:<32} {p['js_css_raw']:>10} {p['js_css_gzip']:>10} {p['total_raw']:>10} {p['total_gzip']:>9}")
        for part in p["parts"]:
            print(f"    {part['url']:<36} {part['raw']:>7} {part['gzip']:>7}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"pages": pages}, indent=2) + "\n")
    print(f"\nwritten to {RESULTS}")


if __name__ == "__main__":
    main()
