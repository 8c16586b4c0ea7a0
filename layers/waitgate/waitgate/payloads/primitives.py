"""Field types shared by the payload and resume models, chosen to agree with the JSON Schema.

- `JsonInt`: an integer; a float with no fraction (2.0) is the integer 2, as in JSON.
- `Omittable[T]`: a member that may be absent but, when present, is never `null`.
- `JsonSchemaObject`: an object that is a valid draft 2020-12 schema (checked, then cached).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    StringConstraints,
)
from pydantic.alias_generators import to_camel

from waitgate.payloads.schema_cache import json_schema_problem

T = TypeVar("T")

MODEL_CONFIG = ConfigDict(
    strict=True,
    extra="forbid",
    frozen=True,
    alias_generator=to_camel,
    validate_by_alias=True,
    validate_by_name=True,
    allow_inf_nan=False,
)

ApprovalAction = Literal["accept", "reject", "refine", "edit-accept", "ask"]
APPROVAL_ACTIONS: tuple[ApprovalAction, ...] = ("accept", "reject", "refine", "edit-accept", "ask")


def _reject_null(value: object) -> object:
    if value is None:
        raise ValueError("must not be null; omit the member instead")
    return value


def _integral_float(value: object) -> object:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _must_be_json_schema(value: dict[str, JsonValue]) -> dict[str, JsonValue]:
    problem = json_schema_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def _unique(values: list[T]) -> list[T]:
    if len(set(map(repr, values))) != len(values):
        raise ValueError("items must be unique")
    return values


Omittable = Annotated[T | None, BeforeValidator(_reject_null)]
JsonInt = Annotated[int, BeforeValidator(_integral_float)]
PositiveInt = Annotated[int, BeforeValidator(_integral_float), Field(ge=1)]
NonEmptyStr = Annotated[str, StringConstraints(min_length=1)]
Id200 = Annotated[str, StringConstraints(min_length=1, max_length=200)]
JsonPointer = Annotated[str, StringConstraints(pattern=r"^(?:/(?:[^~/]|~[01])*)*$")]  # RFC 6901
QuestionId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
Probability = Annotated[float, Field(ge=0, le=1)]
StrList = list[NonEmptyStr]
JsonObject = dict[str, JsonValue]
JsonSchemaObject = Annotated[dict[str, JsonValue], AfterValidator(_must_be_json_schema)]
UniqueActions = Annotated[list[ApprovalAction], Field(min_length=1), AfterValidator(_unique)]

__all__ = [
    "APPROVAL_ACTIONS",
    "MODEL_CONFIG",
    "ApprovalAction",
    "Id200",
    "JsonInt",
    "JsonObject",
    "JsonPointer",
    "JsonSchemaObject",
    "NonEmptyStr",
    "Omittable",
    "PositiveInt",
    "Probability",
    "QuestionId",
    "StrList",
    "UniqueActions",
]
