"""template.yaml checked offline: SAM translation (catches what cfn-lint misses), least privilege,
and every state machine's ASL against Step Functions' schema and its own transitions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from local.template.sam_template import REPO_ROOT, load_state_machine_definition, load_template, translate
from tests.support.template_queries import own_state_machine_arns, subs_in
from tests.support.untraced import UNTRACED

ASL_SCHEMA = json.loads(
    (
        Path(jsonschema.__file__).parents[1] / "cfnlint/data/schemas/other/step_functions/statemachine.json"
    ).read_text(encoding="utf-8")
)
PARAMETERS = {"JwtIssuer": "https://issuer.example.com", "JwtAudience": "waitgate"}


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def translated(template: dict[str, Any]) -> dict[str, Any]:
    return translate(template, PARAMETERS)


def resources_of(template: dict[str, Any], kind: str) -> dict[str, Any]:
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def all_states(definition: dict[str, Any]) -> dict[str, Any]:
    """Every state, including those inside Parallel branches and Map iterators."""
    found = dict(definition["States"])
    for state in definition["States"].values():
        for branch in state.get("Branches", []):
            found.update(all_states(branch))
        for key in ("Iterator", "ItemProcessor"):
            if key in state:
                found.update(all_states(state[key]))
    return found


def transitions(machine: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = [("StartAt", machine["StartAt"])]
    for name, state in machine["States"].items():
        targets = [state.get("Next"), state.get("Default")]
        targets += [choice.get("Next") for choice in state.get("Choices", [])]
        targets += [catch.get("Next") for catch in state.get("Catch", [])]
        pairs += [(name, target) for target in targets if target]
        for branch in state.get("Branches", []):
            pairs += transitions(branch)
    return pairs


def test_the_template_translates_like_sam_deploy(translated: dict[str, Any]) -> None:
    # Given template.yaml / When SAM's transform runs / Then it yields plain CloudFormation
    kinds = {resource["Type"] for resource in translated["Resources"].values()}
    assert not any(kind.startswith("AWS::Serverless::") for kind in kinds)
    assert {"AWS::Lambda::Function", "AWS::StepFunctions::StateMachine", "AWS::DynamoDB::Table"} <= kinds


def test_every_function_runs_a_current_runtime_with_the_layer(template: dict[str, Any]) -> None:
    globals_ = template["Globals"]["Function"]
    assert globals_["Runtime"] in {"python3.12", "python3.13", "python3.14"}
    assert globals_["Layers"] == [{"Ref": "WaitgateLayer"}]
    for name, function in resources_of(template, "AWS::Serverless::Function").items():
        code = REPO_ROOT / function["Properties"]["CodeUri"] / "app.py"
        assert code.is_file(), f"{name} has no handler at {code}"


def test_http_routes_use_the_jwt_authorizer_unless_they_carry_their_own_token(
    template: dict[str, Any],
) -> None:
    api = template["Resources"]["HttpApi"]["Properties"]["Auth"]
    assert api["DefaultAuthorizer"] == "WaitgateJwt"
    public = {
        "/interrupts/{token}",
        "/capabilities",
        "/openapi.json",
        "/docs",
        "/docs/{asset}",
        "/.local-issuer",
        "/channels/slack/interactions",  # Slack's request signature is its credential
        "/inbox",  # the signed-in page: it holds no data, its script signs in (docs/inbox.md)
        "/webhooks/{source}",  # the source's signature is its credential (docs/webhooks.md)
        "/mcp",  # the function checks the bearer JWT, so its 401 points at the metadata (docs/mcp.md)
        "/.well-known/oauth-protected-resource",  # RFC 9728's public metadata of /mcp
        "/.well-known/oauth-protected-resource/mcp",
        "/fresh-links",  # an expired link's token; always 202, reveals nothing (docs/signed-links.md)
    }
    for function in resources_of(template, "AWS::Serverless::Function").values():
        for event in function["Properties"].get("Events", {}).values():
            if event["Type"] != "HttpApi":
                continue
            authorizer = event["Properties"].get("Auth", {}).get("Authorizer")
            if authorizer == "NONE":
                assert event["Properties"]["Path"] in public


def policy_statements(translated: dict[str, Any]) -> list[dict[str, Any]]:
    statements: list[dict[str, Any]] = []
    for resource in translated["Resources"].values():
        if resource["Type"] == "AWS::IAM::ManagedPolicy":
            statements += resource["Properties"]["PolicyDocument"]["Statement"]
        if resource["Type"] == "AWS::IAM::Role":
            for policy in resource["Properties"].get("Policies", []):
                statements += policy["PolicyDocument"]["Statement"]
    return statements


def test_no_statement_grants_every_resource(translated: dict[str, Any]) -> None:
    # Where AWS allows scoping (everything we call but the X-Ray and CloudWatch metric APIs, and the log
    # delivery API Step Functions logs through), we scope
    unscopable = {
        "xray:PutTraceSegments",
        "xray:PutTelemetryRecords",
        "cloudwatch:PutMetricData",
        "sns:Publish",
        "logs:CreateLogDelivery",
        "logs:GetLogDelivery",
        "logs:UpdateLogDelivery",
        "logs:DeleteLogDelivery",
        "logs:ListLogDeliveries",
        "logs:PutResourcePolicy",
        "logs:DescribeResourcePolicies",
        "logs:DescribeLogGroups",
    }
    for statement in policy_statements(translated):
        resources = statement["Resource"]
        resources = resources if isinstance(resources, list) else [resources]
        if "*" in resources:
            actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            assert set(actions) <= unscopable, statement


def test_task_responses_are_limited_to_this_stacks_and_named_state_machines(
    template: dict[str, Any], translated: dict[str, Any]
) -> None:
    # Given the statement that answers task tokens
    (statement,) = [
        s for s in policy_statements(translated) if "states:SendTaskSuccess" in json.dumps(s["Action"])
    ]
    # Then with or without the operator's state machines, it names each of the stack's own exactly
    with_operators, own_only = statement["Resource"]["Fn::If"][1:]
    assert subs_in(with_operators) == subs_in(own_only) == own_state_machine_arns(template)
    assert "TaskStateMachineArns" in json.dumps(with_operators)


def state_machine_files(template: dict[str, Any]) -> list[str]:
    machines = resources_of(template, "AWS::Serverless::StateMachine").values()
    return [m["Properties"]["DefinitionUri"] for m in machines]


def test_every_asl_file_is_deployed(template: dict[str, Any]) -> None:
    on_disk = {f"statemachines/{p.name}" for p in (REPO_ROOT / "statemachines").glob("*.asl.json")}
    assert on_disk == set(state_machine_files(template))


@pytest.mark.parametrize("path", sorted(p.name for p in (REPO_ROOT / "statemachines").glob("*.asl.json")))
def test_asl_is_valid_and_every_transition_lands_on_a_state(path: str) -> None:
    definition = load_state_machine_definition(f"statemachines/{path}")
    # Given Step Functions' own schema (the one cfn-lint ships)
    jsonschema.Draft7Validator(ASL_SCHEMA).validate(definition)
    # Then every StartAt / Next / Default / Choice / Catch target names a state of its scope
    for scope in [definition, *[b for s in all_states(definition).values() for b in s.get("Branches", [])]]:
        names = set(scope["States"])
        for source, target in transitions(scope):
            if source == "StartAt" or source in names:
                assert target in names, f"{path}: {source} → {target} goes nowhere"
    # And every state but the last is reachable
    reachable = {definition["StartAt"]} | {target for _, target in transitions(definition)}
    assert set(definition["States"]) <= reachable, f"{path}: unreachable states"


def test_definition_substitutions_name_resources_of_the_template(template: dict[str, Any]) -> None:
    for name, machine in resources_of(template, "AWS::Serverless::StateMachine").items():
        text = json.dumps(load_state_machine_definition(machine["Properties"]["DefinitionUri"]))
        for placeholder in machine["Properties"].get("DefinitionSubstitutions", {}):
            assert "${" + placeholder + "}" in text, f"{name}: unused substitution {placeholder}"


@UNTRACED  # its CPU is outside the layer (tests/support/untraced.py)
def test_the_translated_template_passes_cfn_lint(translated: dict[str, Any], tmp_path: Path) -> None:
    # cfn-lint on template.yaml checks AWS::Serverless::* only against its own schemas; on the translated
    # template it sees what CloudFormation will see — e.g. a circular dependency through the HttpApi
    import subprocess
    import sys

    path = tmp_path / "translated.json"
    path.write_text(json.dumps(translated), encoding="utf-8")
    cfn_lint = Path(sys.executable).with_name("cfn-lint")
    result = subprocess.run([str(cfn_lint), str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_only_the_scheduler_role_invokes_the_schedule_targets_and_only_the_stream_reader_deletes(
    template: dict[str, Any],
) -> None:
    # Given the scheduler's role, Then it may invoke the deadline's and the escalation steps' targets only
    # (and send to the schedules' dead-letter queue, nothing else)
    resources = template["Resources"]
    policies = resources["DeadlineSchedulerRole"]["Properties"]["Policies"]
    statements = [s for policy in policies for s in policy["PolicyDocument"]["Statement"]]
    (statement,) = [s for s in statements if s["Action"] != "sqs:SendMessage"]
    dead_letters = {"Fn::GetAtt": ["ScheduleDeadLetterQueue", "Arn"]}
    assert [s for s in statements if s is not statement] == [
        {"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": dead_letters}
    ]
    targets = {text["Fn::Sub"].rsplit(":function:", 1)[1] for text in statement["Resource"]}
    assert (statement["Action"], targets) == (
        "lambda:InvokeFunction",
        {"${AWS::StackName}-expire-interrupt", "${AWS::StackName}-escalate-interrupt"},
    )
    named = {resources[n]["Properties"].get("FunctionName", {}).get("Fn::Sub") for n in resources}
    assert targets <= named
    # And scheduler:DeleteSchedule is the stream reader's alone (its cleanup), never on a resolve path
    holders = [
        name
        for name, resource in resources_of(template, "AWS::Serverless::Function").items()
        if {"Ref": "ScheduleCleanupPolicy"} in resource["Properties"].get("Policies", [])
    ]
    assert holders == ["StreamDispatchFunction"]


def _emitted_metrics() -> set[str]:
    """Every metric name waitgate's telemetry emits (waitgate.run.telemetry: one per fact)."""
    from waitgate.run import telemetry

    facts = [
        telemetry.Requested("approval", "requested"),
        telemetry.Voted("approval", "accept"),
        telemetry.Decided("approval", "accept", 1.0),
        telemetry.Expired("custom"),
        telemetry.Cancelled("custom"),
        telemetry.Escalated("approval", "reminded"),
        telemetry.TokenRefused(401),
        telemetry.Delivered("inline"),
        telemetry.Notified("email", "sent"),
    ]
    return {point.name for fact in facts for point in telemetry.points_of(fact)}


