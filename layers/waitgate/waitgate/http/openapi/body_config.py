"""How the document's bodies are modelled: closed (no member of their own choosing), camelCase on the
wire, snake_case in Python."""

from __future__ import annotations

from pydantic import ConfigDict
from pydantic.alias_generators import to_camel

CLOSED = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)
