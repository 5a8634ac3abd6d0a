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
import inspect
import json
import logging
import time
import uuid
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from .._protocols import StandardTool
from .._text import clip
from ..exceptions import (
    REFUSAL_CODES,
    StandardToolError,
    ToolRefusedError,
    ToolTimeoutError,
    ToolValidationError,
    UsageError,
)
from ..plugins._metadata import adopt_each, is_one
from ..plugins._registry import adopt
from ..run._call import acall, call
from ..run._redact import secrets_of
from ..run._waiting import run_sync
from ..schema._canonical import digest
from ..schema._json import json_issues
from ..tools._json_schemas import input_json_schema
from ..tools._wrapper import WrapperTool
from ._budget import Budget
from ._store import Bucket, MemoryStore, Store
from ._types import Approval, AuditEvent, CallRequest, Decision, Receipt

__all__ = ["Gate", "GuardedTool", "guarded_of", "report_effect", "with_request_id"]

log = logging.getLogger("standard_tool.boundary")

_UNKNOWN = "Unknown tool: {name!r}."
"""What a hidden tool reads as: the words every unknown tool gets."""
_DENIED = "This call is not allowed."
_RUNNING = "This call is still running; its outcome is not known yet."
_SUMMARY = 500
"""Characters of a held call's arguments shown to the person asked to approve it."""
_LEASE = 300.0
"""Seconds a claimed request id is held by a call with no time limit of its own; past it,
a process that died mid-call leaves an outcome that reads as unknown."""

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


class _Closed(Exception):
    """A store operation failed: the call is refused (closed, never open)."""


class GuardedTool(WrapperTool):
    """A standard tool behind a :class:`Gate`: the same definition, every call through the gate."""

    def __init__(self, wrapped: StandardTool, gate: Gate) -> None:
        super().__init__(wrapped)
        self.gate = gate

    def run(self, input: Any, context: Any) -> Any:
        return self.gate._drive(self, input, context)

    async def arun(self, input: Any, context: Any) -> Any:
        return await self.gate._adrive(self, input, context)

    def __repr__(self) -> str:
        return f"GuardedTool({self.wrapped!r})"


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


