"""The ``standard-tool`` command: inspect, convert, call, serve and check tools from any source.

Names are imported on first use, so that importing the package stays cheap.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._app import cli as cli, main as main
    from ._sources import load_object as load_object, open_source as open_source

__all__, __getattr__, __dir__ = lazy_exports(__name__)
