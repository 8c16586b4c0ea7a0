"""The wiring: what builds the use cases' dependencies from adapters (the compositions), the one
settings model, the handlers' observation and the queue consumers' batch steps. Only the edges that
run in a Lambda (functions/) and the local stack (local/) import it (import-linter holds it)."""
