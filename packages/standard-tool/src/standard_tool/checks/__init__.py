"""Checks that a tool behaves the same through every installed target.

:func:`check_tool` converts a tool to each target and compares, through the framework's own
:class:`~standard_tool.adapters.Runtime`, what a model would see and get with the direct
call. Each target gets the checks of :data:`CHECKS`:

- ``convert``: the tool converts.
- ``schema``: a model is shown the tool's input schema unchanged.
- ``round trip``: adopted back, its name, title, description, meta and both schemas are the
  same.
- ``call``: run with an input that runs when the tool is called directly, it gives the direct
  call's result. The input is the first of those given (``inputs=``) that runs; when none is
  given, the first that runs of the inputs made from the tool's input schema: the values the
  schema gives (``examples``, ``default``, ``const``, ``enum``, property by property), then
  hypothesis-jsonschema's draws, the same on every run. When no input runs directly, or the
  direct result breaks the tool's output schema, ``call`` fails directly and through every
  target, with the same reason (what was tried and how to give an input). A result is
  compared after what the target's framework does to every result (its runtime's
  ``normalise``), and a string with the text the model reads when the framework hands it text.
- ``refuse``: an input the schema refuses, derived from that one (a field of the wrong
  type, a required field missing, an unexpected field), is refused as the direct call
  refuses it, with an error naming the tool.

:func:`outcomes` gives one call's outcome directly and through each target: the verdicts
(accepted or refused) a tool owes every target alike.

:func:`heading`, :func:`tally`, :func:`legend`, :func:`skipped` and :func:`failed` word a tool
x target table of results, the same in ``standard-tool check`` and the
``pytest-standard-tool`` plugin.

Every call, direct or not, gets the context :data:`CONTEXT`. A target whose adapter
registers no runtime runs only ``convert``; a runtime that cannot run a tool (it raises
:class:`~standard_tool.exceptions.UnsupportedToolError`) skips the checks it stops, with its
message. The provider targets (``openai``, ``anthropic``,
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
    installed_targets,
    one_line,
    outcomes,
    probe,
)
from ._sample_inputs import invalid_inputs, sample_inputs
from ._table import failed, heading, legend, skipped, tally

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
    "failed",
    "failures",
    "first_difference",
    "heading",
    "installed_targets",
    "invalid_inputs",
    "legend",
    "one_line",
    "outcomes",
    "probe",
    "running_threads",
    "sample_inputs",
    "skipped",
    "tally",
]
