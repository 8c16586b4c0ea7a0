"""Settings every test run needs, whoever runs pytest (make or by hand)."""

import os

from local.patches import botocore_data
from tests.support import hypothesis_profiles
from tests.support.untraced import pytest_configure, pytest_runtest_call  # the UNTRACED mark's pause

__all__ = ["pytest_configure", "pytest_runtest_call"]  # pytest's hooks, from tests/support/untraced.py

os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")  # samtranslator and boto3 need a region
botocore_data.install()  # botocore's models parsed once per test process, not once per test
hypothesis_profiles.load()  # ci (CI=true): every property test's full example count; dev: a fifth


def pytest_report_header() -> str:
    return hypothesis_profiles.described()
