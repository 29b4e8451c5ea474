"""The cycle collector is paused while a document is made (a fifth of a large
proposal's task went to collections walking every object of the process),
and always resumed."""

from __future__ import annotations

import gc

import pytest

from compliance.proposals.pdf.builder import no_cycle_collection


@pytest.fixture(autouse=True)
def collector_on():
    gc.enable()
    yield
    gc.enable()


def test_paused_inside_and_resumed_after():
    with no_cycle_collection():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_resumed_after_an_error():
    with pytest.raises(ValueError), no_cycle_collection():
        raise ValueError("bad data")
    assert gc.isenabled()


def test_nested_the_outermost_resumes_it():
    with no_cycle_collection():
        with no_cycle_collection():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_left_off_when_it_was_off():
    gc.disable()
    with no_cycle_collection():
        pass
    assert not gc.isenabled()
