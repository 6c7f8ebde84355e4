"""The API room: ``/api/``, the JSON API every screen uses (``views``), its routes (``urls``) and
its OpenAPI 3.1 document (``openapi``)."""
