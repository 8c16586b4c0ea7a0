"""The stack's two listening sockets, bound and listening from the moment it claims its ports until
its servers take them over.

Checking that a port is free and binding it seconds later (after the template's resources are made)
left a window in which any other socket could land on it — an outgoing connection's ephemeral port,
the durable runner's, another stack's — and the gateway's bind then failed with the stack half up.
Held from the claim, the port is ours: a server is made on the held socket (werkzeug's `fd`)."""

from __future__ import annotations

import errno
import socket

LISTEN_BACKLOG = 128


class PortInUseError(Exception):
    """A port the stack needs is taken by some other program."""


class HeldPort:
    """127.0.0.1:`port` bound and listening now; `variable` names the setting that chose it."""

    def __init__(self, port: int, variable: str) -> None:
        held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as werkzeug binds: TIME_WAIT is no owner
        try:
            held.bind(("127.0.0.1", port))
            held.listen(LISTEN_BACKLOG)
        except OSError as error:
            held.close()
            if error.errno != errno.EADDRINUSE:
                raise
            refusal = f"port {port} is in use by another program: set {variable} to a free port"
            raise PortInUseError(refusal) from error
        self._socket: socket.socket | None = held
        self.port = port

    def fileno(self) -> int:
        """The descriptor a server is made on (it keeps a duplicate: `release` this one after)."""
        assert self._socket is not None, "the port was released"
        return self._socket.fileno()

    def release(self) -> None:
        """This holder's descriptor closed (a server made on it keeps listening on its own); idempotent."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None
