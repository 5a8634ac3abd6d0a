"""Guarded tools under load over MCP: two server processes sharing the gate's records in
Redis, three client processes, a few thousand ``tools/call`` requests with request ids that
collide across tenants, repeats, and retries after time-outs.

Prints the calls per second, the effects, replays, time-outs and Redis round trips per call,
then every broken promise (at most one effect per tenant and request id, no call lost, no
tenant shown another's result); exits with status 1 when there is one. The run itself is
``_mcp_load.py``, which the integration test ``integration_tests/test_mcp_load.py`` runs
smaller. Needs ``redis-server`` on PATH and redis-py; everything listens on 127.0.0.1 only,
and every process started is stopped at the end.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
from pathlib import Path

from _mcp_load import Load, describe, run_load


def main() -> None:
    # Stopped with SIGTERM (a `timeout` command, a CI runner), it still stops what it started.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=700, help="calls per client (default 700)")
    parser.add_argument("--concurrency", type=int, default=8, help="calls at once per client")
    parser.add_argument("--keep", type=Path, help="a folder to keep the logs and results in")
    options = parser.parse_args()
    load = Load(calls=options.calls, concurrency=options.concurrency)
    with tempfile.TemporaryDirectory() as temporary:
        folder = options.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        report = run_load(load, folder)
    for line in describe(report):
        print(line)
    if report.problems:
        print(f"\n{len(report.problems)} kind(s) of broken promise:")
        for problem in report.problems:
            print("-", problem)
        raise SystemExit(1)
    print("\nevery promise kept")


if __name__ == "__main__":
    main()
