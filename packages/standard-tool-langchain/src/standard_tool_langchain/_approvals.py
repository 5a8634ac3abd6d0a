"""A held call in LangGraph: the gate's approval request put to a person through
``langgraph.types.interrupt``, and the person's answer recorded in the gate.

The gate decides; LangGraph only carries the question and the answer. A guarded tool's call
that its own gate holds (``gate.held(error)``), made inside a LangGraph run with a
checkpointer, asks with ``interrupt(value)``: ``value`` is the approval request
(:meth:`~standard_tool.boundary.Approval.request`, with ``request_id``, ``tool_call_id`` and
the refusal's ``message``). The answer the app resumes with (``Command(resume=answer)``) is
recorded in the gate by request id, for the caller's own approvals only; then the call is
made again through the gate, which runs it once under the approval, refuses it, or holds it
still (the call then asks again: a new interrupt).

A node runs again from its start on every resume, and LangGraph hands a task's answers to
its interrupts in the order they are asked, which the parallel calls of one ``ToolNode`` do
not keep; so an answer names the call it decides (``request_id``), whichever call receives
it, and an answer that names none is taken only when the model's step holds no other call.
An answer replayed for a call decided already decides nothing. LangGraph is imported only
here, and only inside a LangGraph run.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from standard_tool.boundary import (
    Approval,
    Approver,
    Gate,
    GuardedTool,
    approver_name,
    guarded_of,
    record_key,
    request_id_of,
)
from standard_tool.exceptions import ToolRefusedError, UsageError

__all__ = ["Pause", "watch"]

_SCRATCHPAD = "__pregel_scratchpad"
_CHECKPOINTER = "__pregel_checkpointer"
_READ = "__pregel_read"
_MESSAGES = "messages"
_KEYS = {
    "approve": frozenset({"type", "request_id", "approver", "expires_in"}),
    "reject": frozenset({"type", "request_id", "approver", "message"}),
}
_SHAPE = (
    "an answer is a mapping: {'type': 'approve'} or {'type': 'reject', 'message': ...}, "
    "with 'request_id' naming the call it decides"
)

_asking = threading.Lock()
"""Held calls ask, and take their answers, one at a time: LangGraph numbers a task's
interrupts in the order they are asked."""
_refusals: OrderedDict[int, tuple[Any, str]] = OrderedDict()
"""The answers that decided nothing lately (by ``id``, with the answer itself), and why."""
_REFUSALS = 256
_gates: weakref.WeakSet[Gate] = weakref.WeakSet()
"""The gates of the guarded tools exported to LangChain: where an answer's call is looked up."""


def watch(tool: Any) -> None:
    """Remember the gate of ``tool`` (exported to LangChain), when it is guarded."""
    guarded = guarded_of(tool)
    if guarded is not None:
        _gates.add(guarded.gate)


