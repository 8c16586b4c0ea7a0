"""What a JSON Schema asks a person, as form fields: the one plan the page renders
(`schema_controls`) and reads back from a posted form (`schema_answers`), so the two always agree.

Understood: `type` string (`enum` → radios, or a select past five choices; `format` date, date-time,
email; `minLength`, `maxLength`, `pattern`), number and integer (`minimum`, `maximum`, the exclusive
bounds, `multipleOf`), boolean (a checkbox), arrays of enums (checkboxes) or of strings or numbers
(one per line; `minItems`, `maxItems`, `uniqueItems`), objects of those (a fieldset; `properties`,
`required`, a boolean `additionalProperties`), with `title`, `description` and `default`. Any other
keyword makes that part of the form a JSON editor. Pure.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

Control = Literal[
    "text",
    "textarea",
    "email",
    "date",
    "date-time",
    "number",
    "integer",
    "checkbox",
    "radios",
    "select",
    "checkboxes",
    "lines",
    "json",
    "group",
]


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()
ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment", "$schema", "$id", "readOnly", "writeOnly"}
    | {"deprecated"}
)
_STRING = frozenset({"type", "minLength", "maxLength", "format", "pattern"})
_NUMBER = frozenset({"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
_ARRAY = frozenset({"type", "items", "minItems", "maxItems", "uniqueItems"})
_OBJECT = frozenset({"type", "properties", "required", "additionalProperties"})
FORMATS: frozenset[str] = frozenset({"date", "date-time", "email"})
MAX_RADIOS = 5  # more choices than this: a select
MAX_DEPTH = 4  # objects nested deeper than this: a JSON editor
FIELD_BUDGET = 60  # form names one plan may use (a form holds at most 100: http.form_body.MAX_FIELDS)
LONG_TEXT = 200  # a string allowed (or given) longer than this gets a text area
EMPTY_MESSAGES = {
    "number": "Enter a number.",
    "integer": "Enter a whole number.",
    "date": "Enter a date.",
    "date-time": "Enter a date and time.",
    "email": "Enter an e-mail address.",
    "radios": "Choose one.",
    "select": "Choose one.",
    "json": "Write a value, as JSON.",
}


@dataclass(frozen=True)
class Field:
    """One question of a form: where it posts (`name`), what the server calls it (`path`, as in a
    400's `path`), how it is asked (`control`), and the schema its answer must meet."""

    name: str
    path: str
    label: str
    control: Control
    schema: Mapping[str, Any] = field(default_factory=dict)
    required: bool = False  # must be given: the schema's `required`, every question, a root
    hint: str = ""
    default: Any = NO_DEFAULT
    choices: tuple[Any, ...] = ()
    choice_labels: tuple[str, ...] = ()
    item_type: str = ""  # lines: "string", "number" or "integer"
    children: tuple[Field, ...] = ()
    max_bytes: int | None = None  # a text's limit in UTF-8 bytes, shown and counted by the page
    trim: bool = False  # surrounding white space is no part of the answer (a comment, a question)
    empty_message: str = ""  # what a refused empty answer is told, when not the control's own words

    @property
    def element_id(self) -> str:
        return "f-" + hashlib.blake2s(self.name.encode("utf-8"), digest_size=5).hexdigest()

    @property
    def as_text(self) -> bool:
        """Choices are posted as themselves when all are strings, else each as its JSON."""
        return all(isinstance(choice, str) for choice in self.choices)

    def choice_name(self, index: int) -> str:
        """A checkbox of an array of enums posts under a name of its own (no name is sent twice)."""
        return f"{self.name}[{index}]"

    @property
    def names(self) -> frozenset[str]:
        """Every form name this field (and what it holds) may post."""
        if self.control == "group":
            return frozenset().union(*(child.names for child in self.children))
        if self.control == "checkboxes":
            return frozenset(self.choice_name(index) for index in range(len(self.choices)))
        return frozenset({self.name})

    @property
    def refuses_empty(self) -> bool:
        """Whether leaving it empty is refused (the page marks it required): a required answer that
        has no empty form. A required text may be empty unless its schema says otherwise."""
        if not self.required:
            return False
        if self.control in {"text", "textarea"}:
            return int(self.schema.get("minLength", 0) or 0) > 0
        return self.control not in {"checkbox", "checkboxes", "lines", "group"}

    @property
    def empty_text(self) -> str:
        """What an empty answer it refuses is told (the page's script says the same)."""
        if self.empty_message:
            return self.empty_message
        shortest = self.schema.get("minLength")
        if self.control in {"text", "textarea"} and isinstance(shortest, int) and shortest > 0:
            return f"Enter at least {shortest} character{'s' if shortest != 1 else ''}."
        return EMPTY_MESSAGES.get(self.control, "Answer this.")

    def walk(self) -> Iterator[Field]:
        yield self
        for child in self.children:
            yield from child.walk()


def escape_key(key: str) -> str:
    """A property name as one segment of a form name (`.` and `[` separate segments)."""
    return key.replace("%", "%25").replace(".", "%2E").replace("[", "%5B").replace("]", "%5D")


def humanize(name: str) -> str:
    """`maxReplicas`, `max_replicas`, `max-replicas` → "Max replicas"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ")
    words = " ".join(spaced.split())
    return (words[:1].upper() + words[1:].lower()) if words else name


def json_field(name: str, path: str, label: str, *, required: bool = True, **more: Any) -> Field:
    """The fallback: a JSON editor, checked before it is sent and parsed by the JSON rules."""
    return Field(name=name, path=path, label=label, control="json", required=required, **more)


def plan_schema(
    schema: Any,
    *,
    name: str,
    path: str,
    label: str,
    required: bool = True,
    default: Any = NO_DEFAULT,
    hint: str = "",
    budget: int = FIELD_BUDGET,
) -> Field:
    """The form that asks for a value of `schema`; a JSON editor where the schema asks for more than
    the form can say, and for all of it past `budget` names."""
    planned = _plan(schema, name, path, label, required, default, 0)
    if hint:
        planned = replace(planned, hint=hint)
    if len(planned.names) > budget:
        fallback = _mapping(schema).get("default", NO_DEFAULT) if default is NO_DEFAULT else default
        return json_field(
            name, path, label, required=required, schema=_mapping(schema), hint=hint, default=fallback
        )
    return planned


def _mapping(schema: Any) -> Mapping[str, Any]:
    return schema if isinstance(schema, Mapping) else {}


def _plan(schema: Any, name: str, path: str, label: str, required: bool, default: Any, depth: int) -> Field:
    schema = _mapping(schema)
    if default is NO_DEFAULT:
        default = schema.get("default", NO_DEFAULT)
    label = str(schema["title"]) if isinstance(schema.get("title"), str) and schema["title"] else label
    common = {"name": name, "path": path, "label": label, "required": required, "default": default}
    if isinstance(schema.get("description"), str):
        common["hint"] = schema["description"]
    keywords = set(schema) - ANNOTATIONS
    kind = _type_of(schema)
    if "enum" in schema:
        return _choice(schema, keywords, kind, common)
    if kind == "string" and keywords <= _STRING:
        return Field(control=_string_control(schema, default), schema=schema, **common)
    if kind in {"number", "integer"} and keywords <= _NUMBER:
        return Field(control="integer" if kind == "integer" else "number", schema=schema, **common)
    if kind == "boolean" and keywords <= {"type"}:
        return Field(control="checkbox", schema=schema, **common)
    if kind == "array" and keywords <= _ARRAY:
        return _array(schema, common)
    if kind == "object" and keywords <= _OBJECT and depth < MAX_DEPTH:
        return _object(schema, common, depth)
    return Field(control="json", schema=schema, **common)


def _type_of(schema: Mapping[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list) and len(kind) == 1:
        kind = kind[0]
    if kind is None and "properties" in schema:
        return "object"  # an object is what the properties describe
    return kind if isinstance(kind, str) else None


def _choice(schema: Mapping[str, Any], keywords: set[str], kind: str | None, common: dict[str, Any]) -> Field:
    choices = schema["enum"]
    if not isinstance(choices, list) or not choices or not keywords <= {"enum", "type"}:
        return Field(control="json", schema=schema, **common)
    if isinstance(schema.get("type"), list):
        return Field(control="json", schema=schema, **common)
    control: Control = "radios" if len(choices) <= MAX_RADIOS else "select"
    return Field(control=control, schema=schema, choices=tuple(choices), **common)


def _string_control(schema: Mapping[str, Any], default: Any) -> Control:
    fmt = schema.get("format")
    if fmt in FORMATS:
        return "email" if fmt == "email" else "date" if fmt == "date" else "date-time"
    longest = schema.get("maxLength")
    long_default = isinstance(default, str) and ("\n" in default or len(default) > LONG_TEXT // 2)
    if long_default or (isinstance(longest, int) and longest > LONG_TEXT):
        return "textarea"
    return "text"


def _array(schema: Mapping[str, Any], common: dict[str, Any]) -> Field:
    items = _mapping(schema.get("items"))
    item_keywords = set(items) - ANNOTATIONS
    item_type = _type_of(items)
    if "enum" in items and item_keywords <= {"enum", "type"} and isinstance(items["enum"], list):
        choices = tuple(items["enum"])
        if choices and not isinstance(items.get("type"), list):
            return Field(control="checkboxes", schema=schema, choices=choices, **common)
    if item_type == "string" and item_keywords <= _STRING - {"format"}:
        return Field(control="lines", schema=schema, item_type="string", **common)
    if item_type in {"number", "integer"} and item_keywords <= _NUMBER:
        return Field(control="lines", schema=schema, item_type=item_type, **common)
    return Field(control="json", schema=schema, **common)


def _object(schema: Mapping[str, Any], common: dict[str, Any], depth: int) -> Field:
    properties = schema.get("properties")
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if (
        not isinstance(properties, Mapping)
        or not properties
        or not isinstance(required, list)
        or not set(required) <= set(properties)
        or not isinstance(extra, bool)
    ):
        return Field(control="json", schema=schema, **common)
    defaults = common["default"] if isinstance(common["default"], Mapping) else {}
    children = tuple(
        _plan(
            sub,
            f"{common['name']}.{escape_key(key)}",
            f"{common['path']}.{key}",
            humanize(key),
            key in required,
            defaults.get(key, NO_DEFAULT),
            depth + 1,
        )
        for key, sub in properties.items()
    )
    return Field(control="group", schema=schema, children=children, **common)


def property_key(parent: Field, child: Field) -> str:
    """The property a group's child answers (its path's last segment)."""
    return child.path[len(parent.path) + 1 :]
