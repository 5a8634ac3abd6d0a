"""Guarded tools under load over MCP: two server processes share the gate's records in a real
Redis, three client processes call them, and every promise of the gate holds: each
(tenant, request id) has at most one effect, no call is lost, no tenant sees another's
result.

The run is ``benchmarks/_mcp_load.py``, the same one ``benchmarks/mcp_load_bench.py``
measures with a few thousand calls; here a few hundred. Its ``redis-server`` must be
installed: without it the test fails (it is not skipped).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from _mcp_load import CLIENTS, Load, describe, plan, run_load  # noqa: E402

CALLS = 60
"""Calls per client: with the repeats and the retries, about 300 requests in all."""


def test_three_clients_through_two_servers_get_each_effect_once_and_only_their_own(
    tmp_path: Path,
) -> None:
    report = run_load(Load(calls=CALLS, concurrency=8, bound=120.0), tmp_path)
    figures = "\n".join(describe(report))
    assert report.problems == [], "\n".join([figures, "", *report.problems])
    # The run did what it is for: calls timed out and were sent again, results were replayed,
    # and every call ended with one effect in each tenant.
    assert report.refusals["timeout"] > 0, figures
    assert report.retries > 0 and report.replays > 0, figures
    assert report.repeats == sum(call.repeats for call in plan(CALLS)) * len(CLIENTS), figures
    assert report.outcomes == {"ok": CALLS * len(CLIENTS)}, figures
    assert report.effects == CALLS * len(set(CLIENTS)), figures
