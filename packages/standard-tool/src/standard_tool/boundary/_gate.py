"""The gate: one set of steps between a model's proposal and its effect, carried by a
wrapper tool into every framework, server and provider loop a standard tool reaches.

A guarded call goes through the steps in this order: is the tool visible to this caller;
are the arguments valid for its input schema; is the tool switched off; the policy (actor,
tenant, target); freshness; a request id that already ran answers with its receipt;
approval (a call that needs one it does not have is held); the call claims its request id;
budgets, every one that applies taken or none; the approval is used; then the tool runs once
under that request id, its outcome is kept as a receipt, and one audit event is written. A
hidden tool is refused before its arguments are read, so that it reads exactly like an
unknown tool. A call refused after its claim gives back what it took (its budget units, its
request id): a refused call, or one a receipt answers, spends no budget.

The lifecycle is written once, as a generator of the steps' answers; a sync call and an async
call each drive it (:meth:`Gate._drive` and :meth:`Gate._adrive`), awaiting what a step
returns when it is a coroutine.
"""

from __future__ import annotations

import contextvars
import copy
import dataclasses
import inspect
import json
import logging
import time
import uuid
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, cast

from .._protocols import StandardTool
from .._text import clip, legible
from ..exceptions import (
    REFUSAL_CODES,
    NotJsonError,
    StandardToolError,
    ToolRefusedError,
    ToolTimeoutError,
    ToolValidationError,
    UsageError,
)
from ..plugins._metadata import adopt_each, is_one
from ..plugins._registry import adopt
from ..run._call import _failure, acall, call
from ..run._waiting import run_sync, started_threads
from ..schema._canonical import digest
from ..schema._json import json_issues, jsonable
from ..schema.dialects._walk import lookup
from ..tools._json_schemas import input_json_schema
from ..tools._wrapper import WrapperTool
from ._budget import Budget
from ._store import Bucket, MemoryStore, Store
from ._types import (
    Approval,
    AuditEvent,
    CallRequest,
    Decision,
    Receipt,
    call_digest,
    record_key,
)

if TYPE_CHECKING:
    import concurrent.futures

__all__ = [
    "REJECTED",
    "Approver",
    "Gate",
    "GuardedTool",
    "approver_name",
    "check_approver",
    "guarded_of",
    "identity_of",
    "report_effect",
    "request_id_of",
    "with_request_id",
]

log = logging.getLogger("standard_tool.boundary")

_UNKNOWN = "Unknown tool: {name!r}."
"""What a hidden tool reads as: the words every unknown tool gets."""
_DENIED = "This call is not allowed."
_DISABLED = "This tool is switched off."
_UNKEPT = "The tool ran, but its result is not JSON data and could not be kept."
_RUNNING = "This call is still running; its outcome is not known yet."
_UNAVAILABLE = "The gate cannot reach what it keeps; try again later."
_LEASE = 300.0
"""Seconds a claimed request id is held by a call with no time limit of its own, and by a
call left running past its time limit; past it, a process that died mid-call leaves an
outcome that reads as unknown."""
_SECRET = "<secret>"
"""What a person asked to approve a call reads for a value the tool marks secret."""
_HELD = "_standard_tool_held"
"""The attribute a gate sets on a ``held_for_review`` refusal it raised itself: the gate and
the key of the call's approval request (see :meth:`Gate.held`)."""

_effects: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "standard_tool_effects", default=None
)


def report_effect(effect_id: str) -> None:
    """Say, from inside a guarded tool, which effect this call made (a row id, a message id):
    it goes into the call's receipt and audit event. Outside a guarded call it does nothing."""
    held = _effects.get()
    if held is not None:
        held.append(str(effect_id))


@dataclass
class _Run:
    """What the lifecycle asks its driver to do: run the guarded tool itself."""

    input: Any
    context: Any


class _Trace:
    """What one call's audit event says, filled in as the call goes."""

    __slots__ = ("approval", "code", "effects", "outcome", "request")

    def __init__(self) -> None:
        self.outcome = "refused"
        self.code: str | None = None
        self.approval: Approval | None = None
        self.effects: list[str] = []
        self.request: CallRequest | None = None


Step = Callable[[CallRequest], Any]
Sink = Callable[[AuditEvent], Any]
Approver = str | Callable[[Any], str]
"""Who decides on a held call in a framework's own pause and resume, as an app names them:
a name, or a function of the call's context that gives one."""


class _Closed(Exception):
    """A store operation failed: the call is refused (closed, never open)."""


class GuardedTool(WrapperTool):
    """A standard tool behind a :class:`Gate`: the same definition, every call through the gate."""

    def __init__(self, wrapped: StandardTool, gate: Gate) -> None:
        super().__init__(wrapped)
        self.gate = gate

    def run(self, input: Any, context: Any) -> Any:
        return self.gate._drive(self, self.gate._lifecycle(self, input, context))

    async def arun(self, input: Any, context: Any) -> Any:
        return await self.gate._adrive(self, self.gate._lifecycle(self, input, context))

    def __repr__(self) -> str:
        return f"GuardedTool({self.wrapped!r})"


REJECTED = "A person rejected this call."
"""What a call a person rejected reads: the message of its ``denied`` refusal, here and in
the adapters whose frameworks answer a rejection themselves."""
_WRAPPERS = 32
"""Tool wrappers looked through for a guarded tool."""


def guarded_of(tool: Any) -> GuardedTool | None:
    """The guarded tool ``tool`` is, or wraps (through tool wrappers), else ``None``."""
    for _ in range(_WRAPPERS):
        if isinstance(tool, GuardedTool):
            return tool
        if not isinstance(tool, WrapperTool):
            return None
        tool = tool.wrapped
    return None


def with_request_id(tool: Any, context: Any, call_id: Any, *, replace: bool = False) -> Any:
    """The context an adapter hands a call of ``tool``: with the framework's own call id as
    ``request_id`` when ``tool`` is guarded (its gate runs a request id once) and the context
    has none; else ``context`` as it is.

    A mapping (or none) gets the key ``request_id``. A typed context (a dataclass, a pydantic
    model: LangGraph's ``context_schema``, say) gets it when it declares a ``request_id``
    field that is ``None``: a copy with the field set (``dataclasses.replace``,
    ``model_copy``); one without that field cannot carry it, and the gate makes a request id
    of its own for each call. ``replace``: ``call_id`` in place of a request id the context
    holds already (another call made from this one)."""
    if not isinstance(call_id, str) or not call_id or guarded_of(tool) is None:
        return context
    if context is None:
        return {"request_id": call_id}
    if isinstance(context, Mapping):
        if replace or context.get("request_id") is None:
            return {**context, "request_id": call_id}
        return context
    held = getattr(context, "request_id", False)
    if held is False or (held is not None and not replace):  # none declared, or one set
        return context
    if dataclasses.is_dataclass(context) and not isinstance(context, type):
        if any(f.name == "request_id" and f.init for f in dataclasses.fields(context)):
            return dataclasses.replace(context, request_id=call_id)
        return context
    fields = getattr(type(context), "model_fields", None)
    copy_of = getattr(context, "model_copy", None)
    if isinstance(fields, Mapping) and "request_id" in fields and callable(copy_of):
        return copy_of(update={"request_id": call_id})
    return context


