"""`waitgate dev-inbox`: the notifications the running local stack sent, with their links.

It reads the stack's inbox log (`inbox.jsonl` in the state directory): every notice since the state
was last emptied, oldest first, across restarts. Listing changes nothing, so it can be repeated.
The links are personal resolve links: this command is for the machine's own developer.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from local.standins.inbox import InboxLog, Notice
from local.state.running_instance import running_stack_description
from local.state.state_dir import StateDir

DESCRIPTION = """\
List the notifications the running local stack sent, on every channel, oldest first, with each
one's personal link: what the SNS topic carried (channel sns: notices to approvers and to the agent
side), the e-mails SES sent (email) and the Slack messages as they are now (slack). Every notice is
kept in the state directory's inbox.jsonl, across restarts, until `waitgate dev --fresh`."""
EXAMPLE = """\
example:
  waitgate dev-inbox --recipient alice --run-id release-42 --link
  waitgate dev-inbox --channel slack --json"""


class NoNoticeError(Exception):
    """A lookup (--json or --link) that found nothing: said on stderr, exit 1."""


def add_inbox_parser(commands: Any) -> None:
    inbox = commands.add_parser(
        "dev-inbox",
        help="list the notifications the local stack sent, with their links",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    inbox.add_argument("--recipient", help="only those for this principal (default: everyone's)")
    inbox.add_argument("--run-id", help="only those of this run (default: every run's)")
    inbox.add_argument("--kind", help="only those of this interrupt kind, e.g. approval (default: any)")
    inbox.add_argument(
        "--channel", choices=("sns", "email", "slack"), help="only those sent on this channel (default: all)"
    )
    shown = inbox.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="one JSON object per notice and line")
    shown.add_argument(
        "--link",
        action="store_true",
        help="only the links, one per line: each once (a notice's e-mail and Slack copies carry its link)",
    )


def run_inbox(arguments: argparse.Namespace) -> int:
    """Print the matching notices; a --json or --link lookup that matches none raises NoNoticeError."""
    state_dir = StateDir.from_environment()
    description = running_stack_description(state_dir)
    notices = [notice for notice in InboxLog(state_dir).notices() if _matches(notice, arguments)]
    if notices:
        for line in links_of(notices) if arguments.link else (_shown(n, arguments) for n in notices):
            print(line)
        return 0
    if arguments.json or arguments.link:  # a program's lookup: no more than that
        raise NoNoticeError(f"no notification {_filters(arguments)}yet")
    print(f"(no notifications {_filters(arguments)}yet)")
    if arguments.run_id is not None:  # a person asked for a run's notices: say why none came
        from local.cli.unasked import why_none_came  # only then: it reads the table (boto3)

        print(why_none_came(description, arguments.run_id), end="")
    return 0


def links_of(notices: list[Notice]) -> list[str]:
    """Each notice's link once: the e-mail and the Slack message of a notice carry the link of its
    topic notice, so a person reached on several channels still gets one line per notice."""
    return list(dict.fromkeys(str(notice["link"]) for notice in notices))


def _matches(notice: Notice, arguments: argparse.Namespace) -> bool:
    wanted = {
        "recipient": arguments.recipient,
        "runId": arguments.run_id,
        "kind": arguments.kind,
        "channel": arguments.channel,
    }
    return all(value is None or notice.get(field) == value for field, value in wanted.items())


def _filters(arguments: argparse.Namespace) -> str:
    labelled = (
        ("for", arguments.recipient),
        ("of run", arguments.run_id),
        ("of kind", arguments.kind),
        ("by", arguments.channel),
    )
    named = [f"{label} {value}" for label, value in labelled if value is not None]
    return " ".join(named) + " " if named else ""


def _shown(notice: Notice, arguments: argparse.Namespace) -> str:
    if arguments.json:
        return json.dumps({key: value for key, value in notice.items() if key != "messageId"})
    if arguments.link:
        return str(notice["link"])
    who = notice["recipient"] or "(agent side)"
    line = f"{who:<16} {notice['kind']:<16} {notice['runId']:<24} {notice['subject']}"
    if notice.get("channel", "sns") != "sns":
        line += f" ({notice['channel']})"
    return f"{line}\n    {notice['link']}"
