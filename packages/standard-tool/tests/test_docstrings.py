from __future__ import annotations

import dataclasses

import pytest

from standard_tool.tools._docstrings import Docstring, parse_docstring

EMPTY = Docstring("", {}, None)


@pytest.mark.parametrize("doc", [None, "", "   ", "\n\n  \t\n"])
def test_nothing_gives_an_empty_docstring(doc: str | None) -> None:
    assert parse_docstring(doc) == EMPTY


def test_summary_only() -> None:
    assert parse_docstring("Fetch the weather.") == Docstring("Fetch the weather.", {}, None)


def test_docstring_is_frozen() -> None:
    parsed = parse_docstring("Summary.")
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.description = "other"  # type: ignore[misc]


def test_plain_docstring_gives_description_only() -> None:
    doc = """Fetch the weather for a city.

    The lookup uses the cached forecast when one is
    younger than ten minutes.
    Note: this is fast because of the cache.
    Returns: nothing useful is stated on this line.

        forecast = fetch("Paris")
    """
    assert parse_docstring(doc) == Docstring(
        "Fetch the weather for a city.\n\n"
        "The lookup uses the cached forecast when one is\n"
        "younger than ten minutes.\n"
        "Note: this is fast because of the cache.\n"
        "Returns: nothing useful is stated on this line.\n\n"
        '    forecast = fetch("Paris")',
        {},
        None,
    )


def test_google() -> None:
    doc = """Search the catalogue.

    Matches titles and authors. The search is
    case-insensitive.

    Args:
        query (str): The words to look for. Quotes: "like this"
            keep words together.
        filters (dict[str, list[int]]): Field name to allowed ids.
        limit (int, optional): At most this many results.

            Defaults to 10.
        *args: Extra positional values.
        **kwargs: Passed to the backend: see its docs.

    Returns:
        list[Book]: The matching books,
            best first.

    Raises:
        ValueError: If the query is empty.

    Examples:
        >>> search("dune")
        [Book('Dune')]
    """
    assert parse_docstring(doc) == Docstring(
        "Search the catalogue.\n\nMatches titles and authors. The search is\ncase-insensitive.",
        {
            "query": 'The words to look for. Quotes: "like this" keep words together.',
            "filters": "Field name to allowed ids.",
            "limit": "At most this many results.\n\nDefaults to 10.",
            "args": "Extra positional values.",
            "kwargs": "Passed to the backend: see its docs.",
        },
        "The matching books, best first.",
    )


def test_google_section_aliases_and_keyword_arguments() -> None:
    doc = """Send a message.

    Arguments:
        to: The recipient.

    Keyword Arguments:
        urgent (bool): Mark as urgent.

    Yields:
        Delivery receipts.
    """
    assert parse_docstring(doc) == Docstring(
        "Send a message.",
        {"to": "The recipient.", "urgent": "Mark as urgent."},
        "Delivery receipts.",
    )


@pytest.mark.parametrize("header", ["Parameters:", "Params:", "args:", "Keyword Args:"])
def test_google_parameter_headers(header: str) -> None:
    doc = f"Summary.\n\n{header}\n    x: The x.\n"
    assert parse_docstring(doc) == Docstring("Summary.", {"x": "The x."}, None)


def test_google_description_on_the_next_line() -> None:
    doc = """Summary.

    Args:
        path (str):
            Where to write,
            relative to the root.
        mode:
            The file mode.
    """
    assert parse_docstring(doc) == Docstring(
        "Summary.",
        {"path": "Where to write, relative to the root.", "mode": "The file mode."},
        None,
    )


def test_google_returns_keeps_text_that_is_not_a_type() -> None:
    doc = """Summary.

    Returns:
        The total: the sum of all items.
    """
    assert parse_docstring(doc) == Docstring("Summary.", {}, "The total: the sum of all items.")


