"""The adapter contract as tests, for every adapter's test suite to subclass.

- :class:`ExportContract`: standard tools converted to the target (every target).
- :class:`AdoptContract`: the framework's objects adopted as standard tools.
- :class:`AdapterContract`: both, and the round trips between them.
- :class:`PackageContract`: the adapter package's public names and cheap discovery.
- :class:`RecordingReporter`: a reporter that keeps what tools report.
- :class:`GuardedShop`: a guarded sample tool (policy, approval, budget) for boundary tests.
- :func:`clean_registry`: a pytest fixture with a fresh plugin registry for one test.
- :func:`assert_same_verdict`: a tool accepts or refuses one input alike, directly and through
  every installed framework's runtime.
- :func:`within`: runs a call in a thread and fails the test if it hangs (for time limits).
- :class:`StoreContract`: every behaviour of a boundary :class:`~standard_tool.boundary.Store`;
  :class:`SharedStoreContract` adds the same operations raced by several processes.

Subclass in a test module, set the class attributes, and implement the few methods that
reach the framework's own runtime::

    class TestToyContract(AdapterContract):
        target = "toy"
        distribution = "standard-tool-toy"

        def native_schema(self, native): ...
        def call_native(self, native, arguments, context): ...

pytest collects the ``test_*`` methods. The repository README lists what the contract
asks; ``integration_tests/test_toy_contract.py`` is a complete third-party example. Among
them, each sample tool goes through the checks of :mod:`standard_tool.checks` (the same as
``standard-tool check`` and ``pytest-standard-tool`` run), reaching the framework through the
subclass's own methods. Install ``standard-tool[testing]`` (pytest, hypothesis-jsonschema).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..plugins._registry import PluginManager, isolated_registry
from ._contract import (
    AdapterContract,
    AdoptContract,
    ExportContract,
    NativeOutcome,
    outcome_from_json_text,
)
from ._package import PackageContract
from ._reports import RecordingReporter
from ._samples import INVALID_CALLS, SECRET, VALID_CALLS, sample_tools
from ._shop import LONG_NOTE, GuardedShop
from ._stores import SharedStoreContract, StoreContract
from ._threads import within
from ._verdicts import assert_same_verdict

__all__ = [
    "INVALID_CALLS",
    "LONG_NOTE",
    "SECRET",
    "VALID_CALLS",
    "AdapterContract",
    "AdoptContract",
    "ExportContract",
    "GuardedShop",
    "NativeOutcome",
    "PackageContract",
    "RecordingReporter",
    "SharedStoreContract",
    "StoreContract",
    "assert_same_verdict",
    "clean_registry",
    "outcome_from_json_text",
    "sample_tools",
    "within",
]


@pytest.fixture
def clean_registry() -> Iterator[PluginManager]:
    """A fresh plugin manager from the installed entry points, for one test only."""
    with isolated_registry() as manager:
        yield manager