def request_id_of(context: Any) -> str | None:
    """The request id a call's ``context`` gives (a mapping's ``"request_id"``, a typed
    context's ``request_id`` attribute), when it is a non-empty string; else ``None``."""
    if context is None:
        return None
    try:
        given = (
            context.get("request_id")
            if isinstance(context, Mapping)
            else getattr(context, "request_id", None)
        )
    except Exception:
        return None
    return given if isinstance(given, str) and given else None


def check_approver(approver: Any) -> Approver | None:
    """``approver`` as an export takes it (see :data:`Approver`): ``None``, a non-empty name,
    or a function of the call's context; else a :class:`~standard_tool.exceptions.UsageError`."""
    if approver is None or callable(approver) or (isinstance(approver, str) and approver):
        return cast("Approver | None", approver)
    raise UsageError(
        "approver is a non-empty name or a function of the call's context, "
        f"not {type(approver).__name__}"
    )


def approver_name(approver: Approver | None, context: Any) -> str:
    """The name of who decided on a call, from what an app gave (:data:`Approver`: a name, or
    a function of the call's ``context``); ``None``, or a function that gives no non-empty
    name, is a :class:`~standard_tool.exceptions.UsageError`."""
    if approver is None:
        raise UsageError(
            "a decision made in a framework is recorded with its approver: name them "
            "(approver=, a name or a function of the call's context)"
        )
    name = approver(context) if callable(approver) else approver
    if not isinstance(name, str) or not name:
        raise UsageError("an approver is named by a non-empty string")
    return name


def identity_of(context: Any) -> tuple[str | None, str | None]:
    """The caller's ``(tenant, actor)`` in a call's ``context``: a mapping's ``"tenant"`` and
    ``"actor"`` keys, or a typed context's ``tenant`` and ``actor`` attributes; ``None`` for
    one that is absent. Each is a string of valid Unicode: anything else (a number, a lone
    surrogate) is a :class:`~standard_tool.exceptions.UsageError`, never read as no one, so
    that two callers can never share one identity by accident."""
    if context is None:
        return None, None
    if type(context) is dict:  # every call's case (the gate's own copy): read at once
        tenant, actor = context.get("tenant"), context.get("actor")
        if (tenant is None or (type(tenant) is str and tenant.isascii())) and (
            actor is None or (type(actor) is str and actor.isascii())
        ):
            return tenant, actor
    try:
        if isinstance(context, Mapping):
            actor, tenant = context.get("actor"), context.get("tenant")
        else:
            actor, tenant = getattr(context, "actor", None), getattr(context, "tenant", None)
    except Exception:
        raise UsageError(
            "the call's context could not be read (its get or attribute raised)"
        ) from None
    return _name(tenant, "tenant"), _name(actor, "actor")


def _name(value: Any, what: str) -> str | None:
    """An identity read from a context: ``None``, or a string of valid Unicode."""
    return None if value is None else _text(value, what, "a string")


def _request_id_of(value: Any) -> str:
    """A request id given in a context: a non-empty string of valid Unicode."""
    if isinstance(value, str) and not value:
        raise UsageError(
            "the context's 'request_id' is a non-empty string or absent, not an empty string"
        )
    return _text(value, "request_id", "a non-empty string")


