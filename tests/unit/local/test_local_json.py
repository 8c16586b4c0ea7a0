"""local.json holds the webhook and Slack signing secrets: only its owner may read it, from the moment
it exists, and a rewrite never leaves it readable by others."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from local.state.state_dir import StateDir


def test_local_json_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    state_dir = StateDir(tmp_path / ".waitgate")
    state_dir.write_local_json({"slack": {"signingSecret": "s3cret", "teamId": "TLOCAL0001"}})
    state_dir.write_local_json({"slack": {"signingSecret": "s3cret-2", "teamId": "TLOCAL0001"}})
    mode = stat.S_IMODE(state_dir.local_json.stat().st_mode)
    assert mode == 0o600
    assert json.loads(state_dir.local_json.read_text())["slack"]["signingSecret"] == "s3cret-2"
    assert not list(state_dir.root.glob("*.tmp"))
