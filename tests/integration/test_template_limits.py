"""AWS limits moto never enforces, checked on template.yaml and on what SAM translates it into: the
names built from the stack name, an SQS event source's visibility timeout, a metric-math alarm's
metrics."""

from __future__ import annotations

import re
from typing import Any

import pytest

from local.template.sam_template import load_template, translate
from local.template.stack_names import MAX_STACK_NAME_LENGTH, stack_name_problem

PARAMETERS = {"JwtIssuer": "https://issuer.example.com", "JwtAudience": "waitgate"}
# (resource type, name property) -> AWS's limit on that name's length
NAME_LIMITS = {
    ("AWS::Serverless::Function", "FunctionName"): 64,
    ("AWS::Scheduler::ScheduleGroup", "Name"): 64,
    ("AWS::Serverless::StateMachine", "Name"): 80,
    ("AWS::Serverless::LayerVersion", "LayerName"): 140,
    ("AWS::SSM::Parameter", "Name"): 2048,
    ("AWS::CloudWatch::Dashboard", "DashboardName"): 255,
    ("AWS::Logs::LogGroup", "LogGroupName"): 512,
    ("AWS::SQS::Queue", "QueueName"): 80,
}


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def translated(template: dict[str, Any]) -> dict[str, Any]:
    return translate(template, PARAMETERS)


def names_built_from_the_stack_name(template: dict[str, Any], stack_name: str) -> dict[str, tuple[str, int]]:
    """Each resource's name property that names the stack: logical id -> (the name, its limit)."""
    found: dict[str, tuple[str, int]] = {}
    for logical_id, resource in template["Resources"].items():
        for key, value in resource.get("Properties", {}).items():
            text = value.get("Fn::Sub") if isinstance(value, dict) else None
            if not (key.endswith("Name") and isinstance(text, str) and "${AWS::StackName}" in text):
                continue
            limit = NAME_LIMITS.get((resource["Type"], key))
            assert limit is not None, f"{logical_id}.{key}: add AWS's limit on it to NAME_LIMITS"
            found[logical_id] = (re.sub(r"\$\{AWS::StackName\}", stack_name, text), limit)
    return found


def test_the_longest_stack_name_allowed_fits_every_name_built_from_it(template: dict[str, Any]) -> None:
    # Given the longest stack name `make build` lets through
    longest = "w" * MAX_STACK_NAME_LENGTH
    assert stack_name_problem(longest) is None
    names = names_built_from_the_stack_name(template, longest)
    assert "EscalateInterruptFunction" in names and "DeadlineScheduleGroup" in names
    # Then every name built from it is within AWS's limit on it
    too_long = {key: name for key, (name, limit) in names.items() if len(name) > limit}
    assert not too_long
    # And one character more would break one: the limit is the template's, not a guess
    one_more = names_built_from_the_stack_name(template, longest + "w")
    assert any(len(name) > limit for name, limit in one_more.values())
    assert stack_name_problem(longest + "w") is not None


@pytest.mark.parametrize("name", ["", "1waitgate", "wait_gate", "wait gate", "waitgate/prod"])
def test_what_is_not_a_stack_name_is_refused(name: str) -> None:
    assert stack_name_problem(name) is not None


def test_make_build_reads_the_stack_name_sam_deploy_uses(tmp_path: Any) -> None:
    from local.template.stack_names import configured_stack_name

    samconfig = tmp_path / "samconfig.toml"
    assert configured_stack_name(samconfig) is None
    samconfig.write_text(
        'version = 0.1\n[default.deploy.parameters]\nstack_name = "wg-prod"\n', encoding="utf-8"
    )
    assert configured_stack_name(samconfig) == "wg-prod"
    samconfig.write_text('version = 0.1\n[default.global.parameters]\nstack_name = "wg"\n', encoding="utf-8")
    assert configured_stack_name(samconfig) == "wg"


def test_every_sqs_event_source_gives_six_times_its_functions_timeout(translated: dict[str, Any]) -> None:
    # Given every event source mapping that reads a queue of the template
    resources = translated["Resources"]
    queues = {key for key, r in resources.items() if r["Type"] == "AWS::SQS::Queue"}
    mappings = [r["Properties"] for r in resources.values() if r["Type"] == "AWS::Lambda::EventSourceMapping"]
    on_queues = [m for m in mappings if m["EventSourceArn"].get("Fn::GetAtt", [""])[0] in queues]
    assert len(on_queues) >= 2
    for mapping in on_queues:
        queue = resources[mapping["EventSourceArn"]["Fn::GetAtt"][0]]["Properties"]
        function = resources[mapping["FunctionName"]["Ref"]]["Properties"]
        # Then the queue hides a received message for at least 6 x the function's timeout (Lambda's
        # advice: a message must not reappear while a retried batch is still being handled)
        assert int(queue.get("VisibilityTimeout", 30)) >= 6 * int(function.get("Timeout", 3)), mapping


def test_a_metric_math_alarm_references_at_most_ten_metrics(translated: dict[str, Any]) -> None:
    # Given every alarm CloudFormation will create
    alarms = {
        k: r["Properties"]
        for k, r in translated["Resources"].items()
        if r["Type"] == "AWS::CloudWatch::Alarm"
    }
    assert alarms
    for name, alarm in alarms.items():
        queries = alarm.get("Metrics", [])
        metrics = [q for q in queries if "MetricStat" in q]
        # Then CloudWatch's limit holds: one metric-math alarm, at most 10 metrics
        assert len(metrics) <= 10, f"{name} references {len(metrics)} metrics"
        # And exactly one query is what the alarm watches: an expression over the others
        if queries:
            (watched,) = [q for q in queries if q.get("ReturnData", True)]
            assert "Expression" in watched, name
