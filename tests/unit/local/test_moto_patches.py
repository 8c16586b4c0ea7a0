"""The local stack's patches of moto: one way to install them, and a clear refusal on another moto."""

from __future__ import annotations

import importlib.metadata

import pytest

from local.patches import MOTO_VERSION, MotoVersionError, check_moto_version, is_patched, replace_attribute


def test_the_pinned_moto_is_the_one_the_patches_were_written_for() -> None:
    # Given the environment requirements.lock built / Then the check passes
    assert importlib.metadata.version("moto") == MOTO_VERSION
    check_moto_version()


@pytest.mark.parametrize("other", ["5.2.6", "5.1.0", "6.0.0", "none"])
def test_another_moto_is_refused_in_one_clear_line(other: str) -> None:
    # Given a moto release the patches were not written for
    # When the stack checks it before patching / Then it refuses, naming both versions and the fix
    with pytest.raises(MotoVersionError) as refused:
        check_moto_version(other)
    message = str(refused.value)
    assert MOTO_VERSION in message and other in message and "make dev" in message
    assert "\n" not in message


def test_a_patch_is_installed_once_and_calls_the_original() -> None:
    # Given a class with a method, patched twice through the one install routine
    class Backend:
        def send(self, value: int) -> int:
            return value

    def doubling(original: object) -> object:
        def send(self: Backend, value: int) -> int:
            return 2 * original(self, value)  # type: ignore[operator]

        return send

    replace_attribute(Backend, "send", doubling)
    replace_attribute(Backend, "send", doubling)
    # Then it is patched once: the original runs under one wrapper, not two
    assert is_patched(Backend, "send")
    assert Backend().send(3) == 6


def test_a_stopped_execution_stays_aborted_whatever_its_worker_ends_with() -> None:
    # Given moto's parser with the stop patch, and executions whose worker ends in an error of its own
    from types import SimpleNamespace

    from moto.stepfunctions.parser.api import ExecutionStatus
    from moto.stepfunctions.parser.asl.eval.program_state import ProgramError
    from moto.stepfunctions.parser.backend.execution import BaseExecutionWorkerCommunication

    from local.patches import stopped_executions

    stopped_executions.install()
    error = ProgramError({"error": "States.Runtime", "cause": "'>' not supported"})  # type: ignore[arg-type]

    def ended(status: ExecutionStatus) -> SimpleNamespace:
        worker = SimpleNamespace(env=SimpleNamespace(program_state=lambda: error))
        execution = SimpleNamespace(exec_status=status, exec_worker=worker, stop_date="at the stop")
        BaseExecutionWorkerCommunication(execution)._reflect_execution_status()  # type: ignore[arg-type]
        return execution

    # When one was stopped first (ABORTED) / Then it stays ABORTED, stopped when it was stopped
    stopped = ended(ExecutionStatus.ABORTED)
    assert (stopped.exec_status, stopped.stop_date) == (ExecutionStatus.ABORTED, "at the stop")
    # And one still running fails as moto says
    running = ended(ExecutionStatus.RUNNING)
    assert (running.exec_status, running.error) == (ExecutionStatus.FAILED, "States.Runtime")


def test_moto_lists_its_modules_once_and_dispatches_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given moto's module list as its server read it for each request, and the patch installed
    import os

    from moto import backends
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

    from local.patches import service_lookup

    package = os.path.dirname(backends.__file__)
    listed_each_time = [
        name
        for name in sorted(os.listdir(package))
        if os.path.isdir(os.path.join(package, name)) and not name.startswith("__")
    ]
    service_lookup.install()
    service_lookup.install()
    # When the server dispatches requests, with moto's directory no longer listable
    monkeypatch.setattr(os, "listdir", lambda *_: pytest.fail("moto's package was listed again"))
    dispatcher = DomainDispatcherApplication(create_backend_app)
    # Then the list is the same, in the same order, and a host still finds its service
    assert is_patched(backends, "list_of_moto_modules")
    assert list(backends.list_of_moto_modules()) == listed_each_time
    assert dispatcher.get_backend_for_host("dynamodb") == "dynamodb"
    assert dispatcher.get_backend_for_host("states.us-east-1.amazonaws.com") == "stepfunctions"
