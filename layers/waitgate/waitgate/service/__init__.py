"""Use cases on ports: request, resolve, inspect, mint. No boto3, no Powertools here."""
