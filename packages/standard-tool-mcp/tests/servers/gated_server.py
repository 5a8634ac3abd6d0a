"""A guarded refund tool served over stdio: an unknown customer is refused (``not_found``),
a refund above 100 waits for a person's review (``held_for_review``), any other runs; and a
guarded counter, whose answer says how many times it has run."""

from __future__ import annotations

from typing import Any

from standard_tool import tool
from standard_tool.boundary import CallRequest, Decision, Gate
from standard_tool_mcp import serve


@tool
def refund(customer: str, amount: int = 10) -> dict[str, Any]:
    """Refund a customer.

    Args:
        customer: Who is refunded.
        amount: How much.
    """
    return {"refunded": customer, "amount": amount}


runs: list[int] = []


@tool
def count() -> int:
    """Count the runs of this tool."""
    runs.append(1)
    return len(runs)


def policy(request: CallRequest) -> Decision | bool:
    if request.arguments.get("customer") == "mallory":
        return Decision.deny("not_found", "Unknown customer.")
    return True


gate = Gate(policy=policy, approvals=lambda request: request.arguments.get("amount", 10) > 100)

if __name__ == "__main__":
    serve(gate.guard([refund, count]))
