"""What a provider's dialect did to a keyword, said as a sentence: what the schema the model
is shown does with the keyword, and what that means for the tool (the messages of the lint's
``lint/schema-*`` findings)."""

from __future__ import annotations

from ..schema.dialects._provider import MERGED, NULLABLE
from ..schema.dialects._walk import Change

__all__ = ["said"]

_SHOWN = "the schema the model is shown"
_REFUSES = "which the tool refuses"

_ANNOTATIONS = frozenset(
    ("default", "title", "description", "examples", "example", "deprecated", "readOnly")
    + ("writeOnly", "$comment", "contentMediaType", "contentEncoding", "discriminator", "$id")
    + ("$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$schema")
)
"""Keywords that say nothing of the values a tool accepts."""

# fmt: off
_REWRITTEN: dict[str, str] = {
    MERGED:
        "{k} is folded into the schema that holds it in {shown}: the model is held to the "
        "same rules",
    NULLABLE:
        "the null {k} allows is said by 'nullable: true' in {shown}: the model is held to "
        "the same values",
    "replaced by a copy of the schema it names":
        "{k} is replaced by a copy of the schema it names in {shown}: the model is held to "
        "the same rules",
    "the root replaced by the schema it names":
        "the root's {k} is replaced by the schema it names in {shown}: the model is held to "
        "the same rules",
    "the root's branches joined into one object that accepts what any of them accepts":
        "the branches of the root's {k} are joined into one object that accepts what any of "
        "them accepts in {shown}: the model may send properties of several branches together, "
        "which the tool refuses unless one branch accepts them",
    "tool arguments are an object: 'object' alone":
        "the root's {k} is 'object' alone in {shown}: tool arguments are always an object, "
        "and the tool accepts them as before",
    "closed: undeclared properties refused":
        "the object is closed ({k} false) in {shown}: the model sends only the declared "
        "properties, though the tool accepts others too",
    "an optional property made required, and nullable (null: absent)":
        "the optional property is required and nullable in {shown}: the model sends null to "
        "leave it out, which run_tool_calls reads as absent before the tool runs",
    "an optional property made required":
        "the optional property is required in {shown}: the model always sends it, perhaps as "
        "null, which the tool's schema allows",
    "an enum typed by the types of its values":
        "the enum is given the {k} of its values in {shown}: the model is held to the same "
        "values",
    "an enum of strings typed 'string'":
        "the enum of strings is given the {k} 'string' in {shown}: the model is held to the "
        "same values",
    "moved into each branch of anyOf":
        "{k} is moved into each branch of the anyOf beside it in {shown}: the model is held "
        "to the same rules",
    "as a one-value enum":
        "{k} is said as an enum of one value in {shown}: the model is held to the same value",
    "as anyOf (wider: a value that matches several branches is accepted too)":
        "{k} is said as anyOf in {shown}: the model may send a value that matches several "
        "branches, which the tool refuses",
    "an array without items: items of any value":
        "the array declares no {k}, and {shown} says its items take any value: the model is "
        "held to the same values",
    "as one items schema that accepts any position's schema, the positions in the description":
        "{k} is said as one items schema that accepts any position's schema in {shown}, the "
        "positions written into its description: the model may put a value at the wrong "
        "position, which the tool refuses",
    "an object without properties: none":
        "the object declares no {k}, and {shown} declares none explicitly: the model is held "
        "to the same values",
    "a list of types as an anyOf, a branch a type":
        "the list of types of {k} is said as an anyOf with a branch per type in {shown}: the "
        "model is held to the same values",
    "held alone in an anyOf, its siblings beside":
        "{k} is held alone in an anyOf, its sibling keywords beside it, in {shown}: the model "
        "is held to the same rules",
    "a union of bare types as a type list":
        "{k} of bare types is said as a type list in {shown}: the model is held to the same "
        "values",
}
# fmt: on
"""Each rewrite a built-in provider dialect notes, by the detail it notes it with."""


def said(change: Change) -> str:
    """``change`` (what a provider's dialect did to one keyword) as a plain sentence."""
    keyword, detail = change.keyword, change.detail
    k = repr(keyword)
    if change.action == "refused":
        what = "the schema's depth" if keyword == "depth" else k
        return (
            f"{what} cannot be expressed in the schema the provider shows the model, so "
            f"converting the tool for it raises SchemaNotExpressibleError: {detail}"
        )
    if change.action == "rewritten":
        known = _REWRITTEN.get(detail)
        if known is not None:
            return known.format(k=k, shown=_SHOWN)
        return (
            f"{k} is rewritten in {_SHOWN} ({detail}), with the same or a wider meaning: the "
            "tool still checks each call against its own schema"
        )
    if change.action == "described":
        return _described(keyword, detail)
    return _dropped(keyword, detail)


def _described(keyword: str, detail: str) -> str:
    k = repr(keyword)
    if detail.startswith("as the inclusive"):  # an exclusive bound, where only inclusive ones are
        bound = "minimum" if keyword == "exclusiveMinimum" else "maximum"
        return (
            f"{k} is shown to the model as the inclusive {bound} and written into the "
            f"description: the model may send the bound itself, {_REFUSES}"
        )
    if detail.startswith("arguments without properties"):
        return (
            f"the arguments declare no {k}, so {_SHOWN} has no type and its description says "
            "'a JSON object': the model may send any object, and the tool checks it against "
            "its own schema"
        )
    head = f"{k} is left out of {_SHOWN} and written into its description"
    if keyword == "default":
        return (
            f"{head}: the model reads the default there, and a call that leaves the argument "
            "out reaches the tool without it"
        )
    if keyword == "format":
        return (
            f"{head}: the model reads the format there, and neither the provider nor the "
            "tool's validation (formats are annotations to it) checks it"
        )
    if keyword in _ANNOTATIONS:
        return f"{head}: the model reads it there, and it does not change what the tool accepts"
    return (
        f"{head}: the model reads the rule, but the provider does not enforce it, so a call "
        "that breaks it reaches the tool, which refuses it"
    )


def _dropped(keyword: str, detail: str) -> str:
    k = repr(keyword)
    if detail.startswith("the names of undeclared properties"):
        return (
            f"{k} names properties the object does not declare, and {_SHOWN} leaves those "
            "names out: the model is not asked for them, and the tool refuses a call without "
            "them"
        )
    head = f"{k} is left out of {_SHOWN}, with no note"
    if keyword in _ANNOTATIONS:
        return f"{head}: the model does not see it, and it does not change what the tool accepts"
    if keyword == "additionalProperties":
        return (
            f"{head}: the model is not told that undeclared properties are refused, and the "
            "tool refuses a call that sends one"
        )
    return f"{head}: the model is not told the rule, and the tool refuses a call that breaks it"
