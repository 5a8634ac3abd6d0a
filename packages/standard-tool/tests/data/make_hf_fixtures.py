"""Write ``hf_get_json_schema.json``: what ``transformers.utils.get_json_schema`` returns for
each function of ``hf_functions.py``, with the transformers version that produced it.

Run once, in a venv with transformers (torch is not needed)::

    uv run --no-project --with transformers --with jinja2 python make_hf_fixtures.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import transformers  # type: ignore[import-not-found]  # noqa: E402
from hf_functions import FUNCTIONS  # noqa: E402
from transformers.utils import get_json_schema  # type: ignore[import-not-found]  # noqa: E402

fixtures = {
    "transformers": transformers.__version__,
    "schemas": {function.__name__: get_json_schema(function) for function in FUNCTIONS},
}
(HERE / "hf_get_json_schema.json").write_text(json.dumps(fixtures, indent=1) + "\n")
