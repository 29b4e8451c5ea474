from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CellsConfig(AppConfig):
    name = "cells"
    verbose_name = _("Cells and layouts")
