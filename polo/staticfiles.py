"""The static files storage of production (DEBUG off): WhiteNoise's compressed manifest storage —
content-hashed names, served with a far-future cache lifetime — that also rewrites the imports
between the pages' ES modules (``import … from "./live.js"`` in static/js) to the hashed names.

Without that rewriting a page would load its entry module under a hashed name and the modules it
imports under their plain ones, which WhiteNoise serves with a short cache lifetime: after a
deployment a browser could run a new module against an old one still in its cache.
tests/browser/test_static_manifest.py collects the files as production does and loads the pages.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    # A module is hashed after the modules it imports, one level of imports a pass: as many passes
    # as the longest chain of imports (tests/browser/test_static_manifest.py collects them all).
    max_post_process_passes = 16
