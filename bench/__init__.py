"""Benchmarks: each module's run() measures one thing and returns rows; `python -m bench` prints them."""
