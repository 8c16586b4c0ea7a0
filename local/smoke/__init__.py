"""`waitgate smoke`: the checks a deployed (or the local) stack must pass after a deploy."""
