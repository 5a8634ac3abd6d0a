"""The portability lint: where a tool leaves what every provider and framework reads alike.

What each provider does to a schema is not a second list of rules: it is what the provider's
own dialect does, noted by its steps as it converts the schema
(``convert_schema(schema, target, record=changes)``). The other rules read the tool's
declaration: its name against each target's name rule, its description, the descriptions of
its parameters, ``required``, and what no model should be shown (credentials, internal hosts).
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from .._protocols import StandardTool
from ..exceptions import SchemaNotExpressibleError
from ..names import ANTHROPIC_NAMES, GEMINI_NAMES, HF_NAMES, MCP_NAMES, OPENAI_NAMES, NameRule
from ..plugins._metadata import adopt_each
from ..schema.dialects._registry import PROVIDER_DIALECTS, convert_schema
from ..schema.dialects._walk import Change
from ._digest import declaration
from ._finding import Finding
from ._wording import said

__all__ = ["LINT_RULES", "LLAMA_INDEX_DESCRIPTION", "NAME_RULES", "lint_tool", "lint_tools"]

LINT_RULES: Mapping[str, tuple[str, str]] = {
    "lint/credential": (
        "error",
        "A string a model is shown (name, title, description, any string of a schema) holds "
        "a credential: a URL with user:password@, or a string shaped like an API key or a "
        "token (sk-..., ghp_..., AKIA..., xoxb-..., AIza..., a JWT, a private key, a long "
        "run of mixed-case letters and digits).",
    ),
    "lint/description-missing": (
        "warning",
        "The tool has no description: a model has only its name to go by.",
    ),
    "lint/description-too-long": (
        "error",
        "The description is longer than LlamaIndex sends to a model (1,024 characters): "
        "converting the tool for LlamaIndex is refused.",
    ),
    "lint/internal-host": (
        "warning",
        "A string a model is shown names an internal host: localhost, a name under .internal, "
        ".local, .localdomain, .intranet, .corp, .lan or .home.arpa, or a private, loopback "
        "or link-local IPv4 address.",
    ),
    "lint/name-renamed": (
        "warning",
        "A target's name rule (standard_tool.names) does not accept the tool's name: the "
        "target sees it renamed.",
    ),
    "lint/parameter-description-missing": (
        "warning",
        "A property of the input schema has no description (nor has the schema its $ref names).",
    ),
    "lint/required-undeclared": (
        "error",
        "'required' names a property its object schema does not declare.",
    ),
    "lint/schema-described": (
        "warning",
        "A provider's dialect leaves a keyword out and writes its rule into the description: "
        "the model reads it, the provider does not enforce it.",
    ),
    "lint/schema-dropped": (
        "info",
        "A provider's dialect leaves a keyword out without a note (an annotation, or a rule "
        "the dialect holds a model does not need, such as additionalProperties: false where "
        "objects cannot be closed).",
    ),
    "lint/schema-refused": (
        "error",
        "A provider's dialect cannot express the schema: rendering the tool for it raises "
        "SchemaNotExpressibleError.",
    ),
    "lint/schema-rewritten": (
        "info",
        "A provider's dialect says a keyword another way (a const as an enum, a reference "
        "inlined, null as nullable, an optional property required and nullable in strict "
        "mode), with the same or a wider meaning.",
    ),
}
"""Each rule of the lint, by id: its level (``error``, ``warning`` or ``info``) and what it
finds. ``lint/schema-*`` findings name a provider dialect as their target; a name finding
names the target whose rule it is, a description too long ``llama-index``."""

LLAMA_INDEX_DESCRIPTION = 1024
"""The longest description LlamaIndex's ``ToolMetadata.to_openai_tool()`` accepts."""

NAME_RULES: tuple[NameRule, ...] = (
    ANTHROPIC_NAMES,
    GEMINI_NAMES,
    HF_NAMES,
    MCP_NAMES,
    OPENAI_NAMES,
)
"""The name rules a tool's name is checked against, one per target."""

