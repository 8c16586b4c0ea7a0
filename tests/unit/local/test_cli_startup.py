"""`waitgate` imports only the command it runs: `--help` and `--version` import no command module (no
boto3, no moto), a command that calls no AWS imports no boto3 or botocore, and each command's line in
`waitgate --help` is the one its own parser declares."""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from local.cli.main import COMMANDS


def test_top_level_help_imports_no_command_module() -> None:
    probe = (
        f"ARGUMENTS = {ACTION_ARGUMENTS!r}\n"
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


# What a command needs to run at all (its required options, or its action)
ACTION_ARGUMENTS = {"dev-jwt": ["--sub", "alice"], "subscriptions": ["list"]}


@pytest.mark.parametrize("name", sorted(name for name, command in COMMANDS.items() if not command.calls_aws))
def test_a_command_that_calls_no_aws_imports_neither_boto3_nor_botocore(name: str, tmp_path: Path) -> None:
    # Given no running stack (the command still imports all it runs with, then says so in one line)
    probe = (
        f"ARGUMENTS = {ACTION_ARGUMENTS!r}\n"
        "import sys\n"
        "from local.cli.main import main\n"
        f"code = main([{name!r}] + ARGUMENTS.get({name!r}, []))\n"
        "heavy = ('boto3', 'botocore', 'moto', 'importlib.metadata')\n"
        "print(code, sorted(m for m in heavy if m in sys.modules))\n"
    )
    environment = {**os.environ, "WAITGATE_STATE_DIR": str(tmp_path)}
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=environment)
    assert answer.stdout.strip().splitlines()[-1] == "1 []", answer.stderr
    assert "no local stack is running" in answer.stderr


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_commands_own_help_imports_only_its_parser(name: str) -> None:
    # `waitgate COMMAND --help` builds the command's parser: no AWS SDK, no adapter, no signer
    probe = (
        "import sys\n"
        "from local.cli.main import main\n"
        "try:\n"
        f"    main([{name!r}, '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('boto3', 'botocore', 'moto', 'jwt', 'cryptography', 'pydantic', 'local.stack')\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "rooms = ('waitgate.adapters', 'waitgate.service')\n"
        "loaded += sorted(m for m in sys.modules if m.startswith(rooms))\n"
        "print(loaded)\n"
    )
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert answer.stdout.strip().splitlines()[-1] == "[]", answer.stdout
