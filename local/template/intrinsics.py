"""CloudFormation intrinsic functions, resolved the way CloudFormation does for one stack.

Only `${...}` is substituted by Fn::Sub: ASL text such as `$$.Task.Token` passes through untouched.
Fn::If evaluates only the branch its condition picks, so an unused branch may name anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

NO_VALUE = object()
_SUB_VARIABLE = re.compile(r"\$\{([^}!][^}]*)\}")


class IntrinsicError(ValueError):
    """A template names something this stack cannot resolve."""


@dataclass
class Intrinsics:
    """Resolves intrinsics against parameters, conditions and the physical ids made so far."""

    parameters: Mapping[str, Any]
    conditions: Mapping[str, Any] = field(default_factory=dict)
    refs: dict[str, Any] = field(default_factory=dict)
    attributes: dict[tuple[str, str], Any] = field(default_factory=dict)

    def resolve(self, value: Any) -> Any:
        """`value` with every intrinsic replaced by what it stands for."""
        if isinstance(value, list):
            items = [self.resolve(item) for item in value]
            return [item for item in items if item is not NO_VALUE]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((name, argument),) = value.items()
            function = self._functions().get(name)
            if function is not None:
                return function(argument)
        resolved = {key: self.resolve(item) for key, item in value.items()}
        return {key: item for key, item in resolved.items() if item is not NO_VALUE}

    def condition(self, name: str) -> bool:
        if name not in self.conditions:
            raise IntrinsicError(f"unknown condition {name!r}")
        return bool(self.resolve(self.conditions[name]))

    def _functions(self) -> dict[str, Callable[[Any], Any]]:
        return {
            "Ref": self._ref,
            "Fn::GetAtt": self._get_att,
            "Fn::Sub": self._sub,
            "Fn::Join": self._join,
            "Fn::If": self._if,
            "Fn::Equals": self._equals,
            "Fn::Not": lambda argument: not self._truth(self.resolve(argument)[0]),
            "Fn::And": lambda argument: all(self._truth(self.resolve(a)) for a in argument),
            "Fn::Or": lambda argument: any(self._truth(self.resolve(a)) for a in argument),
            "Condition": self.condition,
            "Fn::Split": self._split,
            "Fn::Select": self._select,
        }

    def _truth(self, value: Any) -> bool:
        return self.condition(value) if isinstance(value, str) else bool(value)

    def _ref(self, name: str) -> Any:
        if name == "AWS::NoValue":
            return NO_VALUE
        if name in self.parameters:
            return self.parameters[name]
        if name in self.refs:
            return self.refs[name]
        raise IntrinsicError(f"Ref to {name!r}: no such parameter or created resource")

    def _get_att(self, argument: Any) -> Any:
        logical_id, attribute = argument if isinstance(argument, list) else argument.split(".", 1)
        key = (logical_id, self.resolve(attribute))
        if key not in self.attributes:
            raise IntrinsicError(f"Fn::GetAtt {logical_id}.{attribute}: not available locally")
        return self.attributes[key]

    def _sub(self, argument: Any) -> str:
        text, variables = (argument, {}) if isinstance(argument, str) else argument
        local = {name: self.resolve(item) for name, item in variables.items()}

        def substitute(match: re.Match[str]) -> str:
            name = match.group(1).strip()
            if name in local:
                return str(local[name])
            if "." in name and name.split(".", 1)[0] not in self.parameters:
                return str(self._get_att(name.split(".", 1)))
            return str(self._ref(name))

        return _SUB_VARIABLE.sub(substitute, text).replace("${!", "${")

    def _join(self, argument: list[Any]) -> str:
        delimiter, items = argument
        return str(delimiter).join(str(item) for item in self.resolve(items))

    def _if(self, argument: list[Any]) -> Any:
        name, when_true, when_false = argument
        return self.resolve(when_true if self.condition(name) else when_false)

    def _equals(self, argument: list[Any]) -> bool:
        left, right = (self.resolve(item) for item in argument)
        return bool(str(left) == str(right))

    def _split(self, argument: list[Any]) -> list[str]:
        delimiter, text = argument
        return str(self.resolve(text)).split(delimiter)

    def _select(self, argument: list[Any]) -> Any:
        index, items = argument
        return self.resolve(items)[int(self.resolve(index))]


def parameter_values(declared: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Each declared parameter's value (override, else default) typed as CloudFormation types it."""
    values: dict[str, Any] = {}
    for name, declaration in declared.items():
        if name in overrides:
            raw = overrides[name]
        elif "Default" in declaration:
            raw = declaration["Default"]
        else:
            raise IntrinsicError(f"parameter {name!r} has no default and no value")
        if declaration.get("Type") == "CommaDelimitedList":
            values[name] = raw if isinstance(raw, list) else str(raw).split(",")
        else:
            values[name] = str(raw)
    return values


def pseudo_parameters(stack_name: str, region: str, account_id: str) -> dict[str, Any]:
    return {
        "AWS::StackName": stack_name,
        "AWS::Region": region,
        "AWS::AccountId": account_id,
        "AWS::Partition": "aws",
        "AWS::URLSuffix": "amazonaws.com",
        "AWS::StackId": f"arn:aws:cloudformation:{region}:{account_id}:stack/{stack_name}/local",
        "AWS::NotificationARNs": [],
    }
