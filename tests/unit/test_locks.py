"""The two locks: requirements.lock (everything `make test` needs) and requirements-stack.lock (what
`make dev` installs: the runtime's packages, the `stack` extra and what they pull in). The stack's lock
is exactly the closure of those requirements over the installed packages, at the full lock's pins."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement

REPO_ROOT = Path(__file__).resolve().parents[2]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: str) -> dict[str, str]:
    found = {}
    for line in (REPO_ROOT / lock).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            found[canonical(name)] = version
    return found


def closure(requirements: list[str]) -> set[str]:
    """Every distribution these requirements pull in (their extras and environment markers applied)."""
    seen: set[str] = set()
    pending = [Requirement(text) for text in requirements]
    while pending:
        requirement = pending.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonical(requirement.name)
        if name in seen and not requirement.extras:
            continue
        seen.add(name)
        try:
            requires = distribution(requirement.name).requires or []
        except PackageNotFoundError:
            continue
        for text in requires:
            child = Requirement(text)
            environments = [{"extra": ""}] + [{"extra": extra} for extra in requirement.extras]
            if child.marker is None or any(child.marker.evaluate(env) for env in environments):
                child.marker = None  # evaluated here, with the extras of its parent
                pending.append(child)
    return seen


def test_the_stacks_lock_pins_what_the_full_lock_pins() -> None:
    stack, full = pins("requirements-stack.lock"), pins("requirements.lock")
    assert set(stack) <= set(full)
    assert {name: full[name] for name in stack} == stack


def test_the_stacks_lock_is_the_closure_of_the_runtime_and_the_stack_extra() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = closure([*project["dependencies"], *project["optional-dependencies"]["stack"]])
    assert set(pins("requirements-stack.lock")) == wanted - {"waitgate"}


def test_the_full_lock_holds_the_dev_extra() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dev = [text for text in project["optional-dependencies"]["dev"] if not text.startswith("waitgate")]
    assert closure(dev) - {"waitgate"} <= set(pins("requirements.lock"))


def test_the_mcp_functions_requirements_are_the_sdks_closure_at_the_locks_pins() -> None:
    """functions/serve_mcp ships the MCP SDK beside it (not in the layer): all that the SDK pulls in,
    at the versions the tests ran, so what it shares with the layer is the layer's own version."""
    wanted = pins("functions/serve_mcp/requirements.txt")
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert set(wanted) == closure(project["optional-dependencies"]["mcp"])
    full = pins("requirements.lock")
    assert {name: full[name] for name in wanted} == wanted


AGENT_EXTRAS = ("langgraph", "openai-agents", "pydantic-ai", "ag-ui")


def test_the_agent_frameworks_are_extras_the_full_lock_holds_and_the_stack_does_not() -> None:
    """`pip install waitgate[langgraph]` & co. (docs/agents.md): the tests run them (requirements.lock),
    the local stack and the layer never install them."""
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    full, stack = pins("requirements.lock"), pins("requirements-stack.lock")
    for extra in AGENT_EXTRAS:
        frameworks = [text for text in extras[extra] if not text.startswith("waitgate")]
        assert closure(frameworks) - {"waitgate"} <= set(full), extra
        assert not {canonical(Requirement(text).name) for text in frameworks} & set(stack), extra
