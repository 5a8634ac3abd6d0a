"""A tool that reports progress and logs, served over stdio."""

from __future__ import annotations

import standard_tool as st
from standard_tool_mcp import serve


@st.tool
def crunch(rows: int) -> int:
    """Crunch rows, reporting progress as it goes."""
    for done in range(1, rows + 1):
        st.report_progress(done, rows, f"row {done}")
    return rows


if __name__ == "__main__":
    serve(crunch)
