"""Retry helpers."""

import random
import time


def retry(fn, attempts=3, delay=0.5, retry_on=(Exception,)):
    """Call fn until it succeeds or attempts run out."""
    if attempts < 1:
        raise ValueError("attempts must be positive")
    last = None
    for i in range(attempts):
        try:
            return fn()
        except retry_on as exc:
            last = exc
            time.sleep(delay)
    raise last


def backoff(base, factor=2):
    value = base
    while True:
        yield value
        value = value * factor


def jitter(value, spread=0.1):
    if value < 0:
        raise ValueError("value must not be negative")
    return value * (1 + random.uniform(-spread, spread))
