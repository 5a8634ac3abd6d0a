"""CedarPolicy: real Cedar policy files (``data/``) deciding calls of a small CRM."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from standard_tool.boundary import CedarPolicy
from standard_tool.boundary._types import CallRequest, Decision
from standard_tool.exceptions import UsageError

DATA = Path(__file__).parent / "data"
CRM = DATA / "crm.cedar"
ENTITIES: list[dict[str, Any]] = json.loads((DATA / "crm_entities.json").read_text())
ALLOW = Decision.allow()
NOT_FOUND = "No such customer."


def call(
    tool: str = "create_task_draft",
    arguments: Any = None,
    *,
    actor: str | None = "alice",
    tenant: str | None = "acme",
) -> CallRequest:
    if arguments is None:
        arguments = {"customer_id": "c-1", "summary": "Call back about the renewal"}
    return CallRequest(
        tool=tool,
        arguments=arguments,
        context={"actor": actor, "tenant": tenant},
        actor=actor,
        tenant=tenant,
        request_id="r-1",
        schema_digest="0" * 64,
    )


def customer(request: CallRequest) -> str:
    """The record a call is about, as an entity uid."""
    return f'Customer::"{request.arguments["customer_id"]}"'


def crm(**options: Any) -> CedarPolicy:
    return CedarPolicy(CRM, ENTITIES, target=customer, **options)


def test_a_customer_of_the_users_tenant_is_allowed() -> None:
    assert crm()(call()) == ALLOW


def test_another_tenants_customer_reads_as_not_found() -> None:
    policy = crm(deny_code="not_found", deny_message=NOT_FOUND)
    decision = policy(call(arguments={"customer_id": "c-2", "summary": "Hello"}))
    assert decision == Decision.deny("not_found", NOT_FOUND)
    # the same user, the same tool, a customer of their own tenant
    assert policy(call()) == ALLOW


def test_a_denial_without_a_chosen_code_is_denied() -> None:
    decision = crm()(call(actor="carol", tenant="globex"))
    assert decision == Decision.deny("denied", "This call is not allowed.")


def test_an_action_no_rule_permits_is_denied() -> None:
    assert crm()(call("delete_customer", {"customer_id": "c-1"})).verdict == "deny"


def test_a_forbid_rule_overrides_the_permit() -> None:
    assert crm()(call(actor="dave")).verdict == "deny"  # suspended


def test_a_context_condition_on_an_argument() -> None:
    policy = crm()
    leaky = {"customer_id": "c-1", "summary": "the password is hunter2"}
    assert policy(call(arguments=leaky)).verdict == "deny"
    sent = {"customer_id": "c-1", "summary": "Renewal", "send_now": True}
    assert policy(call(arguments=sent)).verdict == "deny"
    assert policy(call(arguments=sent, actor="bob")) == ALLOW  # a manager
    assert policy(call(arguments={**sent, "send_now": False})) == ALLOW


def test_the_tenant_in_the_context_is_the_calls_never_an_arguments() -> None:
    policy = CedarPolicy(CRM, ENTITIES)
    assert policy(call("list_tasks", {}, tenant="acme")) == ALLOW
    assert policy(call("list_tasks", {"tenant": "acme"}, tenant="globex")).verdict == "deny"
    assert policy(call("list_tasks", {"tenant": "acme"}, tenant=None)).verdict == "deny"


def test_policies_may_be_given_as_text() -> None:
    policy = CedarPolicy(CRM.read_text(encoding="utf-8"), ENTITIES, target=customer)
    assert policy(call()) == ALLOW
    assert policy(call(actor="dave")).verdict == "deny"


def test_a_policy_file_that_does_not_parse_denies_every_call(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="standard_tool.boundary"):
        policy = CedarPolicy(DATA / "broken.cedar", ENTITIES)
        decision = policy(call())
    assert decision.verdict == "deny"
    assert policy.error is not None and "do not parse" in policy.error
    assert "do not parse" in caplog.text
    # what went wrong stays with the developer: the model reads the deny message only
    assert "parse" not in decision.message


def test_entities_that_do_not_parse_deny_every_call() -> None:
    policy = CedarPolicy(CRM, [{"uid": "not an entity"}], target=customer)
    assert policy.error is not None
    assert policy(call()).verdict == "deny"


def test_a_rule_cedar_reports_an_error_for_denies(caplog: pytest.LogCaptureFixture) -> None:
    """Cedar skips a forbid rule that errors; the call is denied all the same."""
    import cedarpy

    policy = CedarPolicy(DATA / "unguarded.cedar", ENTITIES, target=customer)
    arguments = {"customer_id": "c-1", "summary": "Renewal"}  # no send_now
    request = {
        "principal": 'User::"alice"',
        "action": 'Action::"create_task_draft"',
        "resource": 'Customer::"c-1"',
        "context": arguments,
    }
    plain = cedarpy.is_authorized(request, (DATA / "unguarded.cedar").read_text(), ENTITIES)
    assert plain.allowed and plain.diagnostics.errors  # what Cedar alone answers
    with caplog.at_level(logging.WARNING, logger="standard_tool.boundary"):
        assert policy(call(arguments=arguments)).verdict == "deny"
    assert "send_now" in caplog.text
    assert policy(call(arguments={**arguments, "send_now": False})) == ALLOW


def test_the_entities_callable_is_asked_on_every_call() -> None:
    database = {entity["uid"]["id"]: entity for entity in ENTITIES}
    asked: list[CallRequest] = []

    def entities(request: CallRequest) -> list[dict[str, Any]]:
        asked.append(request)
        assert request.actor is not None
        return [database[request.actor], database[request.arguments["customer_id"]]]

    policy = CedarPolicy(CRM, entities, target=customer)
    first = call()
    assert policy(first) == ALLOW
    assert asked == [first]
    # the customer moves to another tenant: the next call sees it
    database["c-1"] = {**database["c-1"], "attrs": {"tenant": "globex"}}
    assert policy(call()).verdict == "deny"
    assert len(asked) == 2


def test_an_entities_callable_that_raises_denies(caplog: pytest.LogCaptureFixture) -> None:
    def entities(request: CallRequest) -> list[dict[str, Any]]:
        raise LookupError("the customer database is down")

    with caplog.at_level(logging.WARNING, logger="standard_tool.boundary"):
        decision = CedarPolicy(CRM, entities, target=customer)(call())
    assert decision.verdict == "deny"
    assert "database is down" in caplog.text
    assert "database" not in decision.message


def test_a_target_that_raises_or_gives_no_uid_denies() -> None:
    assert CedarPolicy(CRM, ENTITIES, target=lambda r: r.arguments["missing"])(call()).verdict == (
        "deny"
    )
    assert CedarPolicy(CRM, ENTITIES, target=lambda r: 7)(call()).verdict == "deny"  # type: ignore[arg-type,return-value]
    assert CedarPolicy(CRM, ENTITIES, target=lambda r: "not a uid")(call()).verdict == "deny"


def by_type_and_id(request: CallRequest) -> dict[str, str]:
    return {"type": "Customer", "id": request.arguments["customer_id"]}


def test_a_target_may_give_the_uid_as_type_and_id() -> None:
    by_id = CedarPolicy(CRM, ENTITIES, target=by_type_and_id)
    assert by_id(call()) == ALLOW
    assert by_id(call(arguments={"customer_id": "c-2"})).verdict == "deny"
    quoted = call(arguments={"customer_id": 'c"1'})  # an id as it is, not Cedar text
    assert by_id(quoted).verdict == "deny"  # no such customer
    exact = 'permit (principal, action, resource == Customer::"c\\"1");'
    assert CedarPolicy(exact, target=by_type_and_id)(quoted) == ALLOW


def test_a_call_without_an_actor_is_denied() -> None:
    permissive = CedarPolicy("permit (principal, action, resource);")
    assert permissive(call()) == ALLOW
    assert permissive(call(actor=None)).verdict == "deny"
    assert permissive(call(actor="")).verdict == "deny"


def test_an_actor_name_is_an_id_never_cedar_text() -> None:
    policy = CedarPolicy('permit (principal == User::"alice", action, resource);')
    assert policy(call(actor="alice")) == ALLOW
    assert policy(call(actor='alice", x')).verdict == "deny"
    quoted = CedarPolicy('permit (principal == User::"o\\"brien", action, resource);')
    assert quoted(call(actor='o"brien')) == ALLOW
    assert policy(call(actor='x" || principal == User::"alice')).verdict == "deny"


def test_arguments_cedar_cannot_take_deny() -> None:
    permissive = CedarPolicy("permit (principal, action, resource);")
    assert permissive(call("t", {"note": None})).verdict == "deny"  # Cedar has no null
    assert permissive(call("t", {"price": 1.5})).verdict == "deny"  # nor floats
    assert permissive(call("t", ["not", "an", "object"])).verdict == "deny"


OWNER = "permit (principal, action, resource) when { context.owner == principal };"
"""A rule that a model could satisfy if an argument could be read as an entity reference."""
ALICE = {"type": "User", "id": "alice"}


@pytest.mark.parametrize(
    "arguments",
    [
        {"owner": {"__entity": ALICE}},
        {"owner": {"__entity": {**ALICE, "note": "extra fields are ignored"}}},
        {"owner": {"__entity": ALICE}, "__entity": ALICE},
    ],
    ids=["entity", "entity-extra-fields", "entity-beside-it"],
)
def test_an_argument_never_forges_an_entity_reference(
    arguments: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """Cedar's JSON reads a record holding only ``__entity`` as an entity reference: arguments
    holding one are denied, with the key named in the log."""
    with caplog.at_level(logging.WARNING, logger="standard_tool.boundary"):
        decision = CedarPolicy(OWNER)(call("t", arguments))
    assert decision.verdict == "deny"
    assert "reserved" in caplog.text


@pytest.mark.parametrize(
    ("rule", "owner"),
    [
        ("context.owner.contains(principal)", [{"__entity": ALICE}]),
        ("context.owner.of == principal", {"of": {"__entity": ALICE}}),
        (
            "context.owner.contains({list: [{record: principal}]})",
            [{"list": [{"record": {"__entity": ALICE}}]}],
        ),
    ],
    ids=["in-a-list", "in-a-record", "deep"],
)
def test_a_nested_entity_escape_never_forges_one(
    rule: str, owner: Any, caplog: pytest.LogCaptureFixture
) -> None:
    policy = CedarPolicy(f"permit (principal, action, resource) when {{ {rule} }};")
    with caplog.at_level(logging.WARNING, logger="standard_tool.boundary"):
        assert policy(call("t", {"owner": owner})).verdict == "deny"
    assert "reserved" in caplog.text


def test_an_argument_never_forges_an_extension_value(caplog: pytest.LogCaptureFixture) -> None:
    inside = 'permit (principal, action, resource) when { context.a.isInRange(ip("10.0.0.0/8")) };'
    forged_ip = {"__extn": {"fn": "ip", "arg": "10.1.2.3"}}
    assert CedarPolicy(inside)(call("t", {"a": forged_ip})).verdict == "deny"
    forged = [{"__extn": {"fn": "decimal", "arg": "1.5"}}]
    exact = 'permit (principal, action, resource) when { context.d.contains(decimal("1.5")) };'
    assert CedarPolicy(exact)(call("t", {"d": forged})).verdict == "deny"
    # the deprecated `__expr` escape is reserved too
    assert CedarPolicy(OWNER)(call("t", {"owner": {"__expr": 'User::"alice"'}})).verdict == "deny"
    # an `unknown` would leave the rules that read it undecided: refused before Cedar sees it
    unknown = {"owner": {"__extn": {"fn": "unknown", "arg": "owner"}}}
    with caplog.at_level(logging.WARNING, logger="standard_tool.boundary"):
        assert CedarPolicy(OWNER)(call("t", unknown)).verdict == "deny"
    assert "reserved" in caplog.text


def test_arguments_that_look_like_entities_stay_plain_values() -> None:
    """A record of ``type`` and ``id``, or Cedar text in a string, is a record or a string."""
    assert CedarPolicy(OWNER)(call("t", {"owner": ALICE})).verdict == "deny"
    assert CedarPolicy(OWNER)(call("t", {"owner": 'User::"alice"'})).verdict == "deny"
    as_text = 'permit (principal, action, resource) when { context.owner == "User::\\"alice\\"" };'
    assert CedarPolicy(as_text)(call("t", {"owner": 'User::"alice"'})) == ALLOW
    as_record = (
        "permit (principal, action, resource)"
        ' when { context.owner.type == "User" && context.owner.id == "alice" };'
    )
    assert CedarPolicy(as_record)(call("t", {"owner": ALICE})) == ALLOW
    # keys that only resemble the escapes are plain attributes
    similar = {"owner": {"__entity_": ALICE, "_extn": 1, "__ENTITY": "x", "entity": [1, "a", True]}}
    assert CedarPolicy("permit (principal, action, resource);")(call("t", similar)) == ALLOW


def test_a_server_side_entity_reference_still_matches_the_principal() -> None:
    """The escapes are for entity data, which the app writes: an owner there is a reference."""
    entities: list[dict[str, Any]] = [
        {"uid": ALICE, "attrs": {}, "parents": []},
        {
            "uid": {"type": "Doc", "id": "d-1"},
            "attrs": {"owner": {"__entity": ALICE}},
            "parents": [],
        },
    ]
    owned = "permit (principal, action, resource) when { resource.owner == principal };"
    policy = CedarPolicy(
        owned, entities, target=lambda r: {"type": "Doc", "id": r.arguments["doc"]}
    )
    assert policy(call("t", {"doc": "d-1"})) == ALLOW
    assert policy(call("t", {"doc": "d-1"}, actor="bob")).verdict == "deny"


@pytest.mark.parametrize(
    "value",
    [
        2**63,
        -(2**63) - 1,
        3.0,
        float("nan"),
        float("inf"),
        {1: "a", "1": "b"},
        {"s": {"a", "b"}},
        b"bytes",
        "\ud800",
        [[[None]]],
    ],
    ids=[
        "above-i64",
        "below-i64",
        "float",
        "nan",
        "inf",
        "int-key",
        "set",
        "bytes",
        "surrogate",
        "null",
    ],
)
def test_a_value_cedar_cannot_take_denies_without_raising(
    value: Any, caplog: pytest.LogCaptureFixture
) -> None:
    policy = CedarPolicy("permit (principal, action, resource);")
    with caplog.at_level(logging.WARNING, logger="standard_tool.boundary"):
        assert policy(call("t", {"value": value})).verdict == "deny"
    assert "Cedar denied" in caplog.text
    assert policy(call("t", {"value": [2**63 - 1, -(2**63), True, "x", {"k": []}]})) == ALLOW


def test_a_wrong_definition_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="missing.cedar"):
        CedarPolicy(tmp_path / "missing.cedar")
    with pytest.raises(UsageError, match="pathlib.Path"):
        CedarPolicy(b"permit (principal, action, resource);")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="entities"):
        CedarPolicy(CRM, 42)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="entities"):
        CedarPolicy(CRM, json.dumps(ENTITIES))  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="code"):
        CedarPolicy(CRM, deny_code="nope")


def test_without_cedarpy_making_a_policy_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "cedarpy", None)
    with pytest.raises(UsageError, match=r"standard-tool\[cedar\]"):
        CedarPolicy(CRM)


def test_importing_the_boundary_does_not_import_cedarpy() -> None:
    code = "import sys, standard_tool.boundary; print('cedarpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
