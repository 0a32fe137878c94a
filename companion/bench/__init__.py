"""Benchmarks for `crib bench`: every module here defining `run(quick: bool) -> dict` is found and run.

Timings are medians of repeated runs on this machine (time.perf_counter); each module says what it measures.
"""