def test_google_returns_strips_a_union_type() -> None:
    doc = """Summary.

    Returns:
        dict[str, int] | None: Counts by name, or None.
    """
    assert parse_docstring(doc) == Docstring("Summary.", {}, "Counts by name, or None.")


def test_google_sections_before_args_and_text_after_are_dropped() -> None:
    doc = """Summary.

    Note:
        Runs in a thread.

    Args:
        x: The x.

    This trailing paragraph belongs to no section.

    Todo:
        Cache the result.
    """
    assert parse_docstring(doc) == Docstring("Summary.", {"x": "The x."}, None)


def test_google_header_must_be_a_whole_line() -> None:
    doc = """Summary.

    Args: are what this function takes.

    Args:
        x: The x.
    """
    assert parse_docstring(doc) == Docstring(
        "Summary.\n\nArgs: are what this function takes.", {"x": "The x."}, None
    )


def test_google_indented_header_is_not_a_section() -> None:
    doc = """Summary.

    Example::

        Args:
            x: not a parameter
    """
    assert parse_docstring(doc) == Docstring(
        "Summary.\n\nExample::\n\n    Args:\n        x: not a parameter", {}, None
    )


def test_google_nested_brackets_and_colons_in_the_type() -> None:
    doc = """Summary.

    Args:
        mapping (Mapping[str, Callable[[int], str]]): Handlers: one per key.
        fallback (Literal["a:b", "c"]): Used when no key matches.
    """
    assert parse_docstring(doc) == Docstring(
        "Summary.",
        {"mapping": "Handlers: one per key.", "fallback": "Used when no key matches."},
        None,
    )


def test_numpy() -> None:
    doc = """Interpolate between points.

    Uses linear interpolation outside
    the known range.

    Parameters
    ----------
    x, y : array_like
        The coordinates: both the same
        length.
    kind : {'linear', 'cubic'}, optional
        The method.

        Cubic needs four points.
    *args
        Ignored.

    Other Parameters
    ----------------
    copy : bool, default: True
        Copy the input first.

    Returns
    -------
    ndarray
        The interpolated values.

    Raises
    ------
    ValueError
        If the lengths differ.

    Examples
    --------
    >>> interpolate([0, 1], [0, 2])
    """
    coordinates = "The coordinates: both the same length."
    assert parse_docstring(doc) == Docstring(
        "Interpolate between points.\n\nUses linear interpolation outside\nthe known range.",
        {
            "x": coordinates,
            "y": coordinates,
            "kind": "The method.\n\nCubic needs four points.",
            "args": "Ignored.",
            "copy": "Copy the input first.",
        },
        "The interpolated values.",
    )


def test_numpy_named_and_multiple_returns() -> None:
    doc = """Split a path.

    Returns
    -------
    head : str
        Everything before the last slash.
    tail : str
        The rest.
    """
    assert parse_docstring(doc) == Docstring(
        "Split a path.", {}, "Everything before the last slash.\n\nThe rest."
    )


def test_numpy_returns_as_plain_text() -> None:
    doc = """Count things.

    Returns
    -------
    The number of things
    that were counted.
    """
    assert parse_docstring(doc) == Docstring(
        "Count things.", {}, "The number of things that were counted."
    )


def test_numpy_returns_type_without_description() -> None:
    doc = "Count things.\n\nReturns\n-------\nint\n"
    assert parse_docstring(doc) == Docstring("Count things.", {}, "int")


def test_numpy_unknown_underlined_title_ends_a_section() -> None:
    doc = """Summary.

    Parameters
    ----------
    x : int
        The x.

    Details
    -------
    Free text.
    """
    assert parse_docstring(doc) == Docstring("Summary.", {"x": "The x."}, None)


