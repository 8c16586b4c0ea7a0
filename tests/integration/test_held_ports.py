"""The local stack's ports held from its claim until its servers take them (local.standins.held_ports):
nothing else can land on a port between the check and the serving, the refusal names the setting to
change, and a server made on a held socket serves on it once the holder lets go."""

from __future__ import annotations

import socket
import threading
import urllib.request

import pytest
from werkzeug.serving import make_server
from werkzeug.wrappers import Response

from local.stack_process import free_port
from local.standins.held_ports import HeldPort, PortInUseError


def test_a_held_port_cannot_be_taken_and_the_refusal_names_its_variable() -> None:
    # Given a port the stack holds
    held = HeldPort(free_port(), "WAITGATE_PORT")
    try:
        # When another program binds it, Then it cannot
        with socket.socket() as other, pytest.raises(OSError):
            other.bind(("127.0.0.1", held.port))
        # And a second holder (another stack on the same port) is told which setting to change
        with pytest.raises(PortInUseError, match=f"port {held.port} is in use .* set WAITGATE_AWS_PORT"):
            HeldPort(held.port, "WAITGATE_AWS_PORT")
    finally:
        held.release()


def test_a_server_made_on_the_held_socket_serves_after_the_holder_lets_go() -> None:
    # Given a held port, and a server made on its socket, the holder's own descriptor then released
    held = HeldPort(free_port(), "WAITGATE_PORT")
    server = make_server("127.0.0.1", held.port, Response("served"), fd=held.fileno())
    held.release()
    held.release()  # idempotent: a stack's stop releases what a failed start left
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        # When a client calls the port, Then the server answers on it
        with urllib.request.urlopen(f"http://127.0.0.1:{held.port}/", timeout=30) as answer:
            assert answer.read() == b"served"
    finally:
        server.shutdown()
        serving.join(timeout=30)
    # And once the server is down the port is free again
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", held.port))