@dataclass
class Pause:
    """One held call of a guarded tool inside a LangGraph run: asks, and records answers."""

    guarded: GuardedTool
    approval: Approval
    message: str
    arguments: Any
    context: Any
    call_id: str | None
    configurable: Mapping[str, Any]
    approver: Approver | None

    @property
    def gate(self) -> Gate:
        return self.guarded.gate

    @property
    def tenant(self) -> str | None:
        return self.approval.tenant

    @property
    def actor(self) -> str | None:
        return self.approval.actor

    @classmethod
    def of(
        cls,
        tool: Any,
        error: ToolRefusedError,
        arguments: Any,
        context: Any,
        call_id: str | None,
        config: Mapping[str, Any] | None,
        approver: Approver | None,
    ) -> Pause | None:
        """The pause of a call that ``error`` refused, when it is a call held by its own
        gate inside a LangGraph run with a checkpointer (which can resume it), under a
        request id its context carries; else ``None`` (the model reads the refusal)."""
        configurable = (config or {}).get("configurable") or {}
        if _SCRATCHPAD not in configurable or configurable.get(_CHECKPOINTER) is None:
            return None
        guarded = guarded_of(tool)
        if guarded is None or request_id_of(context) is None:
            return None
        approval = guarded.gate.held(error)
        if approval is None:
            return None
        return cls(
            guarded, approval, error.message, arguments, context, call_id, configurable, approver
        )

    def still(self, error: ToolRefusedError) -> bool:
        """Whether the call made again is held again (it then asks again)."""
        approval = self.gate.held(error)
        if approval is None:
            return False
        self.approval, self.message = approval, error.message
        return True

    def turn(self) -> None:
        """Put the call's approval request to a person, and record the answer once the app
        resumes with one (see :meth:`apply`). When the task's newest answer decided nothing,
        the request says why (``refused``), whichever of its calls asks; an older answer
        that LangGraph replays does not."""
        from langgraph.types import interrupt

        value = {
            **self.approval.request(),
            "request_id": self.approval.request_id,
            "tool_call_id": self.call_id,
            "message": self.message,
        }
        with _asking:
            answers = getattr(self.configurable.get(_SCRATCHPAD), "resume", None)
            if isinstance(answers, list) and answers:
                seen = _refusals.get(id(answers[-1]))
                if seen is not None and seen[0] is answers[-1]:
                    value["refused"] = seen[1]
            answer = interrupt(value)
            refused = self.apply(answer)
            if refused is not None:
                _refusals[id(answer)] = (answer, refused)
                while len(_refusals) > _REFUSALS:
                    _refusals.popitem(last=False)

    def apply(self, answer: Any) -> str | None:
        """Record ``answer`` in the gate for the call it names; ``None`` when it was recorded
        or its call is decided already, else why it decides nothing. A developer's error (no
        approver named anywhere) is raised to the app."""
        if not isinstance(answer, Mapping):
            return _SHAPE
        kind = answer.get("type")
        if kind not in _KEYS:
            return "an answer's 'type' is 'approve' or 'reject'"
        extra = sorted(str(key) for key in answer if key not in _KEYS[kind])
        if extra:
            return f"an answer of type {kind!r} takes no {', '.join(map(repr, extra))}"
        request_id = answer.get("request_id")
        if request_id is not None and (not isinstance(request_id, str) or not request_id):
            return "an answer's 'request_id' is a non-empty string"
        named = answer.get("approver")
        if named is not None and (not isinstance(named, str) or not named):
            return "an answer's 'approver' is a non-empty string"
        message = answer.get("message", "")
        if not isinstance(message, str):
            return "a rejection's 'message' is a string"
        expires_in = answer.get("expires_in")
        if expires_in is not None and (
            type(expires_in) not in (int, float) or not 0 < expires_in < math.inf
        ):
            return "an approval's 'expires_in' is a positive number of seconds"
        if request_id is None:
            if not self._alone():
                return (
                    "several calls of this step wait for a decision: "
                    "an answer names the 'request_id' of the call it decides"
                )
            request_id = self.approval.request_id
        gate, found = self._find(request_id)
        if gate is None or found is None:
            return "no call of this caller waits for a decision under the answer's 'request_id'"
        if found.status != "pending":
            return None  # decided already: an answer given before, replayed by LangGraph
        approver = self._approver(named)
        approved = kind == "approve"
        try:
            if request_id == self.approval.request_id and gate is self.gate:
                self.gate.answer(
                    self.guarded,
                    self.arguments,
                    self.context,
                    approved=approved,
                    approver=approver,
                    reason=message,
                    expires_in=expires_in,
                )
            elif approved:
                gate.approve(
                    request_id,
                    approver=approver,
                    tenant=self.tenant,
                    actor=self.actor,
                    expires_in=expires_in,
                )
            else:
                gate.reject(
                    request_id,
                    approver=approver,
                    tenant=self.tenant,
                    actor=self.actor,
                    reason=message,
                )
        except UsageError as refused:  # the approver may not decide it (their own call)
            now = gate.store.approval(found.key)
            if now is not None and now.status != "pending":  # decided meanwhile
                return None
            return str(refused)
        return None

    def _find(self, request_id: str) -> tuple[Gate | None, Approval | None]:
        """The gate keeping this caller's approval request ``request_id`` (this call's gate
        first), and that request."""
        key = record_key(self.tenant, self.actor, request_id)
        for gate in (self.gate, *(g for g in list(_gates) if g is not self.gate)):
            found = gate.store.approval(key)
            if found is not None:
                return gate, found
        return None, None

    def _alone(self) -> bool:
        """Whether this call is the only tool call of the model's step (the message that
        holds it): an answer that names no call can then be for no other. A step of several
        calls, or one that cannot be read, could give it to another call."""
        return self._step() == [self.call_id]

    def _step(self) -> list[str] | None:
        """The tool call ids of the model's message that holds this call, read from the
        graph's state (``messages``) as the task began; ``None`` when it cannot be read."""
        read = self.configurable.get(_READ)
        if self.call_id is None or not callable(read):
            return None
        try:
            messages = read(_MESSAGES)
            for message in reversed(list(messages)):
                calls = getattr(message, "tool_calls", None) or []
                ids = [call.get("id") for call in calls]
                if self.call_id in ids:
                    return [i for i in ids if isinstance(i, str)]
        except Exception:
            return None
        return None

    def _approver(self, named: str | None) -> str:
        """Who decided: the answer's ``approver``, else the one the export names (a name, or
        a function of the call's context); neither is the app's error, raised to it."""
        chosen: Approver | None = named if named is not None else self.approver
        if chosen is None:
            raise _to_app(
                "a decision made through a LangGraph interrupt is recorded with its approver: "
                "name them (to_langchain(..., approver=), or 'approver' in the answer)"
            )
        try:
            return approver_name(chosen, self.context)
        except UsageError as exc:
            raise _to_app(str(exc)) from None
        except Exception as exc:
            raise _to_app("the approver function raised") from exc


def _to_app(message: str) -> UsageError:
    """A :class:`UsageError` that leaves the LangGraph run for the app, past a tool node's
    error handling (which would give it to the model)."""
    from ._graph import GraphUsageError

    return GraphUsageError(message)
