"""What `waitgate dev` shows of its functions' output: on a terminal one readable line per log record
and no EMF document, as JSON on a pipe; either way every JSON line kept whole in stack.log, and the
stack's own lines passed through."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path

import pytest

from local.cli.dev_console import ConsoleStream, default_format, readable

RECORD = {
    "level": "INFO",
    "location": "lambda_handler:27",
    "message": "interrupt requested",
    "timestamp": "2026-12-02 16:43:45,388+0000",
    "service": "waitgate",
    "cold_start": True,
    "function_name": "waitgate-local-RequestInterruptFunction",
    "function_arn": "arn:aws:lambda:us-east-1:123456789012:function:waitgate-local-RequestInterruptFunction",
    "function_request_id": "66563830",
    "runId": "clarify-1",
    "nodeId": "Interrupt",
    "status": "requested",
}
EMF = {"_aws": {"Timestamp": 1, "CloudWatchMetrics": []}, "InterruptsRequested": [1.0]}


def test_a_record_reads_as_time_level_function_message_and_its_own_keys() -> None:
    assert readable(RECORD) == (
        "16:43:45 INFO    RequestInterrupt       interrupt requested"
        "  runId=clarify-1 nodeId=Interrupt status=requested"
    )
    assert readable(EMF) is None


def test_an_exception_is_indented_below_its_line_and_a_long_value_is_cut() -> None:
    record = {**RECORD, "level": "ERROR", "exception": "Traceback\n  File x\nKeyError: 'a'", "big": "v" * 500}
    first, *rest = str(readable(record)).splitlines()
    assert first.startswith("16:43:45 ERROR") and first.endswith("v…") and len(first) < 300
    assert rest == ["    Traceback", "      File x", "    KeyError: 'a'"]


def stream(tmp_path: Path, log_format: str) -> tuple[ConsoleStream, io.StringIO, Path]:
    console, log = io.StringIO(), tmp_path / "stack.log"
    return ConsoleStream(console, log, log_format), console, log


def test_on_a_terminal_the_lines_are_readable_and_the_log_file_keeps_the_json(tmp_path: Path) -> None:
    out, console, log = stream(tmp_path, "text")
    print(json.dumps(RECORD), file=out)
    print(json.dumps(EMF), file=out)
    print("waitgate local stack ready: http://127.0.0.1:3000", file=out)
    assert console.getvalue().splitlines() == [
        readable(RECORD),
        "waitgate local stack ready: http://127.0.0.1:3000",
    ]
    assert [json.loads(line) for line in log.read_text().splitlines()] == [RECORD, EMF]


def test_as_json_the_lines_are_unchanged(tmp_path: Path) -> None:
    out, console, log = stream(tmp_path, "json")
    out.write(json.dumps(RECORD)[:10])  # a line written in pieces is one line
    out.write(json.dumps(RECORD)[10:] + "\n")
    assert console.getvalue() == json.dumps(RECORD) + "\n" == log.read_text()


def test_each_threads_partial_line_is_its_own(tmp_path: Path) -> None:
    out, console, _ = stream(tmp_path, "json")
    barrier = threading.Barrier(4)

    def say(number: int) -> None:
        barrier.wait()
        for _ in range(50):
            print(json.dumps({"n": number, "pad": "x" * 100}), file=out)  # text, then its newline

    threads = [threading.Thread(target=say, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = console.getvalue().splitlines()
    assert len(lines) == 200 and all(json.loads(line)["pad"] == "x" * 100 for line in lines)


def test_the_format_is_text_on_a_terminal_json_on_a_pipe_unless_the_environment_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("WAITGATE_LOG_FORMAT", raising=False)
    assert (default_format(Terminal()), default_format(io.StringIO())) == ("text", "json")
    monkeypatch.setenv("WAITGATE_LOG_FORMAT", "json")
    assert default_format(Terminal()) == "json"
