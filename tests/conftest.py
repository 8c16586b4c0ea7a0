"""Settings every test run needs, whoever runs pytest (make or by hand)."""

import os

from hypothesis import settings

from tests.support import botocore_data

os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")  # samtranslator and boto3 need a region
botocore_data.install()  # botocore's models parsed once per test process, not once per test

# Hypothesis profiles. `ci` is what CI and `make test` run (HYPOTHESIS_PROFILE=ci; the default under
# CI=true): every property test with the example count it asks for, Hypothesis' 100 where it asks for
# none, and the blob that replays a failure printed. `dev`, the default of a pytest run by hand, tries
# 20 examples where a test asks for no count of its own: a quick look, not the check. Neither has a
# deadline (Hypothesis' default fails an example slower than 200 ms): a test asserts no wall-clock time,
# and `make test` runs the unit and integration tests behind the end-to-end ones (tests/phases.py).
settings.register_profile("ci", print_blob=True, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev")
)
