"""The durable runner told apart from a runner that never answers: one that ends while starting (its
port taken since it was found free) raises DurableRunnerExitedError, on which the local stack starts
it again on another port (local.standins.local_durable)."""

from __future__ import annotations

import socket

import pytest

from local.standins.durable_runner import DurableRunner, DurableRunnerExitedError, free_port


def test_a_runner_whose_port_was_taken_meanwhile_says_it_ended() -> None:
    # Given a port found free, then taken by another socket before the runner binds it
    port = free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taker:
        taker.bind(("127.0.0.1", port))
        taker.listen()
        runner = DurableRunner(port, "http://127.0.0.1:9", "us-east-1")
        # When the runner starts on it, Then it ends at once, and says so as its own error
        with pytest.raises(DurableRunnerExitedError):
            runner.start()
    runner.stop()
    # And on a port free now it comes up
    runner.port = free_port()
    runner.start()
    runner.stop()
