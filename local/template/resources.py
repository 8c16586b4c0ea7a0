"""Create every resource of the translated template on the moto server, in dependency order.

No list of tables or functions lives here: whatever the template declares (of a supported type)
is created; unsupported types are skipped and said so at debug level.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from local.aws_clients import AwsClients
from local.patches.lambda_runtime import FunctionRegistry
from local.template.intrinsics import Intrinsics

logger = logging.getLogger(__name__)
_SUB_NAME = re.compile(r"\$\{([^}!.][^}.]*)(?:\.[^}]*)?\}")


@dataclass
class Created:
    """What CloudFormation would answer for a resource: its Ref and its GetAtt attributes."""

    ref: Any
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass
class StackContext:
    """What a resource creator needs besides the resource itself."""

    clients: AwsClients
    stack_name: str
    region: str
    account_id: str
    functions: FunctionRegistry
    intrinsics: Intrinsics
    physical_ids: dict[str, Created] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    # (function name, event source ARN) → the mapping's FilterCriteria patterns (patches.stream_dispatch)
    stream_filters: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    # SQS event source mappings, polled by local.standins.queue_poller (moto's are created disabled)
    queue_mappings: list[Any] = field(default_factory=list)
    # function name → its DurableConfig, for the functions that are durable (local.standins.local_durable)
    durable_configs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def physical_name(self, logical_id: str, limit: int = 64) -> str:
        return f"{self.stack_name}-{logical_id}"[:limit]


Creator = Callable[[StackContext, str, dict[str, Any]], Created]


def create_all(context: StackContext, resources: dict[str, Any], creators: dict[str, Creator]) -> None:
    """Create each resource once everything it names exists; remember its Ref and attributes.

    Resources of types not created locally get a placeholder Ref first and impose no order
    (so the HttpApi, whose routes name the functions, cannot make a cycle with them)."""
    creatable = {key: r for key, r in resources.items() if r["Type"] in creators}
    for logical_id in resources.keys() - creatable.keys():
        _skip(context, logical_id, resources[logical_id]["Type"])
    for logical_id in dependency_order(creatable):
        resource = creatable[logical_id]
        condition = resource.get("Condition")
        if condition and not context.intrinsics.condition(condition):
            logger.debug("%s: condition %s is false, not created", logical_id, condition)
            continue
        properties = context.intrinsics.resolve(resource.get("Properties", {}))
        created = creators[resource["Type"]](context, logical_id, properties)
        context.physical_ids[logical_id] = created
        context.intrinsics.refs[logical_id] = created.ref
        for attribute, value in created.attributes.items():
            context.intrinsics.attributes[(logical_id, attribute)] = value
        logger.debug("%s (%s) created: %s", logical_id, resource["Type"], created.ref)


def _skip(context: StackContext, logical_id: str, resource_type: str) -> None:
    """Unsupported here (moto lacks it, or the local stack plays its part itself)."""
    logger.debug("%s: %s is not created locally (skipped)", logical_id, resource_type)
    context.skipped[logical_id] = resource_type
    context.intrinsics.refs[logical_id] = f"local-{logical_id.lower()}"


def dependency_order(resources: dict[str, Any]) -> list[str]:
    """Logical ids ordered so that every resource comes after those it names."""
    ordered: list[str] = []
    visiting: set[str] = set()

    def visit(logical_id: str) -> None:
        if logical_id in ordered:
            return
        if logical_id in visiting:
            raise ValueError(f"circular dependency through {logical_id}")
        visiting.add(logical_id)
        for dependency in sorted(names_referenced(resources[logical_id]) & resources.keys()):
            visit(dependency)
        visiting.discard(logical_id)
        ordered.append(logical_id)

    for logical_id in sorted(resources):
        visit(logical_id)
    return ordered


def names_referenced(value: Any) -> set[str]:
    """Every name a Ref, Fn::GetAtt, Fn::Sub or DependsOn inside `value` points at."""
    if isinstance(value, list):
        return set().union(*(names_referenced(item) for item in value)) if value else set()
    if isinstance(value, str) or not isinstance(value, dict):
        return set()
    names: set[str] = set()
    for key, item in value.items():
        if key == "Ref" and isinstance(item, str):
            names.add(item)
        elif key == "Fn::GetAtt":
            names.add(item[0] if isinstance(item, list) else str(item).split(".", 1)[0])
        elif key == "Fn::Sub":
            text = item if isinstance(item, str) else item[0]
            names.update(_SUB_NAME.findall(text))
            names |= names_referenced(item)
        elif key == "DependsOn":
            names.update([item] if isinstance(item, str) else item)
        else:
            names |= names_referenced(item)
    return names
