"""/healthz's broker check during a broker outage (issue 36): what each of N requests waits for the broker's
state, before (every request asked the broker itself) and now (the state is kept STATE_SECONDS and asked again in
the background). The broker here is a socket that accepts connections and never answers (a hung Redis), and one
that refuses them (a stopped Redis). No database is needed: only the broker part of the answer is timed.

    .venv/bin/python bench/healthz_outage.py [--requests 8]
"""

import argparse
import os
import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shitenno_site.settings")


def _timed(ask, url: str, n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        ask(url)
        times.append(time.perf_counter() - start)
    return times


def _line(name: str, times: list[float]) -> str:
    return (
        f"{name:<44} first {times[0] * 1000:8.1f} ms  median {statistics.median(times) * 1000:8.1f} ms  "
        f"max {max(times) * 1000:8.1f} ms  total {sum(times):6.2f} s"
    )


def main() -> None:
    import django

    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=8)
    n = parser.parse_args().requests
    django.setup()
    from shitenno_site import health

    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(128)  # accepted by the kernel, never answered
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    refused_port = closed.getsockname()[1]
    closed.close()
    for kind, url in [
        ("hung broker", f"redis://127.0.0.1:{hung.getsockname()[1]}/0"),
        ("stopped broker", f"redis://127.0.0.1:{refused_port}/0"),
    ]:
        print(f"{kind}, {n} requests one after the other:")
        print("  " + _line("baseline: each request asks the broker", _timed(health._broker_check, url, n)))
        kept = health.RecentCheck(health._broker_check)
        print("  " + _line("now: the state kept, asked in the background", _timed(kept, url, n)))
    hung.close()


if __name__ == "__main__":
    main()
