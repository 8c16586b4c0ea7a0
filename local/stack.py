"""The local stack: moto, the template's resources, in-process handlers, the gateway, the pumps."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from local.patches import (
    async_invocations,
    botocore_data,
    check_moto_version,
    emf_lines,
    kept_signing_keys,
    lambda_runtime,
    moto_news,
    moto_queries,
    past_schedules,
    serializer_aliases,
    service_lookup,
    state_data_limit,
    stopped_executions,
    strict_requests,
    task_failures,
)
from local.patches.faults import NOT_KILLED, install_faults, spare
from local.patches.lambda_runtime import FunctionRegistry
from local.patches.moto_atomicity import serialize_dynamodb_operations
from local.patches.stream_dispatch import StreamDispatcher
from local.patches.transaction_tokens import honour_client_request_tokens
from local.standins.execution_events import execution_event_pump
from local.standins.gateway import Gateway, GatewayServer
from local.standins.held_ports import HeldPort
from local.standins.inbox import InboxLog, count_notices, create_inbox, inbox_pump
from local.standins.jwt_issuer import LocalIssuer, issuer_url
from local.standins.local_channels import LocalChannels
from local.standins.local_durable import LocalDurable
from local.standins.metrics_log import MetricsLog
from local.standins.moto_server import LOCAL_ACCOUNT_ID, LOCAL_REGION, LocalMotoServer, start_moto
from local.standins.oidc_flow import OidcFlow
from local.standins.pumps import Pump, stop_all
from local.standins.schedule_pump import schedule_pump
from local.standins.scheduled_functions import scheduled_function_pump
from local.standins.webhook_sources import configure_sources, described, secret_prefix
from local.state.kept_state import KeptState, start_line
from local.state.running_instance import PidFile
from local.state.state_capture import autosave_pump
from local.state.state_dir import StateDir
from local.state.state_restore import Restore, wait_until_reattached
from local.template.function_environment import apply_environment, shared_environment
from local.template.http_routes import routes_of
from local.template.resources import StackContext
from local.template.stack_description import describe_stack
from local.template.stack_resources import OVERRIDE_PRINCIPALS, create_template_resources

logger = logging.getLogger(__name__)
INTERRUPTS_TABLE = "InterruptsTable"  # template.yaml's logical id


@dataclass(frozen=True)
class StackSettings:
    api_port: int
    aws_port: int
    state_dir: StateDir
    fresh: bool = False  # forget the kept state and start empty

    @classmethod
    def from_environment(cls, fresh: bool = False) -> StackSettings:
        return cls(
            api_port=int(os.environ.get("WAITGATE_PORT") or 3000),
            aws_port=int(os.environ.get("WAITGATE_AWS_PORT") or 4566),
            state_dir=StateDir.from_environment(),
            fresh=fresh,
        )

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"


@dataclass
class LocalStack:
    """The running stack: it starts the stand-ins and hands each pump what it needs, never itself."""

    settings: StackSettings
    description: dict[str, Any] = field(default_factory=dict)
    context: StackContext | None = None
    _moto: LocalMotoServer | None = None
    _gateway: GatewayServer | None = None
    _pumps: list[Pump] = field(default_factory=list)
    _pid_file: PidFile | None = None
    _held: dict[str, HeldPort] = field(default_factory=dict)  # the two ports, until their servers take them
    _streams: StreamDispatcher | None = None
    _channels: LocalChannels | None = None  # SES on moto and the Slack stand-in (docs/channels.md)
    _webhooks: dict[str, Any] = field(default_factory=dict)  # the local webhook sources (docs/webhooks.md)
    durable: LocalDurable | None = None  # the durable endpoint and runner (docs/durable-functions.md)
    inbox_url: str = ""
    announce: Callable[[str], None] = logger.info  # says the state line, before any other line
    state_line: str = ""  # what state the stack found and what it does not keep
    resource_types: dict[str, str] = field(default_factory=dict)  # logical id → translated type

    def start(self) -> None:
        """Everything up, the kept state restored, local.json written; raises AlreadyRunningError,
        PortInUseError, KeptStateUnreadableError or MotoVersionError."""
        kept = self._claim_and_announce()
        self._install_patches()
        self._moto = start_moto(self._held["aws"])
        issuer = LocalIssuer.load_or_create(self.settings.state_dir, issuer_url(self.settings.api_url))
        registry = FunctionRegistry()
        lambda_runtime.install(registry)
        restore = Restore(kept)
        channels = self._channels = LocalChannels(self.settings.state_dir)
        durable = self.durable = LocalDurable(registry, LOCAL_REGION, LOCAL_ACCOUNT_ID)
        sam_template, context = self._create_resources(registry, issuer, restore, channels, durable)
        apply_environment(shared_environment(registry.all()))
        self.inbox_url = create_inbox(context, _topic_arns(context))
        wait_until_reattached(context, restore.after_resources(context))
        durable.end_forgotten_runs(context, kept.tables.get(INTERRUPTS_TABLE, []))
        if restore.problems:
            kept_aside = self.settings.state_dir.keep_aside()
            logger.warning("the kept state as it was before this start: %s", kept_aside)
        self._start_gateway(sam_template, issuer)
        self._pumps = self._make_pumps(context, channels, durable)
        for pump in self._pumps:
            pump.start()
        self._write_description(issuer)

    def _make_pumps(
        self, context: StackContext, channels: LocalChannels, durable: LocalDurable
    ) -> list[Pump]:
        """Every pump, each given what it reads (local.standins.pumps). The autosave comes last: when the
        stack stops, its final save follows the others' final ticks."""
        state_dir = self.settings.state_dir
        return [
            *channels.pumps(context),
            *durable.pumps(context),
            schedule_pump(context.clients),
            execution_event_pump(context),
            scheduled_function_pump(context),  # the reconciler, every WAITGATE_RECONCILE_SECONDS
            inbox_pump(context, self.inbox_url, InboxLog(state_dir)),
            autosave_pump(context, self.resource_types, state_dir.kept_state),
        ]

    def _claim_and_announce(self) -> KeptState:
        """This state directory and both ports are ours (held from now on: local.standins.held_ports);
        the kept state read, and the start line said."""
        state_dir = self.settings.state_dir
        self._pid_file = PidFile(state_dir)
        self._pid_file.claim(self.settings.api_url)
        self._held["aws"] = HeldPort(self.settings.aws_port, "WAITGATE_AWS_PORT")
        self._held["api"] = HeldPort(self.settings.api_port, "WAITGATE_PORT")
        if self.settings.fresh:
            state_dir.forget_kept_state()
        state_dir.local_json.unlink(missing_ok=True)  # the last run's, until this one writes its own
        kept = KeptState.load(state_dir.kept_state)
        self.state_line = start_line(state_dir.shown(), kept, self.settings.fresh, count_notices(state_dir))
        self.announce(self.state_line)
        return kept

    def _create_resources(
        self,
        registry: FunctionRegistry,
        issuer: LocalIssuer,
        restore: Restore,
        channels: LocalChannels,
        durable: LocalDurable,
    ) -> tuple[Any, StackContext]:
        """The template's resources on moto, with the channels', webhooks' and durable functions'
        stand-ins around them: the SAM template (as the gateway serves it) and the stack's context."""
        sam_template, translated, context = create_template_resources(
            self.settings.api_url,
            issuer.issuer,
            registry,
            restore.creators(),
            {**channels.template_parameters(), **durable.template_parameters()},
        )
        self.context = context
        channels.after_resources(context)
        self._webhooks = configure_sources(context, self.settings.state_dir)
        durable.after_resources(context)
        self.resource_types = {logical_id: r["Type"] for logical_id, r in translated["Resources"].items()}
        assert self._streams is not None
        self._streams.filters = context.stream_filters
        spare([str(context.physical_ids[name].ref) for name in NOT_KILLED if name in context.physical_ids])
        return sam_template, context

    def _install_patches(self) -> None:
        """What moto does differently from AWS, set right before the first AWS call (all idempotent,
        all through `local.patches.replace_attribute`); refused on a moto the patches were not written for."""
        check_moto_version()
        botocore_data.install()  # botocore's JSON parsed once a process, not once a session
        service_lookup.install()  # moto's server lists its own modules once, not for every request
        serializer_aliases.install()  # moto's responses list each attribute's names once, not per value
        strict_requests.install()  # every boto3 call of the process checked against its service model
        serialize_dynamodb_operations()
        moto_queries.install()  # a Query reads its partition (or its index), not the whole table sorted
        honour_client_request_tokens()  # a repeated TransactWriteItems token is applied once, as on AWS
        install_faults(self.settings.state_dir.root)  # WAITGATE_FAULTS or the faults file: before any client
        stopped_executions.install()  # StopExecution aborts a waiting execution, as on AWS
        moto_news.install()  # pumps hear at once of an execution's end, a schedule, an e-mail sent
        task_failures.install()  # SendTaskFailure keeps its cause, as on AWS
        state_data_limit.install()  # States.ALL does not catch States.DataLimitExceeded, as on AWS
        past_schedules.install()  # a one-time schedule in the past is refused, as on AWS
        async_invocations.install()  # Event invocations retried twice, then to OnFailure, as on AWS
        emf_lines.install(MetricsLog(self.settings.state_dir))  # EMF lines kept for dev-metrics
        kept_signing_keys.install(self.settings.state_dir.ledger_key)  # the ledger's key outlives a restart
        self._streams = StreamDispatcher()
        self._streams.install()

    def _start_gateway(self, sam_template: dict[str, Any], issuer: LocalIssuer) -> None:
        assert self.context is not None
        context = self.context
        function_names = {logical_id: str(c.ref) for logical_id, c in context.physical_ids.items()}
        routes = routes_of(sam_template, context.intrinsics)
        sign_in = OidcFlow(issuer, self.settings.api_url, _tenant(context))
        gateway = Gateway(routes, function_names, context.functions, issuer, sign_in)
        self._gateway = GatewayServer(gateway, self._held["api"])
        self._gateway.start()

    def _write_description(self, issuer: LocalIssuer) -> None:
        assert self.context is not None and self._moto is not None
        self.description = describe_stack(
            self.context,
            self.resource_types,
            self.settings.api_url,
            self._moto.endpoint_url,
            {"issuer": issuer.issuer, "audience": issuer.audience, "tenantClaim": _tenant(self.context)},
            OVERRIDE_PRINCIPALS,
        )
        self.description["inboxQueueUrl"] = self.inbox_url
        self.description["inboxUrl"] = self.settings.api_url + "/inbox"  # the signed-in page (docs/inbox.md)
        if self._channels is not None:
            self.description["slack"] = self._channels.description(self.settings.api_url)
        self.description["webhooks"] = described(self._webhooks, self.settings.api_url)
        self.description["webhookSecretPrefix"] = secret_prefix(self.context.stack_name)
        if self.durable is not None:
            self.description["durable"] = self.durable.description(self.context)
        self.settings.state_dir.write_local_json(self.description)

    def stop(self) -> None:
        """Gateway, pumps (the last save among them) and moto down, pid file removed; safe to call
        more than once. The gateway goes first, so no request lands after the last save."""
        if self._gateway is not None:
            self._gateway.stop()
            self._gateway = None
        stop_all(self._pumps)  # together: as long as the slowest, not their sum
        self._pumps = []
        if self._channels is not None:
            self._channels.stop()
            self._channels = None
        if self.durable is not None:
            self.durable.stop()
            self.durable = None
        if self._moto is not None:
            self._moto.stop()
            self._moto = None
        if self._streams is not None:
            self._streams.stop()
            self._streams = None
        for held in self._held.values():  # a start that failed before its servers took them
            held.release()
        self._held = {}
        if self._pid_file is not None:
            self._pid_file.release()
            self._pid_file = None


def _topic_arns(context: StackContext) -> list[str]:
    """The topics (not their subscriptions, whose ARNs look alike)."""
    return [str(c.ref) for c in context.physical_ids.values() if "TopicName" in c.attributes]


def _tenant(context: StackContext) -> str:
    return str(context.intrinsics.parameters.get("TenantClaim", "tenant"))
