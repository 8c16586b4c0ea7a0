"""The MCP Inspector's CLI mode, a second MCP client that is not ours (the TypeScript SDK's), from npm
at the version locked in tests/e2e/mcp_inspector/, installed once under .cache/ (`make mcp-inspector`
does the same). A machine without npm skips the tests that need it, as one without chromium skips
the browser tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests.e2e.conftest import REPO_ROOT

LOCK = Path(__file__).resolve().parent / "mcp_inspector"
HOME = REPO_ROOT / ".cache" / "mcp-inspector"
LAUNCHER = HOME / "node_modules" / ".bin" / "mcp-inspector"


class InspectorMissingError(Exception):
    """npm (or node) is not installed here."""


def installed() -> Path:
    if not LAUNCHER.exists():
        if shutil.which("npm") is None or shutil.which("node") is None:
            raise InspectorMissingError(
                "npm is not installed: the second MCP client is the Inspector, from npm"
            )
        HOME.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(LOCK / name, HOME / name)
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HOME, check=True, timeout=600
        )
    return LAUNCHER


def inspect(url: str, token: str, *arguments: str) -> Any:
    """`mcp-inspector --cli URL --header 'Authorization: Bearer …' ARGUMENTS`: its JSON output."""
    # its catalog under .cache/ too, not in the home directory
    environment = {**os.environ, "MCP_CATALOG_PATH": str(HOME / "catalog.json")}
    done = subprocess.run(
        [str(installed()), "--cli", url, *arguments, "--header", f"Authorization: Bearer {token}"],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)
