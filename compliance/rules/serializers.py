"""What findings were computed under, and the robot's safety configuration, as
the API shows them with a signed revision's declaration and a proposal
version."""

from __future__ import annotations

from rest_framework import serializers

from compliance.rules.robot import CONFIG_KIND_LABELS


class ComputedUnderSerializer(serializers.Serializer):
    """The release of the rule set, the packs applied (key: the release that
    last changed it), the edition of each standard (key: year) and each rule
    applied (id: fingerprint). A later change of a rule, a pack or an edition
    makes what was computed under it superseded."""

    ruleset = serializers.IntegerField(min_value=1)
    packs = serializers.DictField(child=serializers.IntegerField())
    editions = serializers.DictField(child=serializers.CharField())
    rules = serializers.DictField(child=serializers.CharField())


class SafetyConfigurationSerializer(serializers.Serializer):
    """The robot controller's safety configuration as its maker identifies it."""

    kind = serializers.CharField(
        help_text="The kind of identifier, as the cell's safety_config_kind: "
        + ", ".join(CONFIG_KIND_LABELS)
        + "."
    )
    value = serializers.CharField()


class RuleDifferenceSerializer(serializers.Serializer):
    rule_id = serializers.CharField()
    change = serializers.CharField(help_text='"added", "changed" or "removed".')
