"""A subsystem's PL no higher than what it is allows (issue 27): a sensing
device's IEC 61496 type (Type 2: PL c, Type 3: PL d, Type 4: PL e) and the PL
the maker claims for the device cap the PL its figures give, each a line of
the working; its PFHd stays that of its figures."""

from __future__ import annotations

import pytest

from compliance.calculators.base import Certainty
from compliance.calculators.iso13849_ceilings import (
    claimed_pl_ceiling,
    espe_type_ceiling,
)
from compliance.calculators.iso13849_verify import (
    PlVerifyInput,
    SubsystemInput,
    pl_verify,
)

CURTAIN = SubsystemInput(label="Light curtain", pl="e", pfhd_per_hour=3.7e-9)
RELAY = SubsystemInput(label="Safety relay", pl="e", pfhd_per_hour=2.31e-9)
ROBOT = SubsystemInput(label="Robot safety input", pl="d", pfhd_per_hour=1.3e-7)


def verified(*ceilings, plr="d"):
    return pl_verify(
        PlVerifyInput(subsystems=(CURTAIN, RELAY, ROBOT), plr=plr),
        ceilings=[ceilings],
    )


def working(result) -> list[str]:
    return [line.render() for line in result.steps]


@pytest.mark.parametrize(
    ("espe_type", "curtain_pl", "function_pl"),
    [(2, "c", "c"), (3, "d", "d"), (4, "e", "d")],
)
def test_the_iec_61496_type_caps_the_sensing_devices_pl(
    espe_type, curtain_pl, function_pl
):
    result = verified(espe_type_ceiling(espe_type))
    assert result.subsystems[0].pl == curtain_pl
    assert result.pl == function_pl
    # The device's PFHd still counts: 3.7e-9 + 2.31e-9 + 1.3e-7.
    assert result.pfhd_per_hour == pytest.approx(1.3601e-7)
    assert result.subsystems[0].pfhd_per_hour == 3.7e-9


def test_a_type_2_curtain_fails_plr_d_and_the_working_says_why():
    result = verified(espe_type_ceiling(2))
    assert (result.pl, result.meets_plr) == ("c", False)
    assert (
        "IEC 61496 Type 2: a sensing device of this type serves up to PL c "
        "(IEC 61496-1; ISO 13849-1): PL e → PL c"
    ) in working(result)
    assert "Light curtain: certified subsystem: PL c" in working(result)
    # Type 2 → PL c: two public sources (the ReeR manual and the QJKH blog).
    assert result.certainty is Certainty.TWO_SOURCES
    assert any("ReeR" in source for source in result.sources)


def test_a_type_never_raises_the_pl_the_figures_give():
    device = SubsystemInput(label="Grid", pl="d", pfhd_per_hour=1e-7)
    result = pl_verify(
        PlVerifyInput(subsystems=(device,)), ceilings=[(espe_type_ceiling(4),)]
    )
    assert result.pl == "d"
    assert (
        "IEC 61496 Type 4: a sensing device of this type serves up to PL e "
        "(IEC 61496-1; ISO 13849-1): PL d ≤ PL e"
    ) in working(result)


def test_the_pl_the_device_claims_caps_the_makers_pl_typed_on_the_subsystem():
    result = verified(claimed_pl_ceiling("c", "LC1"))
    assert (result.subsystems[0].pl, result.pl) == ("c", "c")
    assert (
        "LC1: the PL the maker claims for the device is PL c; the subsystem "
        "counts no higher: PL e → PL c"
    ) in working(result)


def test_without_ceilings_the_pl_is_the_figures_alone():
    result = pl_verify(PlVerifyInput(subsystems=(CURTAIN, RELAY, ROBOT), plr="d"))
    assert (result.subsystems[0].pl, result.pl) == ("e", "d")
    assert not any("IEC 61496" in line for line in working(result))
