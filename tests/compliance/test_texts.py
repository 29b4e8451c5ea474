"""What the app wrote into a record is read in the reader's language; what a
person typed stays as typed, even where it starts like one of the app's texts
(issue 15)."""

from __future__ import annotations

from django.utils import translation

from compliance.safety_functions.texts import localise_function


def ko(text: str, labels) -> str:
    with translation.override("ko"):
        return localise_function(text, translation.gettext, labels)


def test_an_accepted_proposals_name_is_read_in_korean():
    shown = ko("Emergency stop E-stop HMI", {"E-stop HMI"})
    assert shown != "Emergency stop E-stop HMI"
    assert "E-stop HMI" in shown and "Emergency" not in shown


def test_a_typed_name_that_starts_like_the_apps_stays_as_typed():
    typed = "Emergency stop at the operator panel"
    assert ko(typed, {"E-stop HMI"}) == typed
    assert ko("Palletiser door interlock", {"Door 1"}) == "Palletiser door interlock"


def test_a_plain_text_of_the_app_needs_no_label():
    assert ko("Safety controller", ()) != "Safety controller"
