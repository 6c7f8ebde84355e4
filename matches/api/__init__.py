"""The API room: ``/api/``, the JSON API every screen uses (``views``), its routes (``urls``), the
declarations of its operations (``operations``) and its OpenAPI 3.1 document built from them
(``openapi``)."""