def with_request_id(tool: Any, context: Any, call_id: Any) -> Any:
    """The context an adapter hands a call of ``tool``: with the framework's own call id as
    ``request_id`` when ``tool`` is guarded (its gate runs a request id once) and the context is
    a mapping, or none, that has no request id; else ``context`` as it is."""
    if not isinstance(call_id, str) or not call_id or guarded_of(tool) is None:
        return context
    if context is None:
        return {"request_id": call_id}
    if isinstance(context, Mapping) and context.get("request_id") is None:
        return {**context, "request_id": call_id}
    return context


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
    :class:`MemoryStore`); ``budgets`` are :class:`Budget` limits; ``audit`` are sinks (sync
    or async), each called with one :class:`AuditEvent` per call; a sink that fails is logged
    and changes nothing. A step that raises, or answers something else than it should (a
    Decision or a bool; a bool for ``visible`` and ``approvals``), fails closed: the call is
    refused (``denied``; ``not_found`` for ``visible``), and the reason is logged for the
    developer on the ``standard_tool.boundary`` logger, not shown to the model.

    A request id names one call (its tool, arguments and actor): reused for another call it is
    refused (``denied``); while its call runs, it is refused as ``unknown_outcome``. Budgets
    are spent only by a call that runs: taken together (all or none) once the call holds its
    request id, given back when its approval cannot be used; a replay spends none.

    The caller's identity comes in the call's context: ``context["actor"]``,
    ``context["tenant"]``, and ``context["request_id"]`` when the caller has one (else one is
    made); the tool sees the request id in ``context["request_id"]``.
    """

    def __init__(
        self,
        policy: Step | None = None,
        visible: Callable[[StandardTool, Any], Any] | None = None,
        freshness: Step | None = None,
        approvals: Step | None = None,
        reconcile: Step | None = None,
        store: Store | None = None,
        budgets: Iterable[Budget] = (),
        audit: Iterable[Callable[[AuditEvent], Any]] = (),
    ) -> None:
        self.policy = policy
        self.visibility = visible
        self.freshness = freshness
        self.approvals = approvals
        self.reconcile = reconcile
        self.store: Store = MemoryStore() if store is None else store
        self.budgets = tuple(budgets)
        self.audit = tuple(audit)
        for budget in self.budgets:
            if not isinstance(budget, Budget):
                raise UsageError(f"budgets are Budget objects, not {type(budget).__name__}")

    # -- what an app calls -------------------------------------------------------------

    def guard(self, tools: Any) -> Any:
        """``tools`` behind this gate: one tool (anything ``st.adopt`` takes) gives one
        :class:`GuardedTool`, several give a list."""
        if is_one(tools):
            return GuardedTool(adopt(tools), self)
        return [GuardedTool(tool, self) for tool in adopt_each(tools)]

    def visible(self, tools: Any, context: Any = None) -> list[StandardTool]:
        """The tools of ``tools`` this caller sees (the rule that also refuses their calls);
        ``tools`` may be guarded already: the rule is then given the tool it guards, as in a
        call."""
        return [tool for tool in adopt_each(tools) if self._sees(tool, context)]

    def approve(self, request_id: str, *, approver: str, expires_in: float | None = None) -> None:
        """Approve the held call ``request_id``: the same call, made again with that request id
        and the same arguments, runs once (before ``expires_in`` seconds, when given)."""
        if expires_in is not None and (
            type(expires_in) not in (int, float) or not 0 < expires_in < float("inf")
        ):
            raise UsageError(f"expires_in is a positive number of seconds, not {expires_in!r}")
        approval = self._pending(request_id)
        approval.status = "approved"
        approval.approver = approver
        approval.expires_at = None if expires_in is None else time.time() + expires_in
        self.store.save_approval(approval)

    def reject(self, request_id: str, *, approver: str, reason: str = "") -> None:
        """Reject the held call ``request_id``: made again, it is refused (``denied``)."""
        approval = self._pending(request_id)
        approval.status = "rejected"
        approval.approver = approver
        approval.reason = reason
        self.store.save_approval(approval)

    def pending(self, request_id: str) -> Approval | None:
        """The approval request of ``request_id``, if a call waits under it."""
        approval = self.store.approval(request_id)
        return approval if approval is not None and approval.status == "pending" else None

    def disable(self, name: str) -> None:
        """Switch the tool ``name`` off: from the next call on, in every process sharing the
        store, its calls are refused (``disabled``)."""
        self.store.set_disabled(name, True)

    def enable(self, name: str) -> None:
        """Switch the tool ``name`` on again."""
        self.store.set_disabled(name, False)

    # -- the lifecycle -------------------------------------------------------------------

    def _pending(self, request_id: str) -> Approval:
        approval = self.store.approval(request_id)
        if approval is None or approval.status != "pending":
            raise UsageError(f"no call waits for approval under request id {clip(request_id)!r}")
        return approval

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

    def _drive(self, tool: GuardedTool, input: Any, context: Any) -> Any:
        steps = self._lifecycle(tool, input, context)
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

    async def _adrive(self, tool: GuardedTool, input: Any, context: Any) -> Any:
        steps = self._lifecycle(tool, input, context)
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
        request_id, context = _with_request_id(context)
        trace = _Trace()
        closing = False
        try:
            result = yield from self._steps(tool, name, input, context, request_id, trace)
            return result
        except ToolRefusedError as refusal:
            trace.code = trace.code or refusal.code
            raise
        except _Closed:
            trace.code = "denied"
            raise ToolRefusedError(name, "denied", _DENIED, request_id) from None
        except GeneratorExit:  # closed mid-call: the event is still written, nothing awaited
            closing = True
            raise
        finally:
            if self.audit:
                event = self._event(tool, name, context, request_id, trace, started, clock)
                yield from self._write(event, closing)

    def _steps(
        self, tool: GuardedTool, name: str, input: Any, context: Any, request_id: str, trace: _Trace
    ) -> Generator[Any, Any, Any]:
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

        if self._safely(self.store.is_disabled, name):
            refuse("disabled", "This tool is switched off.")

        actor, tenant = _identity(context)
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
        done = self._safely(self.store.receipt, request_id)
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
            trace.approval = self._approval(request, held, trace, refuse)

        # Run once under the request id (a receipt answers a repeat), its budgets taken and its
        # approval used once the id is claimed.
        result = yield from self._once(tool, request, wanted, trace, refuse)
        return result

    def _approval(
        self,
        request: CallRequest,
        held: Decision | None,
        trace: _Trace,
        refuse: Callable[..., NoReturn],
    ) -> Approval:
        """The approval this call may run under; else the call is held, or refused.

        An approval request is bound to its call: another call under the same request id is
        refused, so that what a person approves is always what they were shown."""
        approval: Approval | None = self._safely(self.store.approval, request.request_id)
        now = time.time()
        if approval is not None:
            _same_call(approval, request, refuse)
            trace.approval = approval
            if approval.status == "rejected":
                refuse("denied", "A person rejected this call.")
            if approval.status == "approved" and (
                approval.expires_at is None or approval.expires_at > now
            ):
                return approval
            if approval.status == "pending":
                refuse(*_held(held), approval.request())
        # None yet, expired or used: a new request to a person.
        fresh = Approval(
            request_id=request.request_id,
            tool=request.tool,
            digest=request.digest,
            summary=_summary(request),
            actor=request.actor,
            tenant=request.tenant,
            created=now,
        )
        self._safely(self.store.save_approval, fresh)
        trace.approval = fresh
        refuse(*_held(held), fresh.request())

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
        )
        held = self._safely(self.store.claim, claim)
        if held is not None:
            _same_call(held, request, refuse)
            if held.state in ("succeeded", "failed"):
                return _replay(held, request, trace, refuse)
            if _running(held, now):
                refuse("unknown_outcome", _RUNNING)
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
        self._spend(request, claim, held, wanted, trace, refuse)

        effects: list[str] = []
        trace.effects = effects
        token = _effects.set(effects)
        try:
            result = yield _Run(request.arguments, request.context)
        except ToolTimeoutError:
            message = "The tool did not finish in time."
            self._keep(_ended(claim, "unknown_outcome", code="timeout", message=message))
            trace.outcome = "timeout"
            refuse("timeout", "The tool did not finish in time; its outcome is not known.")
        except ToolRefusedError:
            self._keep(_ended(claim, "failed", code="failed", message="The tool refused the call."))
            raise
        except StandardToolError as error:
            message = _message(error)
            self._keep(_ended(claim, "failed", code="failed", message=message))
            trace.outcome = "failed"
            refuse("failed", message)
        finally:
            _effects.reset(token)
        effect = effects[-1] if effects else None
        self._keep(_ended(claim, "succeeded", result=result, effect_id=effect))
        trace.outcome = "succeeded"
        return result

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
                    self.store.use_approval, request.request_id, request.digest, time.time()
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
        """A store operation; a store that fails refuses the call (closed, never open)."""
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
            actor=request.actor if request else _identity(context)[0],
            tenant=request.tenant if request else _identity(context)[1],
            outcome=trace.outcome,
            code=trace.code,
            approval_id=approval.request_id if approval else None,
            approver=approval.approver if approval else None,
            effect_id=trace.effects[-1] if trace.effects else None,
            duration=time.perf_counter() - clock,
            time=started + (time.perf_counter() - clock),
        )


# -- helpers ---------------------------------------------------------------------------


def _with_request_id(context: Any) -> tuple[str, Any]:
    """The call's request id (the caller's, else a new one) and the context holding it."""
    if context is None:
        request_id = uuid.uuid4().hex
        return request_id, {"request_id": request_id}
    if isinstance(context, Mapping):
        given = context.get("request_id")
        request_id = given if isinstance(given, str) and given else uuid.uuid4().hex
        return request_id, {**context, "request_id": request_id}
    return uuid.uuid4().hex, context  # a context that is not a mapping cannot carry one


def _identity(context: Any) -> tuple[str | None, str | None]:
    if not isinstance(context, Mapping):
        return None, None
    actor, tenant = context.get("actor"), context.get("tenant")
    return (
        actor if isinstance(actor, str) else None,
        tenant if isinstance(tenant, str) else None,
    )


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


def _summary(request: CallRequest) -> str:
    """The arguments for a person to read: no value of the call's context, clipped."""
    text = json.dumps(request.arguments, ensure_ascii=False, sort_keys=True, default=str)
    text = secrets_of(request.context).redact(text, (request.tool,))
    return text if len(text) <= _SUMMARY else text[: _SUMMARY - 3] + "..."


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
    holds it (a :class:`MemoryStore` keeps the object itself): an outcome is a new one."""
    return Receipt(
        request_id=claim.request_id,
        tool=claim.tool,
        digest=claim.digest,
        state=state,
        result=result,
        code=code,
        message=message,
        effect_id=effect_id,
        started=claim.started,
        finished=time.time(),
        lease_until=claim.lease_until,
    )
