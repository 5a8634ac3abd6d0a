"""Cedar policies as a gate's ``policy`` step (the ``cedar`` extra, which installs ``cedarpy``)."""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._text import clip
from ..exceptions import UsageError
from ._types import CallRequest, Decision

__all__ = ["CedarPolicy"]

_log = logging.getLogger("standard_tool.boundary")

Entities = Sequence[Mapping[str, Any]]
EntitiesSource = Entities | Callable[[CallRequest], Entities]


def _cedarpy() -> Any:
    """The ``cedarpy`` module, imported when a policy is made (it is an optional extra)."""
    try:
        return importlib.import_module("cedarpy")
    except ImportError as error:
        raise UsageError(
            "CedarPolicy needs cedarpy: install standard-tool[cedar] "
            "(pip install 'standard-tool[cedar]')"
        ) from error


def _read(policies: str | Path) -> str:
    if isinstance(policies, Path):
        try:
            return policies.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(
                f"cannot read the Cedar policies in {str(policies)!r}: {error}"
            ) from error
    if isinstance(policies, str):
        return policies
    raise UsageError(
        f"Cedar policies are policy text or a pathlib.Path, not {type(policies).__name__}"
    )


_ESCAPES = frozenset({"__entity", "__extn", "__expr"})
"""The keys Cedar's JSON reserves: a record holding ``__entity`` (or ``__extn``) alone is read as
an entity reference (or an extension value), and ``__expr`` is an error. Cedar itself refuses to
write a record with any of them as JSON."""
_LONG = range(-(2**63), 2**63)
"""Cedar's ``Long``: a signed 64-bit integer."""


_Where = tuple[Any, str] | None
"""Where a value is in the arguments: its parent's place and its own key or index."""


def _path(where: _Where) -> str:
    """``where`` as text (``at owner[0].id``), cut short when it is long."""
    parts: list[str] = []
    while where is not None:
        where, part = where
        parts.append(part)
    text = "".join(reversed(parts)).lstrip(".")
    return f"at {clip(text, 200)}" if text else "at the top level"


def _not_plain(arguments: dict[str, Any]) -> str | None:
    """Why ``arguments`` cannot reach Cedar as plain records, sets, strings, longs and booleans,
    or ``None`` when they can. Every level is looked at, however deep; the reason says where
    the first offending value is, never the value itself."""
    pending: list[tuple[Any, _Where]] = [(arguments, None)]
    while pending:
        value, where = pending.pop()
        if isinstance(value, bool | str):
            continue
        if isinstance(value, int):
            if value not in _LONG:
                return f"an integer beyond 64 bits ({_path(where)})"
        elif isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    return f"a key that is not a string ({_path(where)})"
                if key in _ESCAPES:
                    return f"the key {key!r}, reserved by Cedar's JSON ({_path(where)})"
                pending.append((item, (where, f".{key}")))
        elif isinstance(value, list | tuple):
            pending.extend((item, (where, f"[{i}]")) for i, item in enumerate(value))
        elif isinstance(value, float):
            return f"a floating-point number, which Cedar does not have ({_path(where)})"
        elif value is None:
            return f"null, which Cedar does not have ({_path(where)})"
        else:
            return f"a {type(value).__name__}, which is not JSON data ({_path(where)})"
    return None


