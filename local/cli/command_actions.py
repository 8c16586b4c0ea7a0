"""A command made of actions (`waitgate directory add-member`, `waitgate webhooks events`): each action
with its one-line text and an example, both shown by `--help`."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from typing import Any


def action_parsers(
    commands: Any,
    name: str,
    help_text: str,
    description: str,
    actions: Mapping[str, tuple[str, str]],
    example: str,
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Add `name` to the CLI's subparsers and yield each action's parser, to give it its arguments.

    The command's own example is its `example` action's; the chosen action is in `<name>_action`."""
    command = commands.add_parser(
        name,
        help=help_text,
        description=description,
        epilog="example:\n  " + actions[example][1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = command.add_subparsers(dest=f"{name}_action", required=True, metavar="ACTION")
    for action, (text, example) in actions.items():
        yield (
            action,
            subparsers.add_parser(
                action,
                help=text,
                description=text[0].upper() + text[1:] + ".",
                epilog=f"example:\n  {example}",
                formatter_class=argparse.RawDescriptionHelpFormatter,
            ),
        )