def test_the_dashboard_is_json_showing_every_metric_waitgate_emits_and_every_alarm(
    template: dict[str, Any],
) -> None:
    # Given the dashboard's body with its substitutions filled in
    import re

    resources = template["Resources"]
    body, variables = resources["OperationsDashboard"]["Properties"]["DashboardBody"]["Fn::Sub"]
    # (the sample's alarm is listed only when the samples are deployed: a variable that is "" or one entry)
    (sample_entry,) = variables.values()
    condition, entry, absent = sample_entry["Fn::If"]
    assert (condition, absent) == ("DeploysSamples", "")
    body = body.replace("${SampleAlarmEntry}", entry["Fn::Sub"])
    dashboard = json.loads(re.sub(r"\$\{[^}]+\}", "X", body))
    widgets = dashboard["widgets"]
    text = json.dumps(widgets)
    # Then every metric the telemetry emits is on it, in the stack's own namespace
    for name in _emitted_metrics() - {"Votes", "InterruptsEscalated"}:
        assert f'MetricName=\\"{name}\\"' in text or f'"{name}"' in text, name
    assert '\\"waitgate/X\\"' in text and "waitgate/X" in text
    # And time to decision is shown as p50 and p90 of the metric over every kind
    rows = [metric for widget in widgets for metric in widget["properties"].get("metrics", [])]
    stats = [metric[-1]["stat"] for metric in rows if "TimeToDecision" in metric]
    assert stats == ["p50", "p90"]
    # And its alarm widget names every alarm of the template
    (alarms,) = [w for w in widgets if w["type"] == "alarm"]
    named = set(re.findall(r"\$\{(\w+)\.Arn\}", body))
    assert len(alarms["properties"]["alarms"]) == len(named)
    assert named == set(resources_of(template, "AWS::CloudWatch::Alarm"))
    assert all(w["x"] + w["width"] <= 24 for w in widgets)


