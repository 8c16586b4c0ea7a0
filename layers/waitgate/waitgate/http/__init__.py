"""What every HTTP handler shares: problem+json, auth claims, bodies, the resolver."""
