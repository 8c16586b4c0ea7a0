"""`waitgate` imports only the command it runs: `--help` and `--version` import no command module (no
boto3, no moto), and each command's line in `waitgate --help` is the one its own parser declares."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

import pytest

from local.cli.main import COMMANDS


def test_top_level_help_imports_no_command_module() -> None:
    probe = (
        "import sys\n"
        "from local.cli.main import main\n"
        "for argv in (['--help'], ['--version']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(m for m in ('boto3', 'botocore', 'moto', 'local.stack') if m in sys.modules))\n"
    )
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert answer.stdout.strip().splitlines()[-1] == "[]"
    help_text = " ".join(answer.stdout.split())
    assert all(f"{name} {command.summary}" in help_text for name, command in COMMANDS.items())


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_declares_the_summary_the_top_level_help_shows(name: str) -> None:
    command = COMMANDS[name]
    commands = argparse.ArgumentParser().add_subparsers()
    getattr(importlib.import_module(command.module), command.add_parser)(commands)
    declared = {action.dest: action.help for action in commands._choices_actions}
    assert declared[name] == command.summary
