"""`waitgate webhooks add-source|list-sources|events`: manage webhook sources and read the events they
delivered (docs/webhooks.md).

Without `--table` it talks to the running local stack (the moto endpoint and the tables named in
`.waitgate/local.json`); a source added there is kept in the state directory with its secrets. With
`--table` (the DirectoryTable) and `--secret-prefix` (`<stack>/webhooks/`) it talks to real AWS with the
usual credential chain; `events` then needs `--events-table` (the InterruptsTable) too.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from local.cli.command_actions import action_parsers
from local.state.running_instance import running_stack_description
from local.state.state_dir import StateDir
from waitgate.webhooks.sources import SCHEMES  # a pure module: the parser's --scheme choices

if TYPE_CHECKING:  # the stores (boto3) load when an action runs, not for `--help`
    from waitgate.adapters.dynamodb_external_events import DynamoDbExternalEvents
    from waitgate.adapters.webhook_sources import WebhookSourceStore

LOCAL_STACK_NAME = "waitgate-local"
DESCRIPTION = """\
Webhook sources: where a provider's signed events come from (POST /webhooks/<name>), how they are
signed, and where their type and correlation data are. Events are matched to external-event waits of
the source's tenant; those that match nothing are kept for the source's TTL (docs/webhooks.md).
Without --table it changes the running local stack; with --table, a deployed stack."""
ACTIONS = {
    "add-source": (
        "create or replace a source and its secrets (give --secret twice during a rotation)",
        "waitgate webhooks add-source --name stripe --scheme stripe --secret whsec_... "
        "--type-path type --data-path data.object.metadata --resume-path data.object",
    ),
    "list-sources": ("list the sources (never their secrets)", "waitgate webhooks list-sources"),
    "events": (
        "list a source's kept events, newest first",
        "waitgate webhooks events --source stripe --status unmatched",
    ),
}


class SourceRefusedError(Exception):
    """A source that is not one: said in one line."""


def add_webhooks_parser(commands: Any) -> None:
    for action, parser in action_parsers(
        commands,
        "webhooks",
        "manage webhook sources and read their events (the local stack's, or a deployed one's)",
        DESCRIPTION,
        ACTIONS,
        example="events",
    ):
        if action == "add-source":
            _add_source_arguments(parser)
        if action == "events":
            parser.add_argument("--source", required=True, help="the source's name")
            parser.add_argument(
                "--status", choices=("unmatched", "matched"), help="only events of this status"
            )
            parser.add_argument("--json", action="store_true", help="print the events as JSON lines")
            parser.add_argument("--events-table", help="with --table: the InterruptsTable")
        parser.add_argument("--table", help="a deployed DirectoryTable (real AWS); default: the local stack")
        parser.add_argument("--secret-prefix", help="with --table: the stack's '<stack>/webhooks/'")
        parser.add_argument("--region", help="with --table: the region (default: AWS_REGION)")


def _add_source_arguments(parser: Any) -> None:
    parser.add_argument("--name", required=True, help="the source's name, in its URL /webhooks/<name>")
    parser.add_argument("--scheme", required=True, choices=SCHEMES, help="how the provider signs")
    parser.add_argument(
        "--secret", action="append", required=True, help="a signing secret (repeat to rotate)"
    )
    parser.add_argument(
        "--tenant", default="default", help="the tenant its events are for (default: %(default)s)"
    )
    parser.add_argument("--type-path", default="type", help="the event type: a dotted path, or header:<name>")
    parser.add_argument(
        "--data-path", default="", help="the correlation data: a dotted path (default: the body)"
    )
    parser.add_argument("--resume-path", default="", help="what a wait resumes with (default: the body)")
    parser.add_argument("--id-path", default="", help="the delivery id (default: the scheme's own)")
    parser.add_argument("--signature-header", default="X-Signature", help="hmac-sha256: the header")
    parser.add_argument(
        "--tolerance-seconds", type=int, default=300, help="timestamp tolerance (default 300)"
    )
    parser.add_argument(
        "--ttl-seconds", type=int, default=86400, help="how long events are kept (default 24 h)"
    )
    parser.add_argument("--match-many", action="store_true", help="one event may resolve every matching wait")


def run_webhooks(arguments: argparse.Namespace) -> int:
    sources, events = _stores(arguments)
    if arguments.webhooks_action == "add-source":
        return _add_source(arguments, sources)
    if arguments.webhooks_action == "list-sources":
        for source in sources.sources():
            print(
                f"{source.name:<20} {source.scheme:<18} tenant={source.tenant_id} type={source.type_path} "
                f"data={source.data_path or '(body)'} ttl={source.ttl_seconds}s"
                + (" match-many" if source.match_many else "")
            )
        return 0
    now = int(datetime.now(UTC).timestamp())
    for event in events.listed(arguments.source, 1000):
        if event.expires_at_epoch <= now or (arguments.status and event.status != arguments.status):
            continue
        if arguments.json:
            print(json.dumps(event.to_json(), separators=(",", ":")))
        else:
            print(f"{event.received_at}  {event.status:<9}  {event.event_type:<28} {json.dumps(event.data)}")
    return 0


def _add_source(arguments: argparse.Namespace, sources: WebhookSourceStore) -> int:
    from local.standins.webhook_sources import LocalWebhookSources
    from waitgate.errors import ValidationFailedError
    from waitgate.webhooks.signatures import is_standard_webhooks_secret
    from waitgate.webhooks.sources import parse_source

    try:
        source = parse_source(
            {
                "name": arguments.name,
                "tenantId": arguments.tenant,
                "scheme": arguments.scheme,
                "typePath": arguments.type_path,
                "dataPath": arguments.data_path,
                "resumePath": arguments.resume_path,
                "idPath": arguments.id_path,
                "signatureHeader": arguments.signature_header,
                "toleranceSeconds": arguments.tolerance_seconds,
                "ttlSeconds": arguments.ttl_seconds,
                "matchMany": arguments.match_many,
            }
        )
    except ValidationFailedError as error:
        raise SourceRefusedError(f"{error.detail}") from error
    secrets = tuple(arguments.secret)
    if source.scheme == "standard-webhooks" and not all(map(is_standard_webhooks_secret, secrets)):
        raise SourceRefusedError("a Standard Webhooks secret is whsec_ followed by base64")
    sources.put(source, secrets)
    if not arguments.table:
        LocalWebhookSources(StateDir.from_environment()).remember(source, secrets)
    return 0


def _stores(arguments: argparse.Namespace) -> tuple[WebhookSourceStore, DynamoDbExternalEvents]:
    import boto3

    from local.standins.webhook_sources import secret_prefix
    from waitgate.adapters.dynamodb_external_events import DynamoDbExternalEvents
    from waitgate.adapters.webhook_sources import WebhookSourceStore

    if arguments.table:
        if not arguments.secret_prefix:
            raise SourceRefusedError("with --table, say --secret-prefix too (<stack>/webhooks/)")
        dynamodb = boto3.client("dynamodb", region_name=arguments.region)
        secrets = boto3.client("secretsmanager", region_name=arguments.region)
        events_table = getattr(arguments, "events_table", None) or ""
        if arguments.webhooks_action == "events" and not events_table:
            raise SourceRefusedError("with --table, events needs --events-table (the InterruptsTable)")
        sources = WebhookSourceStore(
            lambda: dynamodb, lambda: secrets, arguments.table, arguments.secret_prefix
        )
        return sources, DynamoDbExternalEvents(dynamodb, events_table)
    described = running_stack_description(StateDir.from_environment())
    local = {
        "endpoint_url": described["awsEndpointUrl"],
        "region_name": described.get("region", "us-east-1"),
        "aws_access_key_id": "local",  # moto takes any credentials; these are not secrets
        "aws_secret_access_key": "local",
    }
    dynamodb, secrets = boto3.client("dynamodb", **local), boto3.client("secretsmanager", **local)
    tables = described["tableNames"]
    sources = WebhookSourceStore(
        lambda: dynamodb, lambda: secrets, tables["DirectoryTable"], secret_prefix(LOCAL_STACK_NAME)
    )
    return sources, DynamoDbExternalEvents(dynamodb, tables["InterruptsTable"])
