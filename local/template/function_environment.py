"""One process runs every function, so all functions share one environment, set once."""

from __future__ import annotations

import os

from local.patches.lambda_runtime import LocalFunction


class ConflictingEnvironmentError(Exception):
    """Two functions give one variable different values: they cannot share a process."""


def shared_environment(functions: list[LocalFunction]) -> dict[str, str]:
    """The union of the functions' variables (Globals are already merged into each)."""
    merged: dict[str, str] = {}
    owners: dict[str, str] = {}
    for function in functions:
        for name, value in function.environment.items():
            text = str(value)
            if name in merged and merged[name] != text:
                raise ConflictingEnvironmentError(
                    f"{name} is {merged[name]!r} for {owners[name]} but {text!r} for "
                    f"{function.function_name}: the local stack runs all functions in one "
                    "process, so their environments must agree"
                )
            merged[name], owners[name] = text, function.function_name
    return merged


def apply_environment(variables: dict[str, str]) -> None:
    """Set before any handler is imported: settings are read at cold start."""
    os.environ.update(variables)