class CedarPolicy:
    """A gate's ``policy`` step that asks Cedar (https://www.cedarpolicy.com) about each call.

    ``policies`` is Cedar policy text, or a :class:`pathlib.Path` to a ``.cedar`` file (read
    once, here). ``entities`` is the entity data Cedar reads (a list of entities in Cedar's
    JSON form), or a callable ``(CallRequest) -> list`` asked on every call, so that an app
    can load the caller and the records the call touches. Each call is the Cedar request:

    - principal ``User::"<actor>"`` (the call's actor; a call without one is denied);
    - action ``Action::"<tool name>"``;
    - resource ``Tool::"<tool name>"``, or the entity uid that ``target(request)`` returns
      for a call about one record: Cedar text such as ``Customer::"c-1"``, or
      ``{"type": "Customer", "id": "c-1"}`` (any id as it is, quotes included);
    - context: the arguments (a JSON object), with ``tenant`` set to the call's tenant (a
      string) when it has one. An argument named ``tenant`` is always left out, so that
      ``context.tenant`` is the call's tenant, never a value the model wrote.

    The model writes the arguments, so they reach Cedar as plain values only: objects as
    records, arrays as sets, strings, integers as longs, booleans. Cedar's JSON reads an object
    holding only ``__entity`` as an entity reference and one holding only ``__extn`` as an
    extension value (``ip``, ``decimal``, ``unknown``), which would let a model write
    ``{"owner": {"__entity": {"type": "User", "id": "alice"}}}`` and satisfy
    ``context.owner == principal``. A call whose arguments hold the key ``__entity``,
    ``__extn`` or ``__expr`` anywhere, in any object, is therefore denied, the key and where it
    is logged: renaming the key would show the policy arguments other than the ones the tool
    gets, and Cedar itself refuses to write a record with these keys as JSON. Everything else
    stays what it is: an object of ``type`` and ``id`` is a record, ``User::"alice"`` is a
    string, an array may mix types. Entity references come from the server side only: the
    principal, the resource, and the entity data (where ``__entity`` keeps its meaning).

    Cedar allowing the call gives :meth:`Decision.allow`; anything else gives
    ``Decision.deny(deny_code, deny_message)``: Cedar denying it, or anything going wrong
    (policies or entities that do not parse, Cedar reporting an error for the request, such
    as a policy reading an attribute that is not there, which would otherwise skip a
    ``forbid``; arguments Cedar cannot take: a reserved key, ``null``, floats, integers beyond
    64 bits, keys that are not strings, values that are not JSON data; an exception from
    ``entities`` or ``target``). What went wrong is logged as a warning on the
    ``standard_tool.boundary`` logger, never shown to the model; a policy or entity list
    that does not parse is also kept in :attr:`error`. ``deny_code`` ``"not_found"`` makes
    another tenant's record read like one that does not exist.
    """

    error: str | None
    """Why every call is denied (the policies or the fixed entities do not parse), or ``None``."""

    def __init__(
        self,
        policies: str | Path,
        entities: EntitiesSource | None = None,
        *,
        target: Callable[[CallRequest], str | Mapping[str, str]] | None = None,
        deny_code: str = "denied",
        deny_message: str = "This call is not allowed.",
    ) -> None:
        self._cedar = _cedarpy()
        text = _read(policies)
        self._denial = Decision.deny(deny_code, deny_message)
        if target is not None and not callable(target):
            raise UsageError("a CedarPolicy's target is a callable (CallRequest) -> entity uid")
        self._target = target
        self.error = None
        self._policies: Any = None
        self._entities: Any = None
        self._entities_for: Callable[[CallRequest], Entities] | None = None
        try:
            self._policies = self._cedar.PolicySet.from_str(text)
        except Exception as error:  # cedarpy raises ValueError; whatever it raises denies
            self._fail(f"the Cedar policies do not parse: {error}")
        if callable(entities):
            self._entities_for = entities
        elif entities is None or (
            isinstance(entities, Sequence) and not isinstance(entities, (str, bytes))
        ):
            try:
                self._entities = self._cedar.Entities.from_json_str(json.dumps(entities or []))
            except Exception as error:  # not JSON, or not Cedar entities
                self._fail(f"the Cedar entities do not parse: {error}")
        else:
            raise UsageError(
                "a CedarPolicy's entities are a list of Cedar entities or a callable "
                f"(CallRequest) -> list, not {type(entities).__name__}"
            )

    def _fail(self, error: str) -> None:
        self.error = error
        _log.warning("CedarPolicy denies every call: %s", clip(error, 1000))

    def __call__(self, request: CallRequest) -> Decision:
        try:
            allowed, errors = self._ask(request)
        except Exception as error:  # from entities(), target() or cedarpy: fail closed
            allowed, errors = False, [f"{type(error).__name__}: {error}"]
        if errors:
            _log.warning(
                "Cedar denied %r (request %s): %s",
                request.tool,
                request.request_id,
                "; ".join(clip(str(e), 500) for e in errors),
            )
        return Decision.allow() if allowed and not errors else self._denial

    def _ask(self, request: CallRequest) -> tuple[bool, list[str]]:
        """Whether Cedar allows the call, and the errors it (or this mapping) reports."""
        if self.error is not None:
            return False, [self.error]
        if not request.actor:
            return False, ["the call has no actor (the Cedar principal)"]
        if not isinstance(request.arguments, dict):
            return False, ["the arguments are not a JSON object (the Cedar context)"]
        context = {k: v for k, v in request.arguments.items() if k != "tenant"}
        refused = _not_plain(context)
        if refused is not None:
            return False, [f"the arguments hold {refused}"]
        if request.tenant is not None:
            context["tenant"] = request.tenant
        resource: Any = {"type": "Tool", "id": request.tool}
        if self._target is not None:
            resource = self._target(request)
            if isinstance(resource, Mapping):
                resource = {"type": resource.get("type"), "id": resource.get("id")}
            elif not isinstance(resource, str):
                return False, [f"target() gave {type(resource).__name__}, not an entity uid"]
        entities = self._entities
        if self._entities_for is not None:
            entities = [dict(entity) for entity in self._entities_for(request)]
        result = self._cedar.is_authorized(
            {
                "principal": {"type": "User", "id": request.actor},
                "action": {"type": "Action", "id": request.tool},
                "resource": resource,
                "context": context,
            },
            self._policies,
            entities,
        )
        errors = [str(error) for error in result.diagnostics.errors]
        _log.debug(
            "Cedar: %s %r (request %s), policies %s",
            result.decision,
            request.tool,
            request.request_id,
            list(result.diagnostics.reasons),
        )
        return result.allowed is True, errors
