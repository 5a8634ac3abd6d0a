"""Checks that a tool behaves the same through every installed target.

:func:`check_tool` converts a tool to each target and compares, through the framework's own
:class:`~standard_tool.adapters.Runtime`, what a model would see and get with the direct
call. Each target gets the checks of :data:`CHECKS`:

- ``convert``: the tool converts.
- ``schema``: a model is shown the tool's input schema unchanged.
- ``round trip``: adopted back, its name, title, description, meta and both schemas are the
  same.
- ``call``: run with an input generated from its schema (hypothesis-jsonschema, the same on
  every run), it gives the direct call's result, or fails as the direct call does.
- ``refuse``: an input the schema refuses, derived from that one (a field of the wrong
  type, a required field missing, an unexpected field), is refused as the direct call
  refuses it, with an error naming the tool.

:func:`heading`, :func:`tally`, :func:`legend` and :func:`skipped` word a tool x target table
of results, the same in ``standard-tool check`` and the ``pytest-standard-tool`` plugin.

Every call, direct or not, gets the context :data:`CONTEXT`. A target whose adapter
registers no runtime runs only ``convert``. The provider targets (``openai``, ``anthropic``,
``gemini``, ``hf``) answer a model's call in their own envelope with
:func:`~standard_tool.providers.run_tool_calls`; they show a model their own dialect of the
schema, so ``schema`` is skipped, and nothing adopts a declaration back (``round trip``). A
runtime whose objects each show one dialect (an OpenAI Agents tool: the strict rendering when
strict) names it, and ``schema`` compares with the tool's schema rendered in it
(:func:`expected_schema`). The same
checks serve ``standard-tool check``, the ``pytest-standard-tool`` plugin and the adapter
contract (``standard_tool.testing``). Generating inputs needs ``standard-tool[checks]``.

>>> import standard_tool as st
>>> from standard_tool.checks import check_tool, failures
>>> @st.tool
... def add(a: int, b: int = 1) -> int:
...     "Add two integers."
...     return a + b
>>> failures(check_tool(add, ["standard"]))
[]
"""

from ..run._waiting import running_threads
from ._checks import (
    CHECKS,
    CONTEXT,
    DESCRIPTIONS,
    DIRECT,
    CheckResult,
    Probe,
    Status,
    bounded,
    check_tool,
    definition_difference,
    expected_schema,
    failures,
    first_difference,
    heading,
    installed_targets,
    legend,
    one_line,
    probe,
    skipped,
    tally,
)
from ._sample_inputs import invalid_inputs, sample_inputs

__all__ = [
    "CHECKS",
    "CONTEXT",
    "DESCRIPTIONS",
    "DIRECT",
    "CheckResult",
    "Probe",
    "Status",
    "bounded",
    "check_tool",
    "definition_difference",
    "expected_schema",
    "failures",
    "first_difference",
    "heading",
    "installed_targets",
    "invalid_inputs",
    "legend",
    "one_line",
    "probe",
    "running_threads",
    "sample_inputs",
    "skipped",
    "tally",
]
