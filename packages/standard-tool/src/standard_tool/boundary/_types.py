"""What the boundary's steps are given and answer, and what it records."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from .._text import clip
from ..exceptions import REFUSAL_CODES, UsageError
from ..schema._canonical import digest

__all__ = [
    "Approval",
    "AuditEvent",
    "CallRequest",
    "Decision",
    "Receipt",
    "call_digest",
    "key_part",
    "record_key",
]


@dataclass(frozen=True)
class Decision:
    """What a step says of a call: go on, refuse it (``deny``), or hold it (``hold``) with a
    refusal code (see :data:`standard_tool.exceptions.REFUSAL_CODES`) and a short message
    that a model may read."""

    verdict: Literal["allow", "deny", "hold"]
    code: str | None = None
    message: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in ("allow", "deny", "hold"):
            raise UsageError(f"a decision is 'allow', 'deny' or 'hold', not {self.verdict!r}")
        if self.verdict != "allow" and self.code not in REFUSAL_CODES:
            raise UsageError(
                f"a decision's code is one of {list(REFUSAL_CODES)}, not {self.code!r}"
            )

    @classmethod
    def allow(cls) -> Decision:
        return cls("allow")

    @classmethod
    def deny(cls, code: str = "denied", message: str = "This call is not allowed.") -> Decision:
        return cls("deny", code, message)

    @classmethod
    def hold(
        cls, code: str = "held_for_review", message: str = "This call waits for a person's review."
    ) -> Decision:
        return cls("hold", code, message)


def call_digest(
    tool: str, schema_digest: str, arguments: Any, actor: str | None, tenant: str | None = None
) -> str:
    """SHA-256 over the RFC 8785 canonical JSON of the tool's name, its input-schema digest,
    the arguments, the actor and the tenant: what a receipt and an approval are bound to."""
    return digest(
        {
            "tool": tool,
            "schema": schema_digest,
            "arguments": arguments,
            "actor": actor,
            "tenant": tenant,
        }
    )


def record_key(tenant: str | None, actor: str | None, request_id: str) -> str:
    """The key a store keeps a call's receipt and approval under: its request id within its
    tenant and actor, so that no caller reaches another's. Written so that no two triples give
    the same key (``-`` for none, else the length, a colon and the text), whatever a caller
    puts in a request id."""
    return f"{key_part(tenant)}/{key_part(actor)}/{request_id}"


def key_part(name: str | None) -> str:
    """A tenant or an actor as :func:`record_key` writes it: ``-`` for none, else the length,
    a colon and the text (no two names give the same part)."""
    return "-" if name is None else f"{len(name)}:{name}"


@dataclass(frozen=True, eq=False)
class CallRequest:
    """One call, as every step of a :class:`~standard_tool.boundary.Gate` sees it.

    ``arguments`` are the validated input (JSON data); ``context`` is the call's context
    (with ``request_id`` set); ``actor`` and ``tenant`` are read from the context.
    """

    tool: str
    arguments: Any
    context: Any
    actor: str | None
    tenant: str | None
    request_id: str
    schema_digest: str

    @classmethod
    def _make(
        cls,
        tool: str,
        arguments: Any,
        context: Any,
        actor: str | None,
        tenant: str | None,
        request_id: str,
        schema_digest: str,
    ) -> CallRequest:
        """The gate's own constructor, for every call: the fields set at once, without the
        frozen class's checked assignment of each."""
        request = object.__new__(cls)
        request.__dict__.update(
            tool=tool,
            arguments=arguments,
            context=context,
            actor=actor,
            tenant=tenant,
            request_id=request_id,
            schema_digest=schema_digest,
        )
        return request

    @property
    def digest(self) -> str:
        """:func:`call_digest` of this call (computed on first use, then kept)."""
        held: str | None = self.__dict__.get("_digest")
        if held is None:
            held = self.__dict__["_digest"] = call_digest(
                self.tool, self.schema_digest, self.arguments, self.actor, self.tenant
            )
        return held

    @property
    def key(self) -> str:
        """:func:`record_key` of this call: where its receipt and approval are kept."""
        held: str | None = self.__dict__.get("_key")
        if held is None:
            held = self.__dict__["_key"] = record_key(self.tenant, self.actor, self.request_id)
        return held


