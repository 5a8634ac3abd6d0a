"""JSON Schema dialects: the built-in draft 2020-12, draft-07 and OpenAPI 3.0, the model
providers' (``"openai"``, ``"openai-strict"``, ``"anthropic"``, ``"gemini"``,
``"gemini-json-schema"``, ``"hf"``: what ``standard_tool.providers`` declares tools in), and
new ones.

A new dialect (a provider's subset, say) is one :class:`Dialect` subclass with one step per
rule, registered by name::

    from standard_tool.dialects import Dialect, register_dialect

    def no_titles(dialect, schema, pointer):
        schema.pop("title", None)
        return schema

    class Untitled(Dialect):
        steps = (no_titles,)

    register_dialect("untitled", Untitled)
    # st.input_json_schema(tool, target="untitled")

``convert_schema(schema, target, record=changes)`` appends to the list ``changes`` a
:class:`Change` for each keyword a step rewrote, wrote into the description, dropped or
refused (a step notes it with ``dialect.change(pointer, keyword, action, detail)``).
"""

from .schema.dialects._drafts import detect_dialect
from .schema.dialects._registry import (
    BUILTIN_DIALECTS,
    convert_schema,
    dialects,
    register_dialect,
)
from .schema.dialects._walk import ACTIONS, Change, Dialect

__all__ = [
    "ACTIONS",
    "BUILTIN_DIALECTS",
    "Change",
    "Dialect",
    "convert_schema",
    "detect_dialect",
    "dialects",
    "register_dialect",
]
