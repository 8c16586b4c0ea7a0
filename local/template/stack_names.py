"""The stack name: how long it may be, and the check `make build` runs on it (standard library only).

The template builds names from the stack name (`<stack>-escalate-interrupt`, a Lambda function name;
`<stack>-deadlines`, a Scheduler group), and AWS limits those names (Lambda's and Scheduler's to 64
characters). So a stack name longer than MAX_STACK_NAME_LENGTH deploys, then fails on its first
resource with such a name. tests/integration/test_template.py keeps the number equal to what the
template's longest name allows.

`python -m local.template.stack_names [NAME]`: checks NAME, else STACK_NAME, else samconfig.toml's
stack_name (what `sam deploy` will use); says so in one line and exits 1 when it is too long or not a
CloudFormation stack name.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

MAX_STACK_NAME_LENGTH = 45
# CloudFormation's own rule for a stack name
STACK_NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
SAMCONFIG = Path("samconfig.toml")


def stack_name_problem(name: str) -> str | None:
    """What is wrong with `name` as this template's stack name, or None."""
    if not STACK_NAME_PATTERN.fullmatch(name):
        return f"'{name}' is not a stack name (a letter, then letters, digits and hyphens)"
    if len(name) > MAX_STACK_NAME_LENGTH:
        return (
            f"the stack name '{name}' has {len(name)} characters; the names built from it (such as "
            f"'{name}-escalate-interrupt', a Lambda function's, at most 64) allow {MAX_STACK_NAME_LENGTH}"
        )
    return None


def configured_stack_name(samconfig: Path = SAMCONFIG, environment: str = "default") -> str | None:
    """The stack_name `sam deploy` reads from samconfig.toml (deploy's parameters, else global's)."""
    if not samconfig.is_file():
        return None
    with samconfig.open("rb") as handle:
        config = tomllib.load(handle).get(environment, {})
    for command in ("deploy", "global"):
        name = config.get(command, {}).get("parameters", {}).get("stack_name")
        if isinstance(name, str) and name:
            return name
    return None


def main(arguments: list[str]) -> int:
    name = (arguments[0] if arguments else "") or os.environ.get("STACK_NAME") or configured_stack_name()
    if not name:
        print(
            f"make build: no stack name yet (no STACK_NAME, none in samconfig.toml): when `sam deploy "
            f"--guided` asks, give one of at most {MAX_STACK_NAME_LENGTH} characters"
        )
        return 0
    problem = stack_name_problem(name)
    if problem:
        print(f"make build: {problem}: choose another (STACK_NAME=..., or samconfig.toml)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
