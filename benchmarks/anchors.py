"""The anchors' input: the synthetic catalog's schemas as one JSON Schema document, and the timed
`generate()` of datamodel-code-generator over it (`bench_build.py --child-generate`, in a fresh child).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from benchmarks import synth_catalog


def pascal(name: str) -> str:
    """snake_case to PascalCase, as model names read."""
    return "".join(part.capitalize() for part in name.split("_"))


def anchor_schema(count: int) -> dict[str, Any]:
    """Every tool's input and output schema as `$defs` of one document (local `$defs` hoisted)."""
    defs: dict[str, Any] = {}
    for index in range(count):
        doc = synth_catalog.contract(index)
        defs.update(tool_defs(doc))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Tools", "$defs": defs}


def tool_defs(doc: dict[str, Any]) -> dict[str, Any]:
    """`<Tool>Input` / `<Tool>Output` (and the tool's own `$defs`, renamed) for one contract."""
    prefix = pascal(doc["name"])
    out: dict[str, Any] = {}
    for key, suffix in (("input_schema", "Input"), ("output_schema", "Output")):
        if key not in doc:
            continue
        schema = json.loads(json.dumps(doc[key]))
        for inner, body in schema.pop("$defs", {}).items():
            out[prefix + inner] = body
        text = json.dumps(schema).replace('"#/$defs/', f'"#/$defs/{prefix}')
        out[prefix + suffix] = json.loads(text)
    return out


def child_generate(schema_path: str, formatters: str) -> None:
    """In a fresh interpreter: time one in-process `generate()` over the anchor schema; print seconds."""
    import warnings

    import datamodel_code_generator as dcg
    from datamodel_code_generator.enums import DataModelType

    warnings.simplefilter("ignore")
    options: dict[str, Any] = {
        "input_file_type": dcg.InputFileType.JsonSchema,
        "output_model_type": DataModelType.PydanticV2BaseModel,
        "disable_timestamp": True,
    }
    if formatters == "none":
        options["formatters"] = []
    text = Path(schema_path).read_text(encoding="utf-8")
    started = time.perf_counter()
    result = dcg.generate(text, **options)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "chars": len(str(result))}))
