"""A Celery worker whose PDF build takes a few seconds (``SLOW_BUILD_SECONDS``,
4 by default), so a test can kill it mid-task. Run as
``python -m tests.worker.slow_worker <celery worker args>``."""

from __future__ import annotations

import os
import sys
import time

import django

django.setup()

from compliance.proposals.pdf import builder  # noqa: E402
from config.celery import app  # noqa: E402

_build = builder.build_proposal_pdf


DELAY_S = float(os.environ.get("SLOW_BUILD_SECONDS", "4"))


def slow_build(data):
    time.sleep(DELAY_S)
    return _build(data)


builder.build_proposal_pdf = slow_build

if __name__ == "__main__":
    app.worker_main(["worker", *sys.argv[1:]])
