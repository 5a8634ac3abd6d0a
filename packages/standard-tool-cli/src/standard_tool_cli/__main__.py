"""``python -m standard_tool_cli``: the ``standard-tool`` command."""

from ._app import main

main()
