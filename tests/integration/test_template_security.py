"""The security findings of issue #27, held by template.yaml: throttling and access logs on the HTTP
API, reserved concurrency behind the unauthenticated routes, the encrypted topic and who may
subscribe to it, what is kept when the stack is replaced or deleted, a log group per function and
state machine, logging and tracing of the state machines, read policies for read-only handlers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local.template.sam_template import load_template
from tests.support.template_queries import own_state_machine_arns, subs_in

WRITE_VERBS = ("Put", "Update", "Delete", "TransactWrite", "BatchWrite", "ConditionCheck", "Send", "Publish")
READ_ONLY = (
    "GetRunFunction",
    "ListRunEventsFunction",
    "ListWebhookEventsFunction",
    "ListInterruptsFunction",
    "InspectByTokenFunction",
    "CapabilitiesFunction",
    "OpenApiFunction",
    "InboxPageFunction",
)
KEY = {"Fn::GetAtt": ["StackKey", "Arn"]}


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def of_type(template: dict[str, Any], kind: str) -> dict[str, Any]:
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def public_routes(template: dict[str, Any]) -> dict[str, str]:
    """`METHOD /path` of every route without the JWT authorizer -> the function behind it."""
    routes = {}
    for name, function in of_type(template, "AWS::Serverless::Function").items():
        for event in function["Properties"].get("Events", {}).values():
            properties = event["Properties"]
            if event["Type"] == "HttpApi" and properties.get("Auth", {}).get("Authorizer") == "NONE":
                routes[f"{properties['Method']} {properties['Path']}"] = name
    return routes


def test_every_route_is_throttled_and_each_public_one_at_the_public_rates(template: dict[str, Any]) -> None:
    api = template["Resources"]["HttpApi"]["Properties"]
    assert api["DefaultRouteSettings"] == {
        "ThrottlingRateLimit": {"Ref": "ApiThrottlingRateLimit"},
        "ThrottlingBurstLimit": {"Ref": "ApiThrottlingBurstLimit"},
    }
    public = {
        "ThrottlingRateLimit": {"Ref": "PublicRouteThrottlingRateLimit"},
        "ThrottlingBurstLimit": {"Ref": "PublicRouteThrottlingBurstLimit"},
    }
    assert set(api["RouteSettings"]) == set(public_routes(template))
    assert all(settings == public for settings in api["RouteSettings"].values())


def test_the_access_log_is_json_with_the_route_key_never_the_path(template: dict[str, Any]) -> None:
    settings = template["Resources"]["HttpApi"]["Properties"]["AccessLogSettings"]
    assert settings["DestinationArn"] == {"Fn::GetAtt": ["HttpApiAccessLogGroup", "Arn"]}
    line = json.loads(settings["Format"])
    assert {"requestId", "routeKey", "status", "integrationError"} <= line.keys()
    # a signed link's path is its token: no variable that holds the path may be logged
    assert not [v for v in line.values() if "path" in v.lower() or "querystring" in v.lower()]


def test_the_functions_behind_public_routes_reserve_concurrency_only_when_asked(
    template: dict[str, Any],
) -> None:
    # Given the parameter (0 by default: a new account's concurrency limit of 10 allows no reservation)
    parameter = template["Parameters"]["PublicFunctionReservedConcurrency"]
    assert (parameter["Default"], parameter["MinValue"]) == (0, 0)
    behind = set(public_routes(template).values())
    assert len(behind) == 9  # fresh links (#30) and MCP (#31) joined the seven
    conditional = {
        "Fn::If": [
            "HasPublicFunctionReservedConcurrency",
            {"Ref": "PublicFunctionReservedConcurrency"},
            {"Ref": "AWS::NoValue"},
        ]
    }
    for name, function in of_type(template, "AWS::Serverless::Function").items():
        reserved = function["Properties"].get("ReservedConcurrentExecutions")
        assert reserved == (conditional if name in behind else None), name


def test_the_topic_is_encrypted_and_only_the_channel_queues_may_subscribe(template: dict[str, Any]) -> None:
    resources = template["Resources"]
    assert resources["NotificationsTopic"]["Properties"]["KmsMasterKeyId"] == {"Ref": "StackKey"}
    policy = resources["NotificationsTopicPolicy"]["Properties"]
    assert policy["Topics"] == [{"Ref": "NotificationsTopic"}]
    (subscribe,) = [s for s in policy["PolicyDocument"]["Statement"] if s["Action"] == "sns:Subscribe"]
    assert (subscribe["Effect"], subscribe["Principal"]) == ("Deny", "*")
    allowed = subscribe["Condition"]["StringNotLike"]["sns:Endpoint"]["Fn::If"]
    queues = [{"Fn::GetAtt": [q, "Arn"]} for q in ("EmailDeliveryQueue", "SlackDeliveryQueue")]
    assert allowed[2] == queues
    subscribed = [s["Properties"]["Endpoint"] for s in of_type(template, "AWS::SNS::Subscription").values()]
    assert sorted(map(json.dumps, subscribed)) == sorted(map(json.dumps, queues))
    # And the queues holding notices (each with personal links) use the same key, which SNS may use
    for queue in ("EmailDeliveryQueue", "SlackDeliveryQueue", "NotificationsParkingQueue"):
        assert resources[queue]["Properties"]["KmsMasterKeyId"] == {"Ref": "StackKey"}, queue
    key = resources["StackKey"]["Properties"]
    assert key["EnableKeyRotation"] is True
    services = [s["Principal"].get("Service") for s in key["KeyPolicy"]["Statement"]]
    assert "sns.amazonaws.com" in services


def test_publishers_and_deliverers_may_use_the_key(template: dict[str, Any]) -> None:
    resources = template["Resources"]
    for policy, actions in (
        ("NotifyPolicy", {"kms:GenerateDataKey", "kms:Decrypt"}),
        ("ChannelDeliveryPolicy", {"kms:Decrypt"}),
    ):
        statements = resources[policy]["Properties"]["PolicyDocument"]["Statement"]
        granted = {a for s in statements if s["Resource"] == KEY for a in _list(s["Action"])}
        assert actions <= granted, policy


def test_what_a_replacement_or_deletion_would_lose_is_retained(template: dict[str, Any]) -> None:
    resources = template["Resources"]
    # the state, the links' key, what was not delivered, and the key those queues are encrypted with
    kept = (
        "InterruptsTable",
        "DirectoryTable",
        "TokenSecret",
        "DeliveryFailuresQueue",
        "NotificationsParkingQueue",
    )
    for name in (*kept, "StackKey"):
        resource = resources[name]
        assert (resource["DeletionPolicy"], resource["UpdateReplacePolicy"]) == ("Retain", "Retain"), name
    for name in of_type(template, "AWS::DynamoDB::Table"):
        assert resources[name]["Properties"]["DeletionProtectionEnabled"] is True, name


def test_every_function_and_state_machine_logs_to_a_group_of_its_own_with_retention(
    template: dict[str, Any],
) -> None:
    groups = of_type(template, "AWS::Logs::LogGroup")
    for group in groups.values():
        properties = group["Properties"]
        assert properties["RetentionInDays"] == {"Ref": "LogRetentionDays"}
        assert properties["KmsKeyId"] == KEY
    used = [
        f["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
        for f in of_type(template, "AWS::Serverless::Function").values()
    ]
    for machine in of_type(template, "AWS::Serverless::StateMachine").values():
        properties = machine["Properties"]
        logging = properties["Logging"]
        # every state's transitions, never state data (it holds answers and task tokens)
        assert (logging["Level"], logging["IncludeExecutionData"]) == ("ALL", False)
        (destination,) = logging["Destinations"]
        used.append(destination["CloudWatchLogsLogGroup"]["LogGroupArn"]["Fn::GetAtt"][0])
        assert properties["Tracing"] == {"Enabled": True}
        assert {"Ref": "StateMachineLoggingPolicy"} in properties["Policies"]
    assert len(used) == len(set(used))
    assert set(used) | {"HttpApiAccessLogGroup"} == set(groups)


def managed_policy_actions(template: dict[str, Any], function: dict[str, Any]) -> set[str]:
    actions: set[str] = set()
    for policy in function["Properties"].get("Policies", []):
        if isinstance(policy, dict) and "Ref" in policy:
            document = template["Resources"][policy["Ref"]]["Properties"]["PolicyDocument"]
            actions |= {a for s in document["Statement"] for a in _list(s["Action"])}
        else:  # an inline statement or a SAM policy template: a read-only function has neither
            actions.add(json.dumps(policy))
    return actions


@pytest.mark.parametrize("name", READ_ONLY)
def test_a_read_only_function_holds_read_permissions_only(template: dict[str, Any], name: str) -> None:
    actions = managed_policy_actions(template, template["Resources"][name])
    writes = {a for a in actions if ":" not in a or a.split(":", 1)[1].startswith(WRITE_VERBS)}
    assert not writes, f"{name} may write: {sorted(writes)}"


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def test_no_arn_or_pattern_matches_another_stack_by_the_stack_name_prefix(template: dict[str, Any]) -> None:
    # Given a stack "wg": `wg-*` (or a prefix "wg-") also matches the resources of a stack "wg-2"
    text = json.dumps(template["Resources"])
    assert "${AWS::StackName}-*" not in text
    assert '${AWS::StackName}-"' not in text
    # And the run lifecycle's rule names the stack's state machines exactly, and its durable function
    events = template["Resources"]["RunLifecycleFunction"]["Properties"]["Events"]
    own = events["OwnStateMachines"]["Properties"]["Pattern"]["detail"]["stateMachineArn"]
    assert subs_in(own) == own_state_machine_arns(template)
    durable = json.dumps(events["OwnDurableFunctions"]["Properties"]["Pattern"]["detail"]["functionArn"])
    assert durable.count("function:${AWS::StackName}-approval-sample") == 2
