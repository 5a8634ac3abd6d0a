"""A pytest plugin that runs standard tools through every installed framework adapter.

- :func:`assert_conforms`: every check of one tool, through every installed target (or some),
  failing with the reasons.
- The ``standard_tools`` marker and the ``conformance`` fixture: one test per tool and target.

The checks are the core's (:mod:`standard_tool.checks`), the same as ``standard-tool check``
and the adapter contract (``standard_tool.testing``) run.
"""

from ._assert import assert_conforms
from ._plugin import Conformance

__all__ = ["Conformance", "assert_conforms"]
