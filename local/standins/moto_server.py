"""moto's server, in this process, reachable by every boto3 client of the process."""

from __future__ import annotations

import json
import os
import urllib.request
from threading import Thread

from moto.moto_server.threaded_moto_server import ThreadedMotoServer
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import make_server

from local.patches.in_process_calls import serve_in_process, stop_serving
from local.standins.held_ports import HeldPort

LOCAL_REGION = "us-east-1"
LOCAL_ACCOUNT_ID = "123456789012"
MOTO_CONFIG = {"stepfunctions": {"execute_state_machine": True}}


class LocalMotoServer(ThreadedMotoServer):
    """ThreadedMotoServer served on the stack's held socket (local.standins.held_ports), made in the
    caller's thread (the stock `start` binds in a thread of its own, and waits forever if it dies)."""

    def __init__(self, held: HeldPort) -> None:
        super().__init__(ip_address="127.0.0.1", port=held.port, verbose=False)
        self._held = held

    def start(self) -> None:
        """Served on the held socket for other processes, and to this process's own calls in-process
        (local.patches.in_process_calls)."""
        app = DomainDispatcherApplication(create_backend_app)
        self._server = make_server(
            self._ip_address,
            self._port,
            app,
            True,
            request_handler=MotoRequestHandler,
            fd=self._held.fileno(),
        )
        self._held.release()
        self._server_ready_event.set()
        self._thread = Thread(target=self._server.serve_forever, name="moto", daemon=True)
        self._thread.start()
        serve_in_process(self.endpoint_url, app)

    def stop(self) -> None:
        stop_serving(self.endpoint_url)
        super().stop()

    @property
    def endpoint_url(self) -> str:
        host, port = self.get_host_and_port()
        return f"http://{host}:{port}"


def point_process_at(port: int) -> None:
    """Every boto3 client of this process (handlers included) talks to the moto server."""
    os.environ.update(
        {
            "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
            "AWS_DEFAULT_REGION": LOCAL_REGION,
            "AWS_REGION": LOCAL_REGION,
            "AWS_ACCESS_KEY_ID": "local",
            "AWS_SECRET_ACCESS_KEY": "local",
            "MOTO_PORT": str(port),
        }
    )
    os.environ.pop("AWS_SESSION_TOKEN", None)
    os.environ.pop("AWS_PROFILE", None)


def start_moto(held: HeldPort) -> LocalMotoServer:
    """moto on the held 127.0.0.1 port with Step Functions really executing state machines."""
    point_process_at(held.port)
    server = LocalMotoServer(held)
    server.start()
    request = urllib.request.Request(  # noqa: S310 - our own local server
        f"{server.endpoint_url}/moto-api/config",
        data=json.dumps(MOTO_CONFIG).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        response.read()
    return server
