"""Settings every test run needs, whoever runs pytest (make or by hand)."""

import os

os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")  # samtranslator and boto3 need a region
