"""Where the static files are served from in production."""

from __future__ import annotations

from django.contrib.staticfiles.storage import HashedFilesMixin
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Whitenoise's hashed, compressed files, with the imports between the
    plan editor's JavaScript modules rewritten to their hashed names: a page
    never mixes one deploy's module with another's. Only the editor's
    modules: Django's rewriting of ``import`` statements (its own patterns,
    reused) misreads the words in vendored scripts such as htmx."""

    support_js_module_import_aggregation = True
    _js_module_import_aggregation_patterns = (
        "js/layout-editor*.js",
        HashedFilesMixin._js_module_import_aggregation_patterns[1],
    )
