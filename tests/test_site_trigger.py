"""The bot's debounced site builds."""

from __future__ import annotations

import threading
import time

from site_builder.trigger import DebouncedBuild


def test_a_burst_of_requests_leads_to_one_build() -> None:
    done = threading.Event()
    calls = []

    def build() -> None:
        calls.append(time.monotonic())
        done.set()

    trigger = DebouncedBuild(build, delay=0.2)
    for _ in range(20):
        trigger.request("open")
    assert done.wait(5)
    time.sleep(0.4)
    assert len(calls) == 1


def test_a_request_during_a_build_leads_to_one_more_build_and_failures_are_contained() -> None:
    started = threading.Event()
    release = threading.Event()
    calls = []

    def build() -> None:
        calls.append(1)
        if len(calls) == 1:
            started.set()
            release.wait(5)
            raise RuntimeError("disk full")

    trigger = DebouncedBuild(build, delay=0.05)
    trigger.request()
    assert started.wait(5)
    trigger.request()
    trigger.request()
    release.set()
    deadline = time.monotonic() + 5
    while len(calls) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)
    assert len(calls) == 2
    assert trigger.builds == 1  # the failed build is logged, not counted, and did not stop the next