@dataclass
class Approval:
    """A held call's approval request and its fate, kept in the store under its
    :attr:`key` (the request id within the call's tenant and actor).

    ``arguments`` are the call's arguments exactly as they will run, but for the values of
    parameters the tool's input schema marks secret (``writeOnly``, or ``format: password``),
    which read ``"<secret>"``; ``summary`` is their JSON text, whole. ``digest`` binds the
    approval to the real arguments. ``status`` is ``pending`` until a person decides
    (``approved`` or ``rejected``); an approval is ``used`` by the one call it lets through.
    ``created`` is when the call was held and ``decided`` when a person decided on it (both
    ``time.time()``; ``decided`` is ``None`` while it waits, and in a record that has no such
    field, which :meth:`from_json` reads as well).
    """

    request_id: str
    tool: str
    digest: str
    summary: str
    actor: str | None = None
    tenant: str | None = None
    status: Literal["pending", "approved", "rejected", "used"] = "pending"
    approver: str | None = None
    reason: str | None = None
    created: float = 0.0
    decided: float | None = None
    expires_at: float | None = None
    arguments: Any = None

    @property
    def key(self) -> str:
        """:func:`record_key` of this approval's call."""
        return record_key(self.tenant, self.actor, self.request_id)

    def fate(self) -> str | None:
        """What became of this approval's call, in words (``was approved by 'bob' and has
        run``), or ``None`` while it waits for a decision."""
        if self.status == "pending":
            return None
        by = f" by {clip(self.approver)!r}" if self.approver else ""
        if self.expired():
            return f"was approved{by}, and the approval expired before the call ran"
        return {
            "approved": f"was approved{by} and has not run yet",
            "used": f"was approved{by} and has run",
            "rejected": f"was rejected{by}",
        }.get(self.status, f"is {self.status}")

    def expired(self, now: float | None = None) -> bool:
        """Whether this approval was approved, has not been used, and is past its
        ``expires_at`` (at ``now``, default: this moment): the call made again is held for a
        new decision."""
        if self.status != "approved" or self.expires_at is None:
            return False
        return self.expires_at <= (time.time() if now is None else now)

    def request(self) -> dict[str, Any]:
        """What a person is shown: the request id, the tool, whose call it is (tenant and
        actor), the arguments as they will run (secret values hidden), their JSON text whole
        (``summary``), and the digest the approval is bound to."""
        return {
            "id": self.request_id,
            "tool": self.tool,
            "tenant": self.tenant,
            "actor": self.actor,
            "arguments": self.arguments,
            "summary": self.summary,
            "digest": self.digest,
        }

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Approval:
        return cls(**json.loads(text))


@dataclass
class Receipt:
    """What a request id did, kept in the store under its :attr:`key` (the request id within
    the call's tenant and actor): claimed (``running``), then ``succeeded`` with its result
    (its JSON form: JSON data, what a replay answers), ``failed`` with a refusal code and
    message, or ``unknown_outcome`` (its outcome cannot be known: a running claim whose lease,
    ``lease_until``, has passed reads as that too)."""

    request_id: str
    tool: str
    digest: str
    state: Literal["running", "succeeded", "failed", "unknown_outcome"] = "running"
    result: Any = None
    code: str | None = None
    message: str | None = None
    effect_id: str | None = None
    started: float = 0.0
    finished: float | None = None
    lease_until: float = 0.0
    tenant: str | None = None
    actor: str | None = None

    @property
    def key(self) -> str:
        """:func:`record_key` of this receipt's call (computed on first use, then kept: a
        receipt's call never changes)."""
        held: str | None = self.__dict__.get("_key")
        if held is None:
            held = self.__dict__["_key"] = record_key(self.tenant, self.actor, self.request_id)
        return held

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Receipt:
        return cls(**json.loads(text))


@dataclass(frozen=True)
class AuditEvent:
    """One call through a gate, as an audit sink records it: never the arguments or the
    result themselves (``digest`` stands for the arguments), never a context value.

    ``outcome`` is ``succeeded``, ``refused`` (``code`` says why), ``failed``, ``timeout``,
    ``unknown_outcome``, ``replayed`` (a receipt answered) or ``reconciled``.
    """

    request_id: str
    tool: str
    schema_digest: str
    digest: str | None
    actor: str | None
    tenant: str | None
    outcome: str
    code: str | None = None
    approval_id: str | None = None
    approver: str | None = None
    effect_id: str | None = None
    duration: float = 0.0
    time: float = 0.0
    attributes: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
