"""What a stdio server's environment holds: a safe default list, and what ``env`` adds."""

from __future__ import annotations

import re
import sys

import pytest

from standard_tool import call
from standard_tool.exceptions import ServerError, UsageError
from standard_tool_mcp import connect

from .conftest import SERVERS

SERVER = [sys.executable, str(SERVERS / "env_server.py")]
NAMES = ["NEEDS_ENV_TOKEN", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "OTHER_SECRET", "GIVEN"]


@pytest.fixture(autouse=True)
def parent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEEDS_ENV_TOKEN", "token-value-1")
    monkeypatch.setenv("OTHER_SECRET", "secret-value-2")
    monkeypatch.setenv("SSL_CERT_FILE", "/etc/certs.pem")
    monkeypatch.setenv("NODE_EXTRA_CA_CERTS", "/etc/node.pem")


def test_a_server_that_exits_for_want_of_a_variable_names_those_withheld() -> None:
    with pytest.raises(ServerError) as raised:
        with connect(SERVER, timeout=20):
            pass  # pragma: no cover
    message = raised.value.message
    assert "NEEDS_ENV_TOKEN is not set" in message  # its stderr
    assert "not passed" in message and "NEEDS_ENV_TOKEN" in message and "OTHER_SECRET" in message
    assert not re.search(r"\bSSL_CERT_FILE\b", message)  # passed by default
    assert "token-value-1" not in message and "secret-value-2" not in message  # names only


def test_variables_pass_through_by_name_or_with_a_value() -> None:
    with connect(SERVER, env={"NEEDS_ENV_TOKEN": None, "GIVEN": "v", "UNSET": None}) as tools:
        seen = call(tools[0], {"names": [*NAMES, "UNSET"]})
    assert seen == {
        "NEEDS_ENV_TOKEN": "token-value-1",  # passed through from this process
        "SSL_CERT_FILE": "/etc/certs.pem",  # certificate variables pass by default
        "NODE_EXTRA_CA_CERTS": "/etc/node.pem",
        "OTHER_SECRET": None,  # withheld
        "GIVEN": "v",
        "UNSET": None,  # passed through, but this process has none
    }


def test_a_value_replaces_the_parents() -> None:
    with connect(SERVER, env={"NEEDS_ENV_TOKEN": "other"}) as tools:
        assert call(tools[0], {"names": ["NEEDS_ENV_TOKEN"]}) == {"NEEDS_ENV_TOKEN": "other"}


@pytest.mark.parametrize("env", [{"A": 1}, {1: "a"}, {"A=B": "c"}, ["A"]])
def test_a_malformed_env_is_refused(env: object) -> None:
    with pytest.raises(UsageError, match="env"):
        connect(SERVER, env=env)  # type: ignore[arg-type]
