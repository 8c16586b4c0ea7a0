"""What `waitgate dev-inbox --run-id` says of a run that no notice was sent for: whether it waits on an
interrupt that names nobody (then none will come: `waitgate.run.asked.names_nobody`), and how to open it
anyway: a link minted for you, or the signed-in inbox. It reads the run's node items from the
running stack's InterruptsTable (the embedded moto endpoint); the layer's adapter reads them."""

from __future__ import annotations

from typing import Any

from waitgate.adapters.dynamodb_items import interrupt_from_item
from waitgate.adapters.dynamodb_keys import run_pk
from waitgate.run.asked import names_nobody
from waitgate.run.records import DEFAULT_TENANT, InterruptRecord, RunRef


def waiting_unasked(description: dict[str, Any], run_id: str) -> list[InterruptRecord]:
    """The run's pending interrupts (of the tenant default) that name nobody."""
    import boto3  # only when there is something to explain: the command starts without it

    from local.patches import strict_requests

    strict_requests.install()  # its one call refused where AWS would refuse it, as every command's

    client = boto3.client(
        "dynamodb",
        endpoint_url=description["awsEndpointUrl"],
        region_name=description.get("region", "us-east-1"),
        aws_access_key_id="local",  # moto takes any credentials; these are not secrets
        aws_secret_access_key="local",  # noqa: S106
    )
    answer = client.query(
        TableName=description["tableNames"]["InterruptsTable"],
        KeyConditionExpression="pk = :pk AND begins_with(sk, :node)",
        ExpressionAttributeValues={
            ":pk": {"S": run_pk(RunRef(DEFAULT_TENANT, run_id))},
            ":node": {"S": "NODE#"},
        },
    )
    records = (interrupt_from_item(item) for item in answer.get("Items", []))
    return [r for r in records if r.status == "pending" and names_nobody(r.kind, r.data, r.notify)]


def why_none_came(description: dict[str, Any], run_id: str) -> str:
    """For each of the run's waiting interrupts that names nobody, what `how_to_open` says ("" if none)."""
    return "".join(how_to_open(record, description) + "\n" for record in waiting_unasked(description, run_id))


def how_to_open(record: InterruptRecord, description: dict[str, Any]) -> str:
    """Lines that say the interrupt names nobody, and the commands that open it."""
    run, node = record.run.run_id, record.node_id
    tokens = f"{description['apiUrl']}/runs/{run}/interrupts/{node}/tokens"
    return "\n".join(
        [
            f"run {run} waits at step {node} on an interrupt ({record.kind}) that names nobody:",
            "no notice will come.",
            "Open it with a link minted for you (here alice):",
            '  JWT=$(waitgate dev-jwt --sub alice --scope "interrupts:mint")',
            f'  curl -s -X POST "{tokens}" -H "Authorization: Bearer $JWT" \\',
            '    -H \'Content-Type: application/json\' -d \'{"intent": "resolve", "sub": "alice"}\'',
            f"or sign in to the inbox: {description.get('inboxUrl', description['apiUrl'] + '/inbox')}",
            'Next time, name who is asked in the Task input: notify (docs/workflows.md, "Who is asked").',
        ]
    )