def test_sphinx() -> None:
    doc = """Resize an image.

    Keeps the aspect ratio unless told otherwise.

    :param image: The image to resize: any
        format Pillow reads.
    :type image: Image
    :param int width: The target width.
    :param dict[str, int] hints: Extra hints,
        see :class:`Hints`.
    :param *args: Ignored.
    :keyword bool keep_ratio: Keep the ratio.
    :raises ValueError: If width is negative.
    :returns: The resized image.
    :rtype: Image
    """
    assert parse_docstring(doc) == Docstring(
        "Resize an image.\n\nKeeps the aspect ratio unless told otherwise.",
        {
            "image": "The image to resize: any format Pillow reads.",
            "width": "The target width.",
            "hints": "Extra hints, see :class:`Hints`.",
            "args": "Ignored.",
            "keep_ratio": "Keep the ratio.",
        },
        "The resized image.",
    )


def test_sphinx_return_and_multi_paragraph_field() -> None:
    doc = """Summary.

    :parameter x:
        First paragraph.

        Second paragraph.
    :return: The result.
    """
    assert parse_docstring(doc) == Docstring(
        "Summary.", {"x": "First paragraph.\n\nSecond paragraph."}, "The result."
    )


def test_sphinx_role_in_the_description_is_not_a_field() -> None:
    doc = """Summary.

    :class:`Thing` objects are accepted too.

    :param thing: The thing.
    """
    assert parse_docstring(doc) == Docstring(
        "Summary.\n\n:class:`Thing` objects are accepted too.", {"thing": "The thing."}, None
    )


def test_sphinx_wins_over_google_headers() -> None:
    doc = "Summary.\n\n:param x: The x.\n\nArgs:\n    y: The y.\n"
    assert parse_docstring(doc) == Docstring("Summary.", {"x": "The x."}, None)


def test_dashes_without_a_known_header_is_google() -> None:
    doc = """Summary
    -------

    Args:
        x: The x.
    """
    assert parse_docstring(doc) == Docstring("Summary\n-------", {"x": "The x."}, None)


def test_first_line_after_the_quotes_or_on_the_next_line() -> None:
    same_line = """Summary.

        Args:
            x: The x.
        """
    next_line = """
        Summary.

        Args:
            x: The x.
        """
    expected = Docstring("Summary.", {"x": "The x."}, None)
    assert parse_docstring(same_line) == expected
    assert parse_docstring(next_line) == expected


def test_docstring_of_a_real_function() -> None:
    def add(a: int, b: int) -> int:
        """Add two numbers.

        Args:
            a: The first.
            b: The second.

        Returns:
            int: The sum.
        """
        return a + b

    assert parse_docstring(add.__doc__) == Docstring(
        "Add two numbers.", {"a": "The first.", "b": "The second."}, "The sum."
    )


def test_windows_line_endings() -> None:
    doc = "Summary.\r\n\r\n    Args:\r\n        x (int): The x,\r\n            continued.\r\n    "
    assert parse_docstring(doc) == Docstring("Summary.", {"x": "The x, continued."}, None)


def test_old_mac_line_endings() -> None:
    doc = "Summary.\r\rParameters\r----------\rx : int\r    The x.\r"
    assert parse_docstring(doc) == Docstring("Summary.", {"x": "The x."}, None)


def test_tabs() -> None:
    doc = "Summary.\n\n\tArgs:\n\t\tx (int): The x,\n\t\t\tcontinued.\n\t\ty: The y.\n\t"
    assert parse_docstring(doc) == Docstring(
        "Summary.", {"x": "The x, continued.", "y": "The y."}, None
    )


def test_unbalanced_type_is_not_an_entry() -> None:
    doc = """Summary.

    Args:
        x (int: The x.
        y: The y.
    """
    assert parse_docstring(doc) == Docstring("Summary.", {"y": "The y."}, None)


def test_long_docstring() -> None:
    lines = [f"    arg{i} (int): Argument {i}:\n        continued." for i in range(5000)]
    doc = "Summary.\n\nArgs:\n" + "\n".join(lines) + "\n" + ":" + "a" * 100_000
    assert parse_docstring(doc) == Docstring(
        "Summary.", {f"arg{i}": f"Argument {i}: continued." for i in range(5000)}, None
    )
