"""States.DataLimitExceeded as Step Functions has it: 256 KiB of UTF-8, and a terminal error.

moto 5.2.5's interpreter (its copy of LocalStack's) measures a state's data after ResultPath and
OutputPath, and a task's result, against 256 KiB (`moto.stepfunctions.parser.quotas`), and fails the
state with `States.DataLimitExceeded`. Two things differ from AWS, and both are set right here:
- it measures the JSON as ASCII-escaped text with spaces after `,` and `:`, so a 130 KB answer in
  Russian counted as 390 KB and failed, where Step Functions counts the data as a UTF-8 string;
  here the measure is the compact UTF-8 JSON, and the limit 262,144 bytes itself still passes;
- its `States.ALL` matches every error, so a Catch on `States.ALL` (every sample Task state has one)
  swallowed the failure and the execution went on. On AWS "States.ALL ... can't catch the
  States.DataLimitExceeded terminal error type and runtime error types": the execution fails. Here
  `ErrorEquals: ["States.ALL"]` matches neither; naming the error itself still matches it.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from local.patches import replace_attribute

UNCATCHABLE_BY_ALL = ("StatesStatesDataLimitExceeded", "StatesRuntime")
MAX_STATE_BYTES = 256 * 1024
_MEASURING_MODULES = (
    "moto.stepfunctions.parser.quotas",
    "moto.stepfunctions.parser.asl.component.state.state",
    "moto.stepfunctions.parser.asl.component.state.exec.state_task.state_task_lambda",
    "moto.stepfunctions.parser.asl.component.state.exec.state_task.service.state_task_service",
)


def state_bytes(value: Any) -> int:
    """The data as Step Functions counts it: its JSON text (compact) as UTF-8."""
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    )
    return len(text.encode("utf-8", errors="surrogatepass"))


def is_within_size_quota(value: Any) -> bool:
    return state_bytes(value) <= MAX_STATE_BYTES


def install() -> None:
    """Patch moto's (private) ErrorEqualsDecl._eval_body; idempotent. Pin moto."""
    from moto.stepfunctions.parser.asl.component.common.error_name.error_equals_decl import ErrorEqualsDecl
    from moto.stepfunctions.parser.asl.component.common.error_name.states_error_name import StatesErrorName
    from moto.stepfunctions.parser.asl.component.common.error_name.states_error_name_type import (
        StatesErrorNameType,
    )

    terminal = [StatesErrorName(typ=getattr(StatesErrorNameType, name)) for name in UNCATCHABLE_BY_ALL]
    catch_all = StatesErrorName(typ=StatesErrorNameType.StatesALL)

    def not_catching_terminal(original: Any) -> Any:
        def eval_body(self: Any, env: Any) -> None:
            error_name = env.stack[-1] if env.stack else None
            if catch_all in self.error_names and error_name in terminal:
                env.stack.pop()
                env.stack.append(False)  # only a retrier or catcher naming the error itself takes it
                return
            original(self, env)

        return eval_body

    replace_attribute(ErrorEqualsDecl, "_eval_body", not_catching_terminal)
    for name in _MEASURING_MODULES:  # each imported the function by name
        replace_attribute(
            importlib.import_module(name), "is_within_size_quota", lambda _moto: is_within_size_quota
        )
