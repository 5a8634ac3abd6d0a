"""Tools for model APIs called directly: declarations in each provider's envelope, and the
calls a model makes run and answered in the same envelope. Plain dicts in and out; no
provider SDK is imported (their objects are read through ``model_dump`` when passed).

Both halves of the tool loop, for any standard tool (from any framework, or an MCP server):

- declarations: :func:`to_openai` (Responses or Chat Completions, strict or not),
  :func:`to_anthropic`, :func:`to_gemini` (``parameters`` or ``parametersJsonSchema``),
  :func:`to_hf` (open-model chat templates). Each takes one tool (one dict back) or several
  (a list), renders names to the provider's rules (``standard_tool.names``; two that collide
  raise ``ToolNameError``) and the input schema in the provider's dialect
  (``standard_tool.dialects``: ``"openai"``, ``"openai-strict"``, ``"anthropic"``,
  ``"gemini"``, ``"gemini-json-schema"``, ``"hf"``).
- the return half: :func:`run_tool_calls` / :func:`arun_tool_calls` take what the model
  produced and return what goes back, one answer per call, matched by id, in order;
  :func:`read_tool_calls` only reads the calls (:class:`ToolCall`), to look before running;
  :func:`null_undo` turns strict mode's ``null`` for an absent property back into "absent"
  (for a framework that runs strict-mode calls itself), and :func:`strict_arguments` writes a
  valid input as a strict-mode model sends it (every property, ``null`` for an absent one).
- open-weight models: :func:`parse_tool_calls` reads raw completions (Hermes/Qwen, Llama 3,
  Mistral formats) into calls :func:`run_tool_calls` takes with ``provider="hf"``.

Each provider is also a target of ``st.convert(tool, to="openai" | "anthropic" | "gemini" |
"hf", **options)``.
"""

from ._chat_templates import FORMATS, ParsedCompletion, parse_tool_calls
from ._declarations import (
    NAME_RULES,
    PROVIDERS,
    openai_strict_problem,
    to_anthropic,
    to_gemini,
    to_hf,
    to_openai,
)
from ._runtime import strict_arguments
from ._strict_undo import null_undo
from ._tool_calls import ToolCall, arun_tool_calls, read_tool_calls, run_tool_calls

__all__ = [
    "FORMATS",
    "NAME_RULES",
    "PROVIDERS",
    "ParsedCompletion",
    "ToolCall",
    "arun_tool_calls",
    "null_undo",
    "openai_strict_problem",
    "parse_tool_calls",
    "read_tool_calls",
    "run_tool_calls",
    "strict_arguments",
    "to_anthropic",
    "to_gemini",
    "to_hf",
    "to_openai",
]
