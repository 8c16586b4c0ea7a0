"""A form body: what a browser posts from the human page with scripts off.

`application/x-www-form-urlencoded`, at most 256 KB like every body, UTF-8, at most `MAX_FIELDS`
fields, each name once (a form of ours never repeats one: a repeat is not ours).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from waitgate.errors import PayloadTooLargeError, ValidationFailedError
from waitgate.http.body import raw_body
from waitgate.run.size_limits import MAX_BODY_BYTES

FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
MAX_FIELDS = 100


def is_form(event: Mapping[str, Any]) -> bool:
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    return headers.get("content-type", "").split(";", 1)[0].strip().lower() == FORM_MEDIA_TYPE


def form_fields(event: Mapping[str, Any]) -> dict[str, str]:
    """The posted fields by name; 413 over the body limit, 400 for anything a browser would not send."""
    raw = raw_body(event)
    if len(raw) > MAX_BODY_BYTES:
        raise PayloadTooLargeError(f"The body is larger than {MAX_BODY_BYTES // 1024} KB.")
    try:
        pairs = parse_qsl(
            raw.decode("ascii"),
            keep_blank_values=True,
            strict_parsing=True,
            encoding="utf-8",
            errors="strict",
            max_num_fields=MAX_FIELDS,
        )
    except UnicodeDecodeError as error:
        raise ValidationFailedError("The form is not UTF-8 text, percent-encoded.", path="$") from error
    except ValueError as error:
        raise ValidationFailedError(
            f"The form is not name=value pairs (at most {MAX_FIELDS}) joined by '&'.", path="$"
        ) from error
    fields: dict[str, str] = {}
    for name, value in pairs:
        if name in fields:
            raise ValidationFailedError(f"The form sends {name[:64]!r} twice.", path=f"form:{name[:64]}")
        fields[name] = value
    return fields
