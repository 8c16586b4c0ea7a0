"""The host's escalation defaults come from their SSM parameter (template EscalationDefaultsParameter),
read by request_interrupt on its first request and kept for the instance; a throttled read is worth a
retry (the Task's Retry takes TemporarilyUnavailableError), a wrong default fails loudly."""

from __future__ import annotations

import json
from collections.abc import Iterator

import boto3
import pytest
from botocore.stub import Stubber

from waitgate.errors import TemporarilyUnavailableError
from waitgate.wiring import composition
from waitgate.wiring.request_composition import escalation_defaults

NAME = "/waitgate-test/escalation-defaults"
REMIND = {"*": {"steps": [{"afterMs": 60000, "remind": True}]}}


@pytest.fixture
def parameter(environment: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name=NAME, Value=json.dumps(REMIND), Type="String"
    )
    monkeypatch.setenv("ESCALATION_DEFAULTS_PARAMETER", NAME)
    composition.forget_instances()
    yield NAME
    composition.forget_instances()


def test_the_defaults_are_read_from_the_parameter_once_per_instance(parameter: str) -> None:
    # Given the parameter / When the defaults are asked for, Then they are its policies, checked
    assert escalation_defaults() == {"*": {"steps": [{"afterMs": 60000, "remind": True}]}}
    # And a change of the parameter reaches a new instance, not this one (read once, kept)
    ssm = boto3.client("ssm", region_name="us-east-1")
    ssm.put_parameter(Name=parameter, Value="{}", Type="String", Overwrite=True)
    assert escalation_defaults() == REMIND
    composition.forget_instances()
    assert escalation_defaults() == {}


def test_no_parameter_named_means_no_defaults(environment: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ESCALATION_DEFAULTS_PARAMETER", raising=False)
    composition.forget_instances()
    assert escalation_defaults() == {}


def test_a_default_that_decides_fails_loudly_naming_the_tenant(parameter: str) -> None:
    decides = {"acme": {"onDeadline": {"resolveWith": {"action": "reject"}}}}
    boto3.client("ssm", region_name="us-east-1").put_parameter(
        Name=parameter, Value=json.dumps(decides), Type="String", Overwrite=True
    )
    with pytest.raises(ValueError, match=r"EscalationDefaults\['acme'\].onDeadline"):
        escalation_defaults()


def test_a_throttled_read_is_temporarily_unavailable_and_not_kept(parameter: str) -> None:
    # Given SSM throttling the read once
    ssm = composition.aws_client("ssm")
    with Stubber(ssm) as stub:
        stub.add_client_error("get_parameter", service_error_code="ThrottlingException", http_status_code=400)
        # Then the request fails as worth a retry
        with pytest.raises(TemporarilyUnavailableError):
            escalation_defaults()
    # And the next request reads it again
    assert escalation_defaults() == REMIND