def test_every_alarm_notifies_the_optional_topic_and_is_explained_in_operations(
    template: dict[str, Any],
) -> None:
    # Given the alarm topic parameter (empty by default) and the operations guide
    assert template["Parameters"]["AlarmTopicArn"]["Default"] == ""
    guide = (REPO_ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    topic = {"Fn::If": ["HasAlarmTopic", [{"Ref": "AlarmTopicArn"}], {"Ref": "AWS::NoValue"}]}
    for name, alarm in resources_of(template, "AWS::CloudWatch::Alarm").items():
        properties = alarm["Properties"]
        # Then each alarm tells the topic, when there is one, that it fired and that it is OK again
        assert properties["AlarmActions"] == topic and properties["OKActions"] == topic, name
        # And the guide says what it means and what to do
        assert f"| `{name}` |" in guide, f"{name} is not in docs/operations.md's alarm table"
        assert properties["TreatMissingData"] == "notBreaching", name
        # And a metric-math alarm stays within CloudWatch's 10 metrics
        assert len([m for m in properties.get("Metrics", []) if "MetricStat" in m]) <= 10, name


def test_every_function_is_watched_by_a_handler_errors_alarm(template: dict[str, Any]) -> None:
    # Given the handler-errors alarms (CloudWatch allows 10 metrics in one)
    resources = template["Resources"]
    watched = [
        query["MetricStat"]["Metric"]["Dimensions"][0]["Value"]["Ref"]
        for name in (
            "HttpHandlerErrorsAlarm",
            "ReadHandlerErrorsAlarm",
            "WorkflowHandlerErrorsAlarm",
            "SampleFunctionErrorsAlarm",
            "ReconcilerErrorsAlarm",
        )
        for query in resources[name]["Properties"]["Metrics"]
        if "MetricStat" in query
    ]
    # Then every function of the template is in exactly one (a new function needs its place there)
    functions = set(resources_of(template, "AWS::Serverless::Function"))
    assert sorted(watched) == sorted(functions), set(functions) ^ set(watched)


def test_the_layer_and_every_function_build_with_the_makefile_that_ships_bytecode(
    template: dict[str, Any],
) -> None:
    # Given the layer and the functions / Then `sam build` runs their Makefiles (bytecode of the runtime)
    layer = template["Resources"]["WaitgateLayer"]
    assert layer["Metadata"]["BuildMethod"] == "makefile"
    assert (REPO_ROOT / layer["Properties"]["ContentUri"] / "Makefile").is_file()
    for name, function in resources_of(template, "AWS::Serverless::Function").items():
        build = {key: function["Metadata"][key] for key in ("BuildMethod", "ContextPath")}
        assert build == {"BuildMethod": "makefile", "ContextPath": "functions"}, name
    makefile = (REPO_ROOT / "functions" / "Makefile").read_text(encoding="utf-8")
    assert "build-%:" in makefile and "--invalidation-mode unchecked-hash" in makefile
    runtime = template["Globals"]["Function"]["Runtime"]
    assert runtime == "python3.13" and "(3, 13)" in makefile, "the Makefiles compile for the runtime's Python"


def test_at_most_two_readers_of_a_table_stream(translated: dict[str, Any]) -> None:
    # Given every reader of a DynamoDB stream (event source mappings, EventBridge Pipes)
    readers: dict[str, list[str]] = {}
    for name, resource in translated["Resources"].items():
        source = resource.get("Properties", {})
        arn = source.get("EventSourceArn") if resource["Type"] == "AWS::Lambda::EventSourceMapping" else None
        arn = source.get("Source") if resource["Type"] == "AWS::Pipes::Pipe" else arn
        if isinstance(arn, dict) and arn.get("Fn::GetAtt", [None, None])[1] == "StreamArn":
            readers.setdefault(arn["Fn::GetAtt"][0], []).append(name)
    # Then DynamoDB's advice holds (more than two readers of a shard are throttled): the table has one
    assert readers and all(len(names) <= 2 for names in readers.values()), readers
    assert [len(names) for names in readers.values()] == [1]
