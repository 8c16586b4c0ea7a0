"""Pure rules of the webhooks out (docs/webhooks-out.md): what a subscription may name (its URL, its
event types, its secret), and how one delivery is planned — its stable webhook-id, its body, its
retries with backoff, when it is parked."""
