"""The `waitgate` command: `dev` (the local stack), `dev-inbox`, `dev-jwt`, `directory`, `--version`."""
