"""A pytest plugin that runs standard tools through every installed framework adapter.

- :func:`assert_conforms`: every check of one tool, through every installed target (or some),
  failing with the reasons.
- The ``standard_tools`` marker and the ``conformance`` fixture: one test per tool and target;
  ``inputs={"tool_name": input or [inputs...]}`` gives a tool the inputs to call it with, tried
  in order (none is then made from its schema). A tool that no input runs, or whose result
  breaks its output schema, fails ``call`` through every target.
- :func:`assert_compatible`: tools against their committed snapshot (``tools.lock.json``),
  failing on a breaking change; ``--standard-tool-snapshot=PATH`` (or the ini option
  ``standard_tool_snapshot``) checks the tools of every ``standard_tools`` marker against it
  at the end of the run, and fails the run on a breaking change.

The checks are the core's (:mod:`standard_tool.checks`), the same as ``standard-tool check``
and the adapter contract (``standard_tool.testing``) run.
"""

from ._assert import assert_compatible, assert_conforms
from ._plugin import Conformance

__all__ = ["Conformance", "assert_compatible", "assert_conforms"]
