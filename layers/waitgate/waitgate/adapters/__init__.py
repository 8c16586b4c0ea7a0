"""AWS adapters of the ports. The only place boto3 and botocore are imported."""
