"""The static files as production serves them: hashed names, and the plan
editor's JavaScript modules importing each other by those hashed names, so a
browser holding one deploy's editor never loads another deploy's module."""

from __future__ import annotations

import re

from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

PRODUCTION = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": settings.PRODUCTION_STATIC_STORAGE},
}


def test_the_editors_modules_import_each_other_by_their_hashed_names(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=PRODUCTION):
        call_command("collectstatic", "--noinput", verbosity=0)
    (editor,) = [
        p
        for p in (tmp_path / "js").glob("layout-editor.*.js")
        if re.fullmatch(r"layout-editor\.[0-9a-f]{12}\.js", p.name)
    ]
    imports = re.findall(r'from "\./([^"]+)"', editor.read_text())
    assert imports, "the editor imports its modules"
    for name in imports:
        assert re.fullmatch(r"layout-editor-[a-z]+\.[0-9a-f]{12}\.js", name), name
        assert (tmp_path / "js" / name).exists()
