"""Pure rules of the decision ledger (docs/ledger.md): a per-tenant hash chain of the decisions' facts
(`chain`), what each fact says as an entry (`entries`), and checking an exported chain (`verification`)."""
