"""A guarded sample tool for the adapters' boundary tests: one refund tool behind a gate with a
policy, an approval rule and a budget, that keeps who it ran for and what context it saw."""

from __future__ import annotations

from typing import Any

from ..boundary import Budget, Decision, Gate, GuardedTool
from ..tools._tool import tool

__all__ = ["LONG_NOTE", "GuardedShop"]

LONG_NOTE = "please refund the whole order, the parcel arrived opened and damaged"
"""A ``note`` long enough (over 40 characters) that :class:`GuardedShop`'s gate holds the call
for approval."""


class GuardedShop:
    """A guarded ``refund(customer, note="")`` tool and what it did.

    The gate denies the customer ``"mallory"`` (code ``not_found``, "Unknown customer."), holds a
    call whose ``note`` is over 40 characters for approval, and allows ``budget`` calls.
    ``refunds`` lists the customers refunded (the side effects), ``contexts`` the context each
    call received; ``tool`` is the guarded standard tool.
    """

    def __init__(self, budget: int = 10) -> None:
        self.refunds: list[str] = []
        self.contexts: list[Any] = []

        @tool
        def refund(customer: str, note: str = "", context: Any = None) -> dict[str, Any]:
            """Refund a customer's last order."""
            self.refunds.append(customer)
            self.contexts.append(context)
            return {"refunded": customer}

        self.gate = Gate(
            policy=lambda request: (
                Decision.deny("not_found", "Unknown customer.")
                if request.arguments["customer"] == "mallory"
                else True
            ),
            approvals=lambda request: len(request.arguments.get("note", "")) > 40,
            budgets=[Budget(limit=budget)],
        )
        self.tool: GuardedTool = self.gate.guard(refund)
