"""Factories for tests: a valid object of each kind with the least typing."""

from __future__ import annotations

from decimal import Decimal

import factory
from django.contrib.auth import get_user_model

from cells.models import (
    Cell,
    GuardSegment,
    Membership,
    Opening,
    OperatorStation,
    Organisation,
    Project,
    Role,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-for-tests-1")


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation

    name = factory.Sequence(lambda n: f"Organisation {n}")
    slug = factory.Sequence(lambda n: f"org-{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    organisation = factory.SubFactory(OrganisationFactory)
    role = Role.SOLUTION_ARCHITECT


class ProjectFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Project

    organisation = factory.SubFactory(OrganisationFactory)
    name = factory.Sequence(lambda n: f"Project {n}")
    customer_name = "Customer Co."
    site_name = "Plant 1"


class CellFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Cell

    project = factory.SubFactory(ProjectFactory)
    name = factory.Sequence(lambda n: f"Cell {n}")
    robot_manufacturer = "Acme"
    robot_model = "R-10"
    payload_kg = Decimal("10")
    reach_mm = 1400
    max_tcp_speed_mm_s = 1500
    moving_mass_kg = Decimal("60")
    robot_base_x_mm = 2000
    robot_base_y_mm = 1500


class GuardSegmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GuardSegment

    cell = factory.SubFactory(CellFactory)
    label = factory.Sequence(lambda n: f"G{n}")
    start_x_mm = 0
    start_y_mm = 0
    end_x_mm = 4000
    end_y_mm = 0
    height_mm = 1800


class OpeningFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Opening

    segment = factory.SubFactory(GuardSegmentFactory)
    label = factory.Sequence(lambda n: f"O{n}")
    offset_mm = 1000
    width_mm = 800
    lower_edge_mm = 0
    upper_edge_mm = 1500


class OperatorStationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = OperatorStation

    cell = factory.SubFactory(CellFactory)
    label = factory.Sequence(lambda n: f"Station {n}")
    x_mm = 2000
    y_mm = -800


class DeviceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "cells.Device"

    cell = factory.SubFactory(CellFactory)
    kind = "light_curtain"
    label = factory.Sequence(lambda n: f"LC{n}")
