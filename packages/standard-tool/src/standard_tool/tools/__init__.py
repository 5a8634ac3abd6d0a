"""The tool: Tool and @tool, functions and docstrings read, validation around execute, wrappers."""