_CREDENTIALS = (
    ("a URL with a user name and password", r"[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]+:[^\s/@]+@"),
    ("an OpenAI or Anthropic key", r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}"),
    ("a GitHub token", r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{22,})"),
    ("an AWS access key id", r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"),
    ("a Slack token", r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}"),
    ("a Google API key", r"(?<![A-Za-z0-9])AIza[A-Za-z0-9_-]{35}"),
    ("a private key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    ("a JSON Web Token", r"(?<![A-Za-z0-9])eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}"),
)
_CREDENTIAL_PATTERNS = tuple((what, re.compile(pattern)) for what, pattern in _CREDENTIALS)
_TOKEN = re.compile(r"[A-Za-z0-9_+=-]{32,}")
_TOKEN_ENTROPY = 4.3
"""Bits per character above which a long run of mixed-case letters and digits is a token."""
_HOST = re.compile(
    r"(?<![\w.-])(?:localhost|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+"
    r"(?:internal|local|localdomain|intranet|corp|lan|home\.arpa))(?![\w-]|\.[a-z0-9])",
    re.IGNORECASE,
)
_IPV4 = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d]|\.\d)")
_PRIVATE = tuple(
    ipaddress.IPv4Network(net)
    for net in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "100.64.0.0/10",
    )
)
# fmt: off
_ONE = frozenset((
    "additionalProperties", "items", "contains", "not", "if", "then", "else",
    "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems",
))
_LIST = frozenset(("allOf", "anyOf", "oneOf", "prefixItems", "items"))
_MAP = frozenset(("properties", "patternProperties", "$defs", "definitions", "dependentSchemas"))
# fmt: on


def lint_tool(tool: Any) -> list[Finding]:
    """What the portability lint finds about ``tool`` (anything ``st.adopt`` takes), each
    finding's pointer pointing into the tool's snapshot entry; :data:`LINT_RULES` lists the
    rules. The order is stable: by pointer, then rule, then target."""
    (adopted,) = adopt_each([tool])
    return _lint(adopted)


def lint_tools(tools: Any) -> list[Finding]:
    """What the portability lint finds about each of ``tools`` (anything
    ``st.adopt_tools`` takes), the tools in the order of their names."""
    found: list[Finding] = []
    for adopted in sorted(adopt_each(tools), key=lambda t: t.name):
        found += _lint(adopted)
    return found


def _lint(tool: StandardTool) -> list[Finding]:
    entry = declaration(tool)
    name = entry["name"]
    found = [*_names(name), *_description(name, entry["description"])]
    for key in ("name", "title", "description", "input_schema", "output_schema"):
        for pointer, text in _strings(entry[key], f"/{key}"):
            found += _shown(name, pointer, text)
    found += _parameters(name, entry["input_schema"])
    found += _required(name, entry["input_schema"])
    for target in PROVIDER_DIALECTS:
        found += _provider(name, entry["input_schema"], target)
    return sorted(found, key=lambda f: (f.pointer, f.rule, f.target or ""))


def _finding(
    rule: str, tool: str, pointer: str, message: str, target: str | None = None
) -> Finding:
    return Finding(rule, tool, pointer, LINT_RULES[rule][0], message, target)


def _names(name: str) -> Iterator[Finding]:
    for rule in NAME_RULES:
        if not rule.accepts(name):
            yield _finding(
                "lint/name-renamed",
                name,
                "/name",
                f"renamed: the target accepts names matching {rule.pattern.pattern}",
                rule.target,
            )


def _description(name: str, description: str) -> Iterator[Finding]:
    if not description.strip():
        yield _finding("lint/description-missing", name, "/description", "no description")
    elif len(description) > LLAMA_INDEX_DESCRIPTION:
        yield _finding(
            "lint/description-too-long",
            name,
            "/description",
            f"{len(description):,} characters; LlamaIndex sends at most "
            f"{LLAMA_INDEX_DESCRIPTION:,}",
            "llama-index",
        )


def _shown(name: str, pointer: str, text: str) -> Iterator[Finding]:
    """Credentials and internal hosts in one string a model is shown (named, never quoted)."""
    kinds = [what for what, pattern in _CREDENTIAL_PATTERNS if pattern.search(text)]
    if not kinds and any(_random(run) for run in _TOKEN.findall(text)):
        kinds.append("a long random token")
    if kinds:
        yield _finding(
            "lint/credential", name, pointer, f"holds what looks like {' and '.join(kinds)}"
        )
    hosts = ["an internal host name"] if _HOST.search(text) else []
    if any(_private(address) for address in _IPV4.findall(text)):
        hosts.append("a private IP address")
    if hosts:
        yield _finding("lint/internal-host", name, pointer, f"names {' and '.join(hosts)}")


