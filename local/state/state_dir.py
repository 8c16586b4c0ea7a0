"""Where the local stack keeps what outlives one run: the kept state (state.json, local.state.kept_state),
the inbox log, the issuer key, the pid file, local.json."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_STATE_DIR = ".waitgate"


@dataclass(frozen=True)
class StateDir:
    """The state directory (`.waitgate/` or $WAITGATE_STATE_DIR) and the files in it."""

    root: Path

    @classmethod
    def from_environment(cls) -> StateDir:
        return cls(Path(os.environ.get("WAITGATE_STATE_DIR") or DEFAULT_STATE_DIR).resolve())

    @property
    def issuer_key(self) -> Path:
        return self.root / "issuer-key.pem"

    @property
    def ledger_key(self) -> Path:
        """The decision ledger's signing key (local.patches.kept_signing_keys, docs/ledger.md)."""
        return self.root / "ledger-key.pem"

    @property
    def pid_file(self) -> Path:
        return self.root / "dev.pid"

    @property
    def local_json(self) -> Path:
        return self.root / "local.json"

    @property
    def inbox_log(self) -> Path:
        return self.root / "inbox.jsonl"

    @property
    def metrics_log(self) -> Path:
        return self.root / "metrics.jsonl"

    @property
    def stack_log(self) -> Path:
        """Every JSON line the functions printed (local.cli.dev_console), across restarts."""
        return self.root / "stack.log"

    @property
    def kept_state(self) -> Path:
        return self.root / "state.json"

    def keep_aside(self) -> Path:
        """A copy of the kept state (before the next save replaces it), for one that was not all restored."""
        aside = self.root / "state-not-restored.json"
        aside.write_bytes(self.kept_state.read_bytes())
        return aside

    def forget_kept_state(self) -> None:
        """What `waitgate dev --fresh` forgets: everything but the pid file of the stack starting."""
        kept = (
            self.kept_state,
            self.inbox_log,
            self.metrics_log,
            self.stack_log,
            self.issuer_key,
            self.ledger_key,
            self.local_json,
        )
        for path in kept:
            path.unlink(missing_ok=True)

    def shown(self) -> str:
        """The directory as a person would type it: relative to the working directory when inside it."""
        try:
            return str(self.root.relative_to(Path.cwd())) + "/"
        except ValueError:
            return str(self.root) + "/"

    def ensure(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)

    def write_local_json(self, description: dict[str, Any]) -> None:
        """local.json, written whole then renamed so a reader never sees half of it."""
        self.ensure()
        partial = self.local_json.with_suffix(".json.tmp")
        partial.unlink(missing_ok=True)
        # it holds the webhook and Slack signing secrets: readable by its owner only, from the start
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(json.dumps(description, indent=2) + "\n")
        partial.replace(self.local_json)

    def read_local_json(self) -> dict[str, Any] | None:
        try:
            loaded: dict[str, Any] = json.loads(self.local_json.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return loaded
