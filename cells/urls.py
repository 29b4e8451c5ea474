from __future__ import annotations

app_name = "cells"
urlpatterns: list = []