def _random(run: str) -> bool:
    if not (
        any(c.islower() for c in run)
        and any(c.isupper() for c in run)
        and any(c.isdigit() for c in run)
    ):
        return False
    counts = Counter(run)
    entropy = -sum(n / len(run) * math.log2(n / len(run)) for n in counts.values())
    return entropy >= _TOKEN_ENTROPY


def _private(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return any(ip in network for network in _PRIVATE)


def _parameters(name: str, schema: Any) -> Iterator[Finding]:
    for pointer, node in _subschemas(schema, "/input_schema"):
        properties = node.get("properties")
        if not isinstance(properties, Mapping):
            continue
        for key, sub in properties.items():
            if not _described(schema, sub):
                yield _finding(
                    "lint/parameter-description-missing",
                    name,
                    f"{pointer}/properties/{_escape(key)}",
                    f"property {key!r} has no description",
                )


def _described(root: Any, schema: Any) -> bool:
    if not isinstance(schema, Mapping):
        return False
    if isinstance(schema.get("description"), str) and schema["description"].strip():
        return True
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        node = root
        for token in ref[2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            node = node.get(token) if isinstance(node, Mapping) else None
        return isinstance(node, Mapping) and node is not schema and _described(root, node)
    return False


def _required(name: str, schema: Any) -> Iterator[Finding]:
    for pointer, node in _subschemas(schema, "/input_schema"):
        required = node.get("required")
        if not isinstance(required, list) or "patternProperties" in node:
            continue
        if "properties" not in node and node.get("type") != "object":
            continue  # a branch of a combinator requiring what its parent declares
        properties = node.get("properties")
        declared = properties if isinstance(properties, Mapping) else {}
        for index, key in enumerate(required):
            if isinstance(key, str) and key not in declared:
                yield _finding(
                    "lint/required-undeclared",
                    name,
                    f"{pointer}/required/{index}",
                    f"{key!r} is required but not declared in 'properties'",
                )


def _provider(name: str, schema: Any, target: str) -> Iterator[Finding]:
    """What the provider's dialect does to the schema, as it notes it while converting."""
    record: list[Change] = []
    try:
        convert_schema(schema, target, record=record)
    except SchemaNotExpressibleError:
        pass  # noted as the record's last change
    seen: set[tuple[str, str, str]] = set()
    for change in record:
        key = (change.pointer, change.keyword, change.action)
        if key in seen:
            continue
        seen.add(key)
        yield _finding(
            f"lint/schema-{change.action}",
            name,
            f"/input_schema{change.pointer}",
            said(change),
            target,
        )


def _subschemas(schema: Any, pointer: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every schema object in ``schema`` with its JSON Pointer, ``schema`` first."""
    stack: list[tuple[str, Any]] = [(pointer, schema)]
    while stack:
        at, node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield at, node
        children: list[tuple[str, Any]] = []
        for key, value in node.items():
            here = f"{at}/{_escape(key)}"
            if key in _MAP and isinstance(value, Mapping):
                children += [(f"{here}/{_escape(k)}", v) for k, v in value.items()]
            elif key in _LIST and isinstance(value, list):
                children += [(f"{here}/{i}", v) for i, v in enumerate(value)]
            elif key in _ONE:
                children.append((here, value))
        stack.extend(reversed(children))


def _strings(value: Any, pointer: str) -> Iterator[tuple[str, str]]:
    """Every string in a JSON value (values, not keys), with its JSON Pointer."""
    stack: list[tuple[str, Any]] = [(pointer, value)]
    while stack:
        at, node = stack.pop()
        if isinstance(node, str):
            yield at, node
        elif isinstance(node, Mapping):
            stack.extend((f"{at}/{_escape(k)}", v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((f"{at}/{i}", v) for i, v in reversed(list(enumerate(node))))


def _escape(token: Any) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")