def _text(value: Any, what: str, kind: str) -> str:
    """``value``, a string of valid Unicode that a context gives as ``what``; else a
    :class:`~standard_tool.exceptions.UsageError` naming ``what`` (never the value)."""
    if type(value) is str and value.isascii():
        return value
    if not isinstance(value, str):
        raise UsageError(f"the context's {what!r} is {kind} or absent, not {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(f"the context's {what!r} holds a lone surrogate") from None
    return str(value)


class Gate:
    """The steps between a model's proposal and its effect.

    Each step is optional and takes a :class:`CallRequest` (sync or async):

    - ``visible(tool, context) -> bool``: whether this caller sees the tool (a hidden tool
      called by name is refused as ``not_found``, reading like an unknown tool);
    - ``policy(request) -> Decision | bool``: who may call what, for which tenant and target;
    - ``freshness(request) -> Decision | bool``: whether what the call relies on is still
      current (``False`` refuses it as ``stale``);
    - ``approvals(request) -> bool``: whether this call needs a person's approval;
    - ``reconcile(request)``: for a request id whose outcome is unknown (timed out, or the
      process died mid-call), the effect's result when it finds one (the call is then not
      run again), else ``None`` (it runs).

    ``store`` keeps receipts, approvals, budgets and the kill switch (default: a
    :class:`MemoryStore`); ``budgets`` are :class:`Budget` limits (one, or several);
    ``audit`` is a sink, or several: each a callable (sync or async) called with one
    :class:`AuditEvent` per call; a sink that fails is logged and changes nothing. A step
    that raises, or answers something else than it should (a Decision or a bool; a bool for
    ``visible`` and ``approvals``), fails closed: the call is refused (``denied``;
    ``not_found`` for ``visible``), and the reason is logged for the
    developer on the ``standard_tool.boundary`` logger, not shown to the model. A store that
    fails refuses the call as ``unavailable`` (retryable: nothing ran).

    The caller's identity comes in the call's context: ``context["tenant"]``,
    ``context["actor"]``, and ``context["request_id"]`` when the caller has one (else one is
    made); a typed context (a dataclass, a pydantic model) gives them as attributes (see
    :func:`identity_of`, :func:`with_request_id`). Each is a string or absent; anything else
    is a :class:`~standard_tool.exceptions.UsageError` (nothing is read as no one). The tool
    sees the request id in ``context["request_id"]`` (a mapping context).

    A request id belongs to its caller: receipts and approvals are kept per tenant and actor
    (:func:`record_key`), and a call's digest binds its tool, arguments, actor and tenant, so
    that no caller ever reads another's receipt or runs under another's approval. Reused for
    another call of the same caller, a request id is refused (``denied``); while its call
    runs, it is refused as ``unknown_outcome``. A sync tool left running on its thread past
    its time limit keeps its request id running until it ends (or its lease of
    :data:`_LEASE` seconds runs out), and its outcome is then kept: a retry answers it, and
    never runs the tool a second time. Budgets are spent only by a call that runs: taken
    together (all or none) once the call holds its request id, given back when its approval
    cannot be used; a replay spends none. The kill switch is read before the policy and again
    once the call holds its request id.

    A receipt keeps the JSON form of a result (:func:`standard_tool.jsonable`: a
    pydantic model as its ``model_dump(mode="json")``, a ``datetime`` as ISO text...), which
    is what a replay answers, in every store alike.

    A held call's approval request shows the person its arguments whole, exactly as they will
    run, but for values the input schema marks secret (``writeOnly``, ``format: password``),
    with the digest it is bound to. ``self_approval``: whether a call's own actor may approve
    it (default ``False``: :meth:`approve` raises ``UsageError`` for them, and a served gate
    does not ask the calling client).
    """

    def __init__(
        self,
        policy: Step | None = None,
        visible: Callable[[StandardTool, Any], Any] | None = None,
        freshness: Step | None = None,
        approvals: Step | None = None,
        reconcile: Step | None = None,
        store: Store | None = None,
        budgets: Budget | Iterable[Budget] = (),
        audit: Sink | Iterable[Sink] = (),
        self_approval: bool = False,
    ) -> None:
        if self_approval is not True and self_approval is not False:
            raise UsageError(f"self_approval is True or False, not {type(self_approval).__name__}")
        self.self_approval = self_approval
        self.policy = policy
        self.visibility = visible
        self.freshness = freshness
        self.approvals = approvals
        self.reconcile = reconcile
        self.store: Store = MemoryStore() if store is None else store
        self.budgets: tuple[Budget, ...] = _budgets(budgets)
        self.audit: tuple[Sink, ...] = _sinks(audit)

    # -- what an app calls -------------------------------------------------------------

    def guard(self, tools: Any) -> Any:
        """``tools`` behind this gate: one tool (anything ``st.adopt`` takes) gives one
        :class:`GuardedTool`, several give a list.

        A tool this gate guards already (a :class:`GuardedTool` of this gate, or a wrapper of
        one) comes back as it is: its calls go through this gate once. A tool another gate
        guards is a :class:`~standard_tool.exceptions.UsageError`: two gates would each take
        budgets and keep receipts for one call, and a call the inner gate holds would be
        kept by the outer one as failed, never to run once approved."""
        if is_one(tools):
            return self._guard(adopt(tools))
        return [self._guard(tool) for tool in adopt_each(tools)]

    def _guard(self, tool: StandardTool) -> StandardTool:
        held = guarded_of(tool)
        if held is None:
            return GuardedTool(tool, self)
        if held.gate is self:
            return tool
        raise UsageError(
            f"tool {clip(str(tool.name))!r} is guarded by another gate already: one gate guards "
            "a tool (use it as it is, or guard the unguarded tool with this gate)"
        )

    def visible(self, tools: Any, context: Any = None) -> list[StandardTool]:
        """The tools of ``tools`` this caller sees (the rule that also refuses their calls);
        ``tools`` may be guarded already: the rule is then given the tool it guards, as in a
        call."""
        return [tool for tool in adopt_each(tools) if self._sees(tool, context)]

    def approve(
        self,
        request_id: str,
        *,
        approver: str,
        tenant: str | None = None,
        actor: str | None = None,
        expires_in: float | None = None,
    ) -> None:
        """Approve the held call ``request_id`` of ``actor`` in ``tenant`` (as its approval
        request names them): the same call, made again by the same caller with that request id
        and the same arguments, runs once (before ``expires_in`` seconds, when given).

        Unless the gate was made with ``self_approval=True``, an ``approver`` who is the
        call's own actor is a :class:`~standard_tool.exceptions.UsageError`. A decision is a
        compare-and-set in the store: of two racing decisions on one call, one is made and
        the other raises ``UsageError``. A call decided already (approved, rejected, or
        approved and run) is a ``UsageError`` that says when it was decided, by whom, what
        became of the call, and what to do now."""
        if expires_in is not None and (
            type(expires_in) not in (int, float) or not 0 < expires_in < float("inf")
        ):
            raise UsageError(f"expires_in is a positive number of seconds, not {expires_in!r}")
        approval = self._pending(request_id, tenant, actor, approver)
        if not self.self_approval and approval.actor is not None and approver == approval.actor:
            raise UsageError(
                f"{clip(approver)!r} may not approve a call of their own "
                "(a gate made with self_approval=True allows it)"
            )
        now = time.time()
        expires_at = None if expires_in is None else now + expires_in
        self._decide(
            dataclasses.replace(
                approval, status="approved", approver=approver, decided=now, expires_at=expires_at
            )
        )

    def reject(
        self,
        request_id: str,
        *,
        approver: str,
        tenant: str | None = None,
        actor: str | None = None,
        reason: str = "",
    ) -> None:
        """Reject the held call ``request_id`` of ``actor`` in ``tenant``: made again, it is
        refused (``denied``). A compare-and-set, as :meth:`approve` is."""
        if not isinstance(reason, str):
            raise UsageError(f"a rejection's reason is a string, not {type(reason).__name__}")
        approval = self._pending(request_id, tenant, actor, approver)
        self._decide(
            dataclasses.replace(
                approval, status="rejected", approver=approver, reason=reason, decided=time.time()
            )
        )

    def pending(
        self, request_id: str, *, tenant: str | None = None, actor: str | None = None
    ) -> Approval | None:
        """The approval request of the call ``request_id`` of ``actor`` in ``tenant``, if it
        waits for a decision."""
        approval = self.store.approval(record_key(tenant, actor, request_id))
        return approval if approval is not None and approval.status == "pending" else None

    def held(self, error: BaseException) -> Approval | None:
        """The approval request, still pending, of the call this gate itself held with
        ``error``; ``None`` for any other error: a refusal another gate, a tool or a server
        made (a ``held_for_review`` refusal read from a remote server's result, say), or a
        call decided meanwhile. Only what this returns may be put to a person for this call."""
        mark = getattr(error, _HELD, None) if isinstance(error, ToolRefusedError) else None
        if not isinstance(mark, tuple) or len(mark) != 2 or mark[0] is not self:
            return None
        approval = self.store.approval(mark[1])
        return approval if approval is not None and approval.status == "pending" else None

    def needs_approval(self, tool: Any, arguments: Any, context: Any = None) -> Approval | None:
        """Whether the call of ``tool`` (guarded by this gate) with ``arguments``, made now by
        the caller and under the request id that ``context`` gives, would be held for a
        person's decision: its approval request, pending and kept in the store (where an
        inbox lists it), or ``None`` when the call would not wait for one (it would run, a
        receipt would answer it, a decision was made on it, or it would be refused for
        another reason, which the call itself then says).

        Every step up to approval is taken, and nothing after it: the tool does not run, no
        request id is claimed, no budget is spent, no audit event is written. What a
        framework's own pause (the Agents SDK's ``needs_approval``, say) asks before a call;
        the call itself still goes through every step."""
        held: Approval | None = self._drive(
            self._guarded(tool), self._asks(tool, arguments, context)
        )
        return held

    async def aneeds_approval(
        self, tool: Any, arguments: Any, context: Any = None
    ) -> Approval | None:
        """:meth:`needs_approval`, with the gate's async steps awaited."""
        guarded = self._guarded(tool)
        held: Approval | None = await self._adrive(guarded, self._asks(guarded, arguments, context))
        return held

    def answer(
        self,
        tool: Any,
        arguments: Any,
        context: Any,
        *,
        approved: bool,
        approver: Approver | None,
        reason: str = "",
        expires_in: float | None = None,
    ) -> Approval | None:
        """Record the decision a person made in a framework's own pause and resume on the
        call of ``tool`` (guarded by this gate) with ``arguments``, of the caller and under the
        request id that ``context`` gives: :meth:`approve` (``approved``) or :meth:`reject`
        (with ``reason``) of its approval request, when that request waits for a decision
        and is bound to exactly this call (the same tool, arguments, actor and tenant).

        Returns the call's approval request as it stands then, or ``None`` when it has none.
        Nothing is recorded for a call decided already (a second resume: the call then
        answers from its receipt, or is refused again), nor for other arguments than the
        ones held (changed between the pause and the resume: the call is then refused, as
        another call under the request id). The call itself is made afterwards, through the
        gate, and runs only under the approval. The rule of :meth:`approve` holds: an
        ``approver`` who is the call's own actor is a ``UsageError`` unless the gate allows
        self-approval.

        ``approver`` names who decided: a name, or a function of the call's context that
        gives one (a framework carries no approver: the app that exports the tool names
        them); ``None`` is a ``UsageError`` once there is a decision to record. A rejection
        may give ``arguments=None`` where the framework tells only which call was rejected
        (a rejection cannot make anything run): the pending request of this tool under the
        request id is rejected."""
        guarded = self._guarded(tool)
        if approved is not True and approved is not False:
            raise UsageError(f"approved is True or False, not {type(approved).__name__}")
        if request_id_of(context) is None:
            raise UsageError("a decision names its call: the context gives no request_id")
        request_id, context = _with_request_id(context)
        tenant, actor = identity_of(context)
        approval = self.store.approval(record_key(tenant, actor, request_id))
        if approval is None or approval.status != "pending":
            return approval
        if arguments is None:  # a rejection of whatever this tool's call waits under the id
            if approved:
                raise UsageError("an approval names the arguments it approves")
            if approval.tool != guarded.name:
                return approval
        elif json_issues(arguments) is not None:
            return approval
        elif approval.digest != call_digest(
            guarded.name, _schema_digest(guarded), arguments, actor, tenant
        ):
            return approval
        approver = approver_name(approver, context)
        try:
            if approved:
                self.approve(
                    request_id, approver=approver, tenant=tenant, actor=actor, expires_in=expires_in
                )
            else:
                self.reject(
                    request_id, approver=approver, tenant=tenant, actor=actor, reason=reason
                )
        except UsageError:
            now = self.store.approval(approval.key)
            if now is None or now.status == "pending":  # refused, not decided meanwhile
                raise
            return now
        return self.store.approval(approval.key)

    def _guarded(self, tool: Any) -> GuardedTool:
        """The tool ``tool`` is or wraps that this gate guards; else a ``UsageError``."""
        guarded = guarded_of(tool)
        if guarded is None or guarded.gate is not self:
            raise UsageError(f"{clip(repr(tool))} is not a tool this gate guards")
        return guarded

    def _asks(self, tool: Any, arguments: Any, context: Any) -> Generator[Any, Any, Any]:
        """The steps of :meth:`needs_approval`."""
        guarded = self._guarded(tool)
        request_id, context = _with_request_id(context)
        try:
            yield from self._steps(
                guarded, guarded.name, arguments, context, request_id, _Trace(), dry=True
            )
        except ToolRefusedError as refusal:
            return self.held(refusal)
        except _Closed:  # the call itself is refused (unavailable), and never runs unasked
            return None
        return None

    def disable(self, name: str) -> None:
        """Switch the tool ``name`` off: from the next call on, in every process sharing the
        store, its calls are refused (``disabled``)."""
        self.store.set_disabled(name, True)

    def enable(self, name: str) -> None:
        """Switch the tool ``name`` on again."""
        self.store.set_disabled(name, False)

    # -- the lifecycle -------------------------------------------------------------------

    def _pending(
        self, request_id: str, tenant: str | None, actor: str | None, approver: Any
    ) -> Approval:
        """The approval request a person decides on, still pending; else a ``UsageError``
        that says what became of it."""
        if not isinstance(approver, str) or not approver:
            raise UsageError("an approver is named by a non-empty string")
        for value, what in ((request_id, "request id"), (tenant, "tenant"), (actor, "actor")):
            if value is not None and not isinstance(value, str):
                raise UsageError(f"a {what} is a string, not {type(value).__name__}")
        whose = _whose(tenant, actor)
        approval = self.store.approval(record_key(tenant, actor, request_id))
        if approval is None:
            hint = ""
            if tenant is None and actor is None:
                hint = (
                    "; a call is kept under its caller's tenant and actor: name them "
                    "(tenant=, actor=) as its approval request does"
                )
            raise UsageError(
                f"no call waits for approval under request id {clip(request_id)!r}{whose}{hint}"
            )
        if approval.status != "pending":
            raise UsageError(_decided_already(approval, whose))
        return approval

    def _decide(self, decision: Approval) -> None:
        """Record a person's decision, if the call still waits for one (compare-and-set)."""
        if self.store.decide(decision):
            return
        whose = _whose(decision.tenant, decision.actor)
        now = self.store.approval(decision.key)
        if now is not None and now.status != "pending":
            raise UsageError(_decided_already(now, whose))
        raise UsageError(
            f"the call under request id {clip(decision.request_id)!r}{whose} was decided "
            "meanwhile; a decision is made once"
        )

    def _sees(self, tool: StandardTool, context: Any) -> bool:
        if self.visibility is None:
            return True
        try:
            seen = self.visibility(tool.wrapped if isinstance(tool, GuardedTool) else tool, context)
            if inspect.isawaitable(seen):
                seen = run_sync(seen)
        except Exception:
            log.warning("visible() raised for tool %r: hidden", tool.name, exc_info=True)
            return False
        return seen is True

    def _drive(self, tool: GuardedTool, steps: Generator[Any, Any, Any]) -> Any:
        sent: Any = None
        error: BaseException | None = None
        while True:
            try:
                asked = steps.send(sent) if error is None else steps.throw(error)
            except StopIteration as stop:
                return stop.value
            sent, error = None, None
            try:
                if isinstance(asked, _Run):
                    sent = call(tool.wrapped, asked.input, asked.context)
                elif inspect.isawaitable(asked):
                    sent = run_sync(asked)
                else:
                    sent = asked
            except BaseException as exc:  # the lifecycle decides what each failure means
                error = exc

    async def _adrive(self, tool: GuardedTool, steps: Generator[Any, Any, Any]) -> Any:
        sent: Any = None
        error: BaseException | None = None
        while True:
            try:
                asked = steps.send(sent) if error is None else steps.throw(error)
            except StopIteration as stop:
                return stop.value
            sent, error = None, None
            try:
                if isinstance(asked, _Run):
                    sent = await acall(tool.wrapped, asked.input, asked.context)
                elif inspect.isawaitable(asked):
                    sent = await asked
                else:
                    sent = asked
            except BaseException as exc:
                error = exc

    def _lifecycle(self, tool: GuardedTool, input: Any, context: Any) -> Generator[Any, Any, Any]:
        started, clock = time.time(), time.perf_counter()
        name = tool.name
        request_id = ""
        trace = _Trace()
        closing = False
        try:
            request_id, context = _with_request_id(context)
            result = yield from self._steps(tool, name, input, context, request_id, trace)
            return result
        except ToolRefusedError as refusal:
            trace.code = trace.code or refusal.code
            raise
        except _Closed:
            trace.code = "unavailable"
            raise ToolRefusedError(name, "unavailable", _UNAVAILABLE, request_id) from None
        except UsageError:  # the context holds no identity a call can run under
            trace.outcome = "error"
            raise
        except GeneratorExit:  # closed mid-call: the event is still written, nothing awaited
            closing = True
            raise
        finally:
            if self.audit:
                event = self._event(tool, name, context, request_id, trace, started, clock)
                yield from self._write(event, closing)

    def _steps(
        self,
        tool: GuardedTool,
        name: str,
        input: Any,
        context: Any,
        request_id: str,
        trace: _Trace,
        dry: bool = False,
    ) -> Generator[Any, Any, Any]:
        """The steps of one call; ``dry``: every step up to its approval, then stop (the
        call would run: ``None``), for :meth:`needs_approval`."""

        def refuse(code: str, message: str, approval: dict[str, Any] | None = None) -> NoReturn:
            raise ToolRefusedError(name, code, message, request_id, approval)

        # Visible: a hidden tool reads as an unknown one, before anything else is said.
        if self.visibility is not None:
            try:
                seen = self.visibility(tool.wrapped, context)
                if _awaited(seen):
                    seen = yield seen
            except Exception:
                log.warning("visible() raised for tool %r: hidden", name, exc_info=True)
                seen = False
            if seen is not True:
                refuse("not_found", _UNKNOWN.format(name=name))

        # Valid arguments: JSON data (what a model sends, and what a digest is taken of) that
        # the input schema accepts.
        issues = json_issues(input)
        schema = tool._schema("input")
        if issues is None and schema is not None:
            issues = schema.validate(input).issues
        if issues is not None:
            refuse("invalid_arguments", str(ToolValidationError(name, "input", issues)))

        tenant, actor = identity_of(context)
        try:
            disabled = self.store.is_disabled(name)
        except Exception:
            log.warning("the gate's store failed in is_disabled", exc_info=True)
            raise _Closed from None
        if disabled:
            refuse("disabled", _DISABLED)

        request = CallRequest._make(
            name, input, context, actor, tenant, request_id, _schema_digest(tool)
        )
        trace.request = request

        # Policy, then freshness.
        held: Decision | None = None
        for step, default in ((self.policy, "denied"), (self.freshness, "stale")):
            if step is None:
                continue
            try:
                answer = step(request)
                if answer is True:
                    continue
                if _awaited(answer):
                    answer = yield answer
                decision = _decision(answer, default)
            except Exception:
                log.warning("a step of the gate raised for tool %r: denied", name, exc_info=True)
                decision = Decision.deny("denied", _DENIED)
            if decision.verdict == "hold":
                held = held or decision
            elif decision.verdict != "allow":  # deny, or anything else: closed
                code = decision.code if decision.code in REFUSAL_CODES else default
                refuse(code, decision.message or _DENIED)

        # A request id that already ran answers with its receipt: no approval or budget spent.
        # (With no approval to ask for, the claim below finds it.)
        if held is not None or self.approvals is not None:
            done = self._safely(self.store.receipt, request.key)
            if done is not None:
                _same_call(done, request, refuse)
                if done.state in ("succeeded", "failed"):
                    return _replay(done, request, trace, refuse)
                if _running(done, time.time()):
                    refuse("unknown_outcome", _RUNNING)

        # Approval: held or refused here; used only once the call holds its request id.
        wanted = held is not None
        if not wanted and self.approvals is not None:
            try:
                answer = self.approvals(request)
                if _awaited(answer):
                    answer = yield answer
                wanted = _bool(answer, "approvals")
            except Exception:
                log.warning("approvals() failed for tool %r: denied", name, exc_info=True)
                refuse("denied", _DENIED)
        if wanted:
            trace.approval = self._approval(tool, request, held, trace, refuse)
        if dry:
            return None

        # Run once under the request id (a receipt answers a repeat), its budgets taken and its
        # approval used once the id is claimed.
        result = yield from self._once(tool, request, wanted, trace, refuse)
        return result

    def _approval(
        self,
        tool: GuardedTool,
        request: CallRequest,
        held: Decision | None,
        trace: _Trace,
        refuse: Callable[..., NoReturn],
    ) -> Approval:
        """The approval this call may run under; else the call is held, or refused.

        An approval request is bound to its call: another call under the same request id is
        refused, so that what a person approves is always what they were shown."""
        approval: Approval | None = self._safely(self.store.approval, request.key)
        now = time.time()
        if approval is not None:
            _same_call(approval, request, refuse)
            trace.approval = approval
            if approval.status == "rejected":
                refuse("denied", REJECTED)
            if approval.status == "approved" and (
                approval.expires_at is None or approval.expires_at > now
            ):
                return approval
            if approval.status == "pending":
                raise self._hold(request, held, approval)
        # None yet, expired or used: a new request to a person.
        shown = _shown(request.arguments, _secret_paths(tool))
        fresh = Approval(
            request_id=request.request_id,
            tool=request.tool,
            digest=request.digest,
            summary=legible(json.dumps(shown, ensure_ascii=False, sort_keys=True)),
            actor=request.actor,
            tenant=request.tenant,
            created=now,
            arguments=shown,
        )
        self._safely(self.store.save_approval, fresh)
        trace.approval = fresh
        raise self._hold(request, held, fresh)

    def _hold(
        self, request: CallRequest, held: Decision | None, approval: Approval
    ) -> ToolRefusedError:
        """The refusal of a held call, marked as this gate's own (see :meth:`held`)."""
        code, message = _held(held)
        error = ToolRefusedError(
            request.tool, code, message, request.request_id, approval.request()
        )
        setattr(error, _HELD, (self, approval.key))
        return error

    def _once(
        self,
        tool: GuardedTool,
        request: CallRequest,
        wanted: bool,
        trace: _Trace,
        refuse: Callable[..., NoReturn],
    ) -> Generator[Any, Any, Any]:
        now = time.time()
        lease = getattr(tool.wrapped, "timeout", None)
        claim = Receipt(
            request_id=request.request_id,
            tool=request.tool,
            digest=request.digest,
            started=now,
            lease_until=now + (lease if isinstance(lease, (int, float)) else _LEASE) + 1.0,
            tenant=request.tenant,
            actor=request.actor,
        )
        claim.__dict__["_key"] = request.key  # the same key, not written again
        held, disabled = self._claim(claim)
        if held is not None:
            _same_call(held, request, refuse)
            if held.state in ("succeeded", "failed"):
                return _replay(held, request, trace, refuse)
            if _running(held, now):
                refuse("unknown_outcome", _RUNNING)
            if disabled:
                refuse("disabled", _DISABLED)
            # Its outcome is unknown: read the effect back before running anything again.
            if self.reconcile is None:
                trace.outcome = "unknown_outcome"
                refuse("unknown_outcome", "The outcome of this call is not known.")
            try:
                found = yield self.reconcile(request)
            except Exception:
                log.warning("reconcile() raised for tool %r", request.tool, exc_info=True)
                trace.outcome = "unknown_outcome"
                refuse("unknown_outcome", "The outcome of this call is not known.")
            if found is not None:
                self._keep(_ended(held, "succeeded", result=found, effect_id=held.effect_id))
                trace.outcome = "reconciled"
                return found
            if not self._safely(self.store.replace, held, claim):  # another process took it
                refuse("unknown_outcome", _RUNNING)
            # Switched off while the call waited (in an async policy, say): it does not start.
            disabled = self._safely(self.store.is_disabled, request.tool)
        if disabled:
            self._undo([], now, claim, held)
            refuse("disabled", _DISABLED)
        self._spend(request, claim, held, wanted, trace, refuse)

        effects: list[str] = []
        trace.effects = effects
        token = _effects.set(effects)
        # Only a call with a time limit runs on a thread it can be left running on.
        threads: list[concurrent.futures.Future[Any]] = []
        watching = None if lease is None else started_threads.set(threads)
        try:
            result = yield _Run(request.arguments, request.context)
        except ToolTimeoutError:
            trace.outcome = "timeout"
            if threads:  # left running on its thread: its request id stays running until it ends
                self._orphaned(claim, threads[0], effects, tool, request.context)
                refuse(
                    "timeout",
                    "The tool did not finish in time and may still be running; a retry with "
                    "the same request id answers its outcome once it has ended.",
                )
            message = "The tool did not finish in time."
            self._keep(_ended(claim, "unknown_outcome", code="timeout", message=message))
            if self.reconcile is not None:
                refuse(
                    "timeout",
                    "The tool did not finish in time; a retry with the same request id reads "
                    "its effect back, and runs it only if there was none.",
                )
            refuse(
                "unknown_outcome",
                "The tool did not finish in time; its outcome is not known, and it will not "
                "run again under this request id.",
            )
        except ToolRefusedError as inner:  # a refusal of the tool inside: never this gate's own
            self._keep(_ended(claim, "failed", code="failed", message="The tool refused the call."))
            raise ToolRefusedError(
                inner.tool, inner.code, inner.message, inner.request_id, inner.approval
            ) from None
        except StandardToolError as error:
            message = _message(error)
            self._keep(_ended(claim, "failed", code="failed", message=message))
            trace.outcome = "failed"
            refuse("failed", message)
        finally:
            _effects.reset(token)
            if watching is not None:
                started_threads.reset(watching)
        if threads and lease is not None and not threads[0].done():
            # Past its time limit, a wrapper answered for it (a formatted tool's timeout text):
            # the call itself still runs, and its request id with it.
            self._orphaned(claim, threads[0], effects, tool, request.context)
            trace.outcome = "timeout"
            return result
        outcome = _outcome(claim, result, effects)
        self._keep(outcome)
        if outcome.state == "failed":
            log.error("tool %r: %s (request %r)", request.tool, _UNKEPT, request.request_id)
            trace.outcome = "failed"
            refuse("failed", _UNKEPT)
        trace.outcome = "succeeded"
        return result

    def _claim(self, claim: Receipt) -> tuple[Receipt | None, bool]:
        """Claim the call's key, and say whether its tool is switched off now (in one step
        where the store can): a call that waited in an async policy while a person switched
        the tool off does not run."""
        checked = getattr(self.store, "claim_checked", None)
        if checked is not None:
            held, disabled = self._safely(checked, claim)
            return held, bool(disabled)
        held = self._safely(self.store.claim, claim)
        if held is not None:
            return held, False
        try:
            return None, bool(self.store.is_disabled(claim.tool))
        except Exception:
            self._undo([], claim.started, claim, None)
            log.warning("the gate's store failed in is_disabled", exc_info=True)
            raise _Closed from None

    def _orphaned(
        self,
        claim: Receipt,
        thread: concurrent.futures.Future[Any],
        effects: list[str],
        tool: GuardedTool,
        context: Any,
    ) -> None:
        """A call left running on ``thread`` past its time limit: its request id stays
        ``running`` (its lease renewed) until the call ends, and then keeps its outcome, so
        that a retry never runs it a second time."""
        renewed = dataclasses.replace(
            claim, lease_until=max(claim.lease_until, time.time() + _LEASE)
        )
        try:
            if not self.store.replace(claim, renewed):
                return
        except Exception:
            log.error(
                "the gate's store could not keep request %r running",
                claim.request_id,
                exc_info=True,
            )
            return

        def ended(done: concurrent.futures.Future[Any]) -> None:
            try:
                result = done.result()
            except BaseException as exc:
                error = exc if isinstance(exc, StandardToolError) else None
                error = error or _failure(tool.wrapped, exc, context)
                effect = effects[-1] if effects else None
                outcome = _ended(
                    renewed, "failed", code="failed", message=_message(error), effect_id=effect
                )
            else:
                outcome = _outcome(renewed, result, effects)
            try:
                self.store.replace(renewed, outcome)
            except Exception:
                log.error(
                    "the gate's store could not keep the outcome of request %r",
                    claim.request_id,
                    exc_info=True,
                )

        thread.add_done_callback(ended)

    def _spend(
        self,
        request: CallRequest,
        claim: Receipt,
        found: Receipt | None,
        wanted: bool,
        trace: _Trace,
        refuse: Callable[..., NoReturn],
    ) -> None:
        """Take the call's budgets (every bucket or none), then use its approval, once the call
        holds its request id (``claim``, in place of ``found`` when it found one). A call
        refused here costs nothing: its units go back, and its request id is left as it was
        found (free, or ``found`` again)."""
        buckets = [(b.bucket(request), b.limit, b.per) for b in self.budgets if b.applies(request)]
        now = time.time()
        spent: list[Bucket] = []
        try:
            if buckets:
                if not self._safely(self.store.take_all, buckets, now):
                    refuse("budget_exceeded", "The budget for this call is used up; try later.")
                spent = buckets
            if wanted:
                used = self._safely(
                    self.store.use_approval, request.key, request.digest, time.time()
                )
                if used is None:
                    refuse("held_for_review", "This call waits for a person's review.")
                trace.approval = used
        except BaseException:
            self._undo(spent, now, claim, found)
            raise

    def _undo(self, spent: list[Bucket], now: float, claim: Receipt, found: Receipt | None) -> None:
        """Give back what a call refused before it ran took. A store that fails now changes
        nothing of the refusal (the units stay spent; the request id stays claimed, and reads
        as running, then unknown)."""
        try:
            if spent:
                self.store.refund(spent, now)
        except Exception:
            log.error(
                "the gate's store could not refund request %r", claim.request_id, exc_info=True
            )
        try:
            if found is None:
                self.store.release(claim)
            else:
                self.store.replace(claim, found)
        except Exception:
            log.error(
                "the gate's store could not release request %r", claim.request_id, exc_info=True
            )

    def _keep(self, receipt: Receipt) -> None:
        """Record a call's outcome. The call has run: a store that fails now changes nothing
        of its answer (the request id stays claimed, and reads as running, then unknown)."""
        try:
            self.store.save(receipt)
        except Exception:
            log.error(
                "the gate's store could not keep the outcome of request %r",
                receipt.request_id,
                exc_info=True,
            )

    def _safely(self, operation: Callable[..., Any], *args: Any) -> Any:
        """A store operation; a store that fails refuses the call (closed, never open), as
        ``unavailable``: a retry may succeed once the store answers again."""
        try:
            return operation(*args)
        except Exception:
            log.warning("the gate's store failed in %s", operation.__name__, exc_info=True)
            raise _Closed from None

    def _write(self, event: AuditEvent, closing: bool) -> Generator[Any, Any, None]:
        """Give ``event`` to every audit sink; an async sink's coroutine goes to the driver to
        await. A sink that fails is logged, and the call's outcome stays as it is."""
        for sink in self.audit:
            try:
                written = sink(event)
                if inspect.isawaitable(written):
                    if closing:  # the call was abandoned: nothing can be awaited any more
                        getattr(written, "close", lambda: None)()
                        raise UsageError("an async audit sink cannot be awaited here")
                    yield written
            except Exception:
                log.error("an audit sink failed for request %r", event.request_id, exc_info=True)

    def _event(
        self,
        tool: GuardedTool,
        name: str,
        context: Any,
        request_id: str,
        trace: _Trace,
        started: float,
        clock: float,
    ) -> AuditEvent:
        request = trace.request
        approval = trace.approval
        return AuditEvent(
            request_id=request_id,
            tool=name,
            schema_digest=request.schema_digest if request else _schema_digest(tool),
            digest=request.digest if request else None,
            actor=request.actor if request else _identity_or_none(context)[1],
            tenant=request.tenant if request else _identity_or_none(context)[0],
            outcome=trace.outcome,
            code=trace.code,
            approval_id=approval.request_id if approval else None,
            approver=approval.approver if approval else None,
            effect_id=trace.effects[-1] if trace.effects else None,
            duration=time.perf_counter() - clock,
            time=started + (time.perf_counter() - clock),
        )


# -- helpers ---------------------------------------------------------------------------


def _sinks(audit: Any) -> tuple[Sink, ...]:
    """``audit`` as a tuple of sinks: one sink (a callable that is not a class), or an
    iterable of them."""
    if callable(audit) and not isinstance(audit, type):
        return (audit,)
    sinks = None
    if not isinstance(audit, (str, bytes, Mapping, type)):
        try:
            sinks = tuple(audit)
        except TypeError:
            pass
    if sinks is None:
        raise UsageError(
            "audit is a sink (a callable taking an AuditEvent) or a list of them, "
            f"not {_kind(audit)}"
        )
    for sink in sinks:
        if not callable(sink) or isinstance(sink, type):
            raise UsageError(
                f"audit holds sinks (callables taking an AuditEvent), not {_kind(sink)}"
            )
    return sinks


def _kind(value: Any) -> str:
    """What ``value`` is, for a message: its type's name, or for a class, that it is one."""
    if isinstance(value, type):
        return f"the class {value.__name__} (make one: {value.__name__}(...))"
    return type(value).__name__


def _budgets(budgets: Any) -> tuple[Budget, ...]:
    """``budgets`` as a tuple: one :class:`Budget`, or an iterable of them."""
    if isinstance(budgets, Budget):
        return (budgets,)
    try:
        held = tuple(budgets)
    except TypeError:
        raise UsageError(
            f"budgets is a Budget or a list of them, not {type(budgets).__name__}"
        ) from None
    for budget in held:
        if not isinstance(budget, Budget):
            raise UsageError(f"budgets are Budget objects, not {type(budget).__name__}")
    return held


def _whose(tenant: str | None, actor: str | None) -> str:
    """`` of actor 'a' of tenant 't'``, with whichever of the two is given: whose call."""
    return "".join(
        f" of {what} {clip(value)!r}"
        for value, what in ((actor, "actor"), (tenant, "tenant"))
        if value is not None
    )


def _stamp(moment: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(moment))


def _decided_already(approval: Approval, whose: str) -> str:
    """What a decision on a call decided already says: when it was decided (if recorded),
    which call, what became of it and by whom, and what to do now."""
    when = f"decided at {_stamp(approval.decided)}: " if approval.decided is not None else ""
    said = (
        f"{when}the call under request id {clip(approval.request_id)!r}{whose} "
        f"{approval.fate()}; a decision is made once"
    )
    if approval.status == "used":
        return (
            f"{said}: made again under this request id, the call answers from its receipt; "
            "to run the tool again, call it under a new request id"
        )
    if approval.status == "rejected":
        return (
            f"{said}: made again under this request id, the call is refused (denied); to ask "
            "again, call under a new request id"
        )
    if approval.expired():
        return f"{said}: made again under this request id, the call waits for a new decision"
    return said  # approved: made again by its caller, the call runs once


def _with_request_id(context: Any) -> tuple[str, Any]:
    """The call's request id (the caller's, else a new one) and the context holding it: a
    mapping gets the key (a copy); a typed context is read (its ``request_id`` attribute)
    and passed on as it is. A request id that is not a non-empty string is a
    :class:`~standard_tool.exceptions.UsageError`, never replaced by a new one (each retry
    would then run again)."""
    if context is None:
        request_id = uuid.uuid4().hex
        return request_id, {"request_id": request_id}
    if isinstance(context, Mapping):
        try:
            given = context.get("request_id")
        except Exception:
            raise UsageError("the call's context could not be read (its get raised)") from None
        request_id = uuid.uuid4().hex if given is None else _request_id_of(given)
        return request_id, {**context, "request_id": request_id}
    try:
        given = getattr(context, "request_id", None)
    except Exception:
        raise UsageError("the call's context could not be read (an attribute raised)") from None
    return (uuid.uuid4().hex if given is None else _request_id_of(given)), context


def _identity_or_none(context: Any) -> tuple[str | None, str | None]:
    """:func:`identity_of`, or no one where it refuses the context (for the audit event of a
    call refused for that)."""
    try:
        return identity_of(context)
    except UsageError:
        return None, None


def _schema_digest(tool: GuardedTool) -> str:
    held: str | None = tool.__dict__.get("_schema_digest")
    if held is None:
        held = tool.__dict__["_schema_digest"] = digest(input_json_schema(tool.wrapped))
    return held


def _awaited(answer: Any) -> bool:
    """Whether a step's answer is to be awaited (by the driver) before it is read; a bool or a
    Decision, what sync steps answer, is read at once."""
    return type(answer) is not bool and type(answer) is not Decision and inspect.isawaitable(answer)


def _decision(answer: Any, default: str) -> Decision:
    if isinstance(answer, Decision):
        return answer
    if answer is True:
        return Decision.allow()
    if answer is False:
        message = "What this call relies on has changed." if default == "stale" else _DENIED
        return Decision.deny(default, message)
    raise UsageError(f"a step answers a Decision or a bool, not {type(answer).__name__}")


def _bool(answer: Any, step: str) -> bool:
    if answer is True or answer is False:
        return answer
    raise UsageError(f"{step}() answers a bool, not {type(answer).__name__}")


def _held(decision: Decision | None) -> tuple[str, str]:
    if decision is None:
        return "held_for_review", "This call waits for a person's review."
    return decision.code or "held_for_review", decision.message or "This call waits for review."


def _secret_paths(tool: GuardedTool) -> tuple[tuple[str, ...], ...]:
    """Where the tool's input schema marks a value secret (``writeOnly: true``, or
    ``format: password``, as pydantic writes a ``SecretStr``): paths of property names, ``*``
    for every item of an array or every value of an open mapping; found once per tool."""
    held: tuple[tuple[str, ...], ...] | None = tool.__dict__.get("_secret_paths")
    if held is None:
        schema = input_json_schema(tool.wrapped)
        found: list[tuple[str, ...]] = []
        _find_secrets(schema, schema, (), found, 0)
        held = tool.__dict__["_secret_paths"] = tuple(found)
    return held


_SECRET_DEPTH = 32
"""Levels of an input schema looked through for secret values."""


def _find_secrets(
    node: Any, root: Any, path: tuple[str, ...], found: list[tuple[str, ...]], depth: int
) -> None:
    if not isinstance(node, Mapping) or depth > _SECRET_DEPTH:
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):  # one resolver, the dialects' own
        _find_secrets(lookup(root, ref[1:]), root, path, found, depth + 1)
    if node.get("writeOnly") is True or node.get("format") == "password":
        found.append(path)
        return
    for keyword in ("anyOf", "oneOf", "allOf"):
        branches = node.get(keyword)
        if isinstance(branches, list):
            for branch in branches:
                _find_secrets(branch, root, path, found, depth + 1)
    properties = node.get("properties")
    if isinstance(properties, Mapping):
        for name, sub in properties.items():
            _find_secrets(sub, root, (*path, str(name)), found, depth + 1)
    for keyword in ("items", "additionalProperties"):
        _find_secrets(node.get(keyword), root, (*path, "*"), found, depth + 1)


