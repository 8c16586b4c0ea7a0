"""The settings every function validates at cold start: a dataclass checked as the pydantic model it
replaced checked (no pydantic on a cold start's path), read from the environment as before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from waitgate.wiring.settings import Settings

LAYER = Path(__file__).resolve().parents[3] / "layers" / "waitgate"


def test_the_environment_is_read_with_its_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given an environment with a table, two override principals and a link lifetime
    monkeypatch.setenv("TABLE_NAME", "interrupts")
    monkeypatch.setenv("OVERRIDE_PRINCIPALS", " alice, ,bob ")
    monkeypatch.setenv("TOKEN_LIFETIME_SECONDS", "600")
    monkeypatch.delenv("REF_KINDS", raising=False)
    # When the settings are read
    settings = Settings.from_environment()
    # Then each is as given, the rest their defaults
    assert settings.table_name == "interrupts"
    assert settings.override_principals == ("alice", "bob")
    assert settings.token_lifetime_seconds == 600
    assert settings.ref_kinds == ("principal", "group", "role")
    assert settings.pending_index == "InboxByDeadline"
    assert settings.webhook_attempts == 8


@pytest.mark.parametrize(
    "wrong",
    [
        {"table_name": ""},
        {"token_lifetime_seconds": 59},
        {"notice_link_max_hours": 0},
        {"escalation_threshold": -0.1},
        {"escalation_threshold": 1.5},
        {"notification_attempts": 0},
        {"notification_retry_base_seconds": 0},
        {"webhook_attempts": 21},
        {"webhook_attempts": 0},
        {"webhook_retry_base_seconds": -1},
        {"pending_index": "SomeOtherIndex"},
    ],
    ids=lambda wrong: f"{next(iter(wrong))}={next(iter(wrong.values()))}",
)
def test_a_value_out_of_its_bounds_fails_loudly_naming_it(wrong: dict[str, object]) -> None:
    # Given a setting out of its bounds / Then building the settings fails, naming that setting
    with pytest.raises(ValueError, match=next(iter(wrong))):
        Settings(**{"table_name": "t", **wrong})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "edge",
    [{"token_lifetime_seconds": 60}, {"escalation_threshold": 0}, {"escalation_threshold": 1},
     {"webhook_attempts": 20}, {"notification_retry_base_seconds": 0.5},
     {"pending_index": "PendingByDeadline"}],
)  # fmt: skip
def test_a_value_at_its_bounds_is_kept(edge: dict[str, object]) -> None:
    settings = Settings(**{"table_name": "t", **edge})  # type: ignore[arg-type]
    assert getattr(settings, next(iter(edge))) == next(iter(edge.values()))


def test_the_settings_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Settings(table_name="t").table_name = "other"  # type: ignore[misc]


def test_reading_the_settings_loads_no_pydantic() -> None:
    # Given a fresh interpreter / When it reads the settings / Then pydantic is not loaded
    probe = "import sys\nfrom waitgate.wiring.settings import settings\n"
    probe += "settings()\nprint('pydantic' in sys.modules)"
    answer = subprocess.run(
        [sys.executable, "-c", probe], env={"PYTHONPATH": str(LAYER), "TABLE_NAME": "t"},
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert answer.stdout.strip() == "False"
