"""Creators for EventBridge rules and schedule groups and CloudWatch alarms and dashboards, stored in moto as
CloudFormation would create them. moto never fires a rule or a schedule: local.standins.execution_events,
local.standins.schedule_pump and local.standins.scheduled_functions deliver what AWS would."""

from __future__ import annotations

import json
from typing import Any

from local.template.resources import Created, Creator, StackContext

_ALARM_FIELDS = (
    "AlarmDescription",
    "Namespace",
    "MetricName",
    "Dimensions",
    "Statistic",
    "Period",
    "EvaluationPeriods",
    "Threshold",
    "ComparisonOperator",
    "TreatMissingData",
    "DatapointsToAlarm",
    "Metrics",
    "AlarmActions",
    "OKActions",
)


def create_schedule_group(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("Name") or context.physical_name(logical_id, 64)
    arn = context.clients("scheduler").create_schedule_group(Name=name)["ScheduleGroupArn"]
    return Created(ref=name, attributes={"Arn": arn})


def create_rule(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    events = context.clients("events")
    name = properties.get("Name") or context.physical_name(logical_id, 64)
    rule: dict[str, Any] = {"Name": name, "State": properties.get("State", "ENABLED")}
    if "ScheduleExpression" in properties:  # a scheduled rule (local.standins.scheduled_functions fires it)
        rule["ScheduleExpression"] = properties["ScheduleExpression"]
    else:
        pattern = properties["EventPattern"]  # an object, or the JSON text of one
        rule["EventPattern"] = pattern if isinstance(pattern, str) else json.dumps(pattern)
    arn = events.put_rule(**rule)["RuleArn"]
    targets = [{"Id": t["Id"], "Arn": t["Arn"]} for t in properties.get("Targets", [])]
    if targets:
        events.put_targets(Rule=name, Targets=targets)
    return Created(ref=name, attributes={"Arn": arn})


def create_alarm(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("AlarmName") or context.physical_name(logical_id, 255)
    arguments = {key: properties[key] for key in _ALARM_FIELDS if key in properties}
    for number in ("Period", "EvaluationPeriods", "DatapointsToAlarm"):
        if number in arguments:
            arguments[number] = int(arguments[number])
    for query in arguments.get("Metrics", []):  # metric math: each metric's period is a number too
        if "MetricStat" in query:
            query["MetricStat"]["Period"] = int(query["MetricStat"]["Period"])
    if "Threshold" in arguments:
        arguments["Threshold"] = float(arguments["Threshold"])
    context.clients("cloudwatch").put_metric_alarm(AlarmName=name, **arguments)
    return Created(
        ref=name, attributes={"Arn": f"arn:aws:cloudwatch:{context.region}:{context.account_id}:alarm:{name}"}
    )


def create_dashboard(context: StackContext, logical_id: str, properties: dict[str, Any]) -> Created:
    name = properties.get("DashboardName") or context.physical_name(logical_id, 255)
    context.clients("cloudwatch").put_dashboard(DashboardName=name, DashboardBody=properties["DashboardBody"])
    return Created(ref=name)


EVENT_CREATORS: dict[str, Creator] = {
    "AWS::Scheduler::ScheduleGroup": create_schedule_group,
    "AWS::Events::Rule": create_rule,
    "AWS::CloudWatch::Alarm": create_alarm,
    "AWS::CloudWatch::Dashboard": create_dashboard,
}