def _shown(arguments: Any, secrets: tuple[tuple[str, ...], ...]) -> Any:
    """The arguments as a person approving the call reads them: a copy, whole, but for the
    values at ``secrets``, which read :data:`_SECRET`."""
    shown = copy.deepcopy(arguments)
    for path in secrets:
        shown = _masked(shown, path)
    return shown


def _masked(value: Any, path: tuple[str, ...]) -> Any:
    if not path:
        return _SECRET
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        keys = list(value) if head == "*" else [head] if head in value else []
        for key in keys:
            value[key] = _masked(value[key], rest)
    elif isinstance(value, list) and head == "*":
        value[:] = [_masked(item, rest) for item in value]
    return value


def _message(error: StandardToolError) -> str:
    if isinstance(error, ToolValidationError):
        return str(error)
    message = getattr(error, "message", None)
    return f"The tool failed: {message}" if isinstance(message, str) else "The tool failed."


def _replay(
    receipt: Receipt, request: CallRequest, trace: _Trace, refuse: Callable[..., NoReturn]
) -> Any:
    """What a request id that already ran answers: its result, or its refusal, again."""
    _same_call(receipt, request, refuse)
    trace.outcome = "replayed"
    trace.effects = [receipt.effect_id] if receipt.effect_id else []
    if receipt.state == "failed":
        refuse(receipt.code or "failed", receipt.message or "The tool failed.")
    return receipt.result


