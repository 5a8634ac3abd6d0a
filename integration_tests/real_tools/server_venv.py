"""Make a venv of its own for MCP servers whose newest release runs on mcp 1.x only.

``python integration_tests/real_tools/server_venv.py <folder> <requirement>...``: the
``real-tools`` session runs it before its tests (with uv installed in the session) and names
``<folder>`` to them in ``STANDARD_TOOL_MCP1_VENV``. The folder is made again on each run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def main(folder: str, *requirements: str) -> None:
    if not requirements:
        raise SystemExit("usage: server_venv.py <folder> <requirement>...")
    shutil.rmtree(folder, ignore_errors=True)
    uv = [sys.executable, "-m", "uv"]
    subprocess.run([*uv, "venv", "--quiet", "--python", sys.executable, folder], check=True)
    python = Path(folder, "Scripts" if os.name == "nt" else "bin", "python")
    subprocess.run([*uv, "pip", "install", "--python", str(python), *requirements], check=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
