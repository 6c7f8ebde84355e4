"""The rules engine on an official's screen, for when the field has no link (issue 34).

The field is the truth: while the scorer's laptop or an umpire's tablet cannot reach the server, its
screen goes on showing the match as the rules say — restart, spot, timers, clock, horns, score — by
running the engine itself (``officiating.engine.field``) in the browser, under Pyodide (CPython
compiled to WebAssembly; the ``pyodide`` package of ``package.json``, installed into
``node_modules/`` by ``./dev``). Nothing is worked out again in JavaScript: one fold.

Served here, to the officials' screens only:

- ``/field-engine/pyodide-<version>/<file>``: Pyodide's runtime (its five files, about 12 MB, cached
  for good: the version is in the address);
- ``/field-engine/engine-<hash>.zip``: the engine's package (its Python files and compiled
  catalogues), the hash of its content in the address;
- ``/field-engine/worker.js``: the worker that loads both and folds (its own CSP allows WebAssembly);
- ``/field-sw.js``: the service worker that keeps all of it, and the officials' pages, on the device,
  so that a screen reloaded (or a laptop woken) without a link opens and goes on.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET

ENGINE_ROOT = Path(settings.BASE_DIR) / "officiating"
PYODIDE_ROOT = Path(settings.BASE_DIR) / "node_modules" / "pyodide"
# What a browser needs of Pyodide to run pure Python (no packages are loaded).
PYODIDE_FILES = {
    "pyodide.mjs": "text/javascript",
    "pyodide.asm.mjs": "text/javascript",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}
FOREVER = "public, max-age=31536000, immutable"
# The worker runs only our engine: it may compile WebAssembly (Pyodide), nothing else more.
WORKER_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'"


@lru_cache(maxsize=1)
def pyodide_version() -> str | None:
    """The installed Pyodide's version, or None when ``node_modules/pyodide`` is missing."""
    try:
        return str(json.loads((PYODIDE_ROOT / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


@lru_cache(maxsize=1)
def engine_archive() -> tuple[str, bytes]:
    """The engine's package as a zip (``officiating/__init__.py``, ``officiating/engine/**.py``, the
    compiled catalogues and the match log's JSON Schema), and the first 16 hex digits of its
    SHA-256. Built once per process, with fixed timestamps so that the same files give the same
    bytes."""
    files = [ENGINE_ROOT / "__init__.py"]
    files += sorted(p for p in (ENGINE_ROOT / "engine").rglob("*.py") if "tests" not in p.parts)
    files += sorted((ENGINE_ROOT / "locale").rglob("*.mo"))
    files.append(ENGINE_ROOT / "schemas" / "match-log.schema.json")  # the event's shape (engine.shape)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            info = zipfile.ZipInfo(str(path.relative_to(ENGINE_ROOT.parent)), date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest()[:16], data


def engine_urls() -> dict[str, str] | None:
    """Where a screen finds the field engine (its page data), or None when Pyodide is not installed."""
    version = pyodide_version()
    if version is None:
        return None
    digest, _data = engine_archive()
    return {
        "pyodide": reverse("field-pyodide", args=[version, "pyodide.mjs"]).rsplit("/", 1)[0] + "/",
        "engine": reverse("field-engine-zip", args=[digest]),
        "worker": reverse("field-engine-worker"),
        "service_worker": reverse("field-service-worker"),
    }


@require_GET
def pyodide_file(request: HttpRequest, version: str, name: str) -> FileResponse:
    if version != pyodide_version() or name not in PYODIDE_FILES:
        raise Http404
    response = FileResponse((PYODIDE_ROOT / name).open("rb"), content_type=PYODIDE_FILES[name])
    response["Cache-Control"] = FOREVER
    return response


@require_GET
def engine_zip(request: HttpRequest, digest: str) -> HttpResponse:
    current, data = engine_archive()
    if digest != current:
        raise Http404
    response = HttpResponse(data, content_type="application/zip")
    response["Cache-Control"] = FOREVER
    return response


@require_GET
def worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(render_to_string("officials/field-engine-worker.js"), content_type="text/javascript")
    response["Content-Security-Policy"] = WORKER_CSP
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    urls = engine_urls() or {}
    precache = []
    if urls:
        version = pyodide_version()
        precache = [reverse("field-pyodide", args=[version, name]) for name in PYODIDE_FILES]
        precache += [urls["engine"], urls["worker"]]
    script = render_to_string(
        "officials/field-sw.js", {"precache": json.dumps(precache), "version": json.dumps(engine_archive()[0])}
    )
    response = HttpResponse(script, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