def _same_call(
    held: Receipt | Approval, request: CallRequest, refuse: Callable[..., NoReturn]
) -> None:
    """A request id reused for another call (other arguments, tool or actor) is refused,
    whatever became of the call it was first used for."""
    if held.digest != request.digest:
        refuse("denied", "This request id belongs to another call.")


def _running(receipt: Receipt, now: float) -> bool:
    """Whether a claimed call may still be running (its lease has not run out)."""
    return receipt.state == "running" and receipt.lease_until > now


def _outcome(claim: Receipt, result: Any, effects: list[str]) -> Receipt:
    """The receipt of a claimed call that returned ``result``: ``succeeded`` with its JSON
    form (what a replay answers), or ``failed`` when it has none (:data:`_UNKEPT`), which a
    gate refuses loudly rather than keep a call that could run again."""
    effect = effects[-1] if effects else None
    try:
        kept = jsonable(result)
    except NotJsonError:
        return _ended(claim, "failed", code="failed", message=_UNKEPT, effect_id=effect)
    return _ended(claim, "succeeded", result=kept, effect_id=effect)


def _ended(
    claim: Receipt,
    state: Any,
    *,
    result: Any = None,
    code: str | None = None,
    message: str | None = None,
    effect_id: str | None = None,
) -> Receipt:
    """The receipt of a claimed call that has ended. A receipt is never changed once a store
    holds it (a :class:`MemoryStore` keeps the object itself): an outcome is a new one, made
    from the claim's fields (and its key, kept) at once."""
    ended: Receipt = object.__new__(Receipt)
    ended.__dict__ = {
        **claim.__dict__,
        "state": state,
        "result": result,
        "code": code,
        "message": message,
        "effect_id": effect_id,
        "finished": time.time(),
    }
    return ended
