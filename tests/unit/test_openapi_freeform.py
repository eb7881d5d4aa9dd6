"""scripts/openapi_freeform.py: what make lint counts as a free-form schema, and when it fails."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "openapi_freeform.py"
spec_of = importlib.util.spec_from_file_location("openapi_freeform", SCRIPT)
freeform = importlib.util.module_from_spec(spec_of)
spec_of.loader.exec_module(freeform)


def document(**schemas) -> dict:
    return {"openapi": "3.1.0", "paths": {}, "components": {"schemas": schemas}}


def test_objects_without_shape_and_untyped_values_are_free_form():
    found = freeform.free_forms(
        document(
            A={
                "type": "object",
                "properties": {
                    "bag": {"type": "object", "additionalProperties": {}},
                    "anything": {"description": "whatever it is"},
                    "map": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "typed": {
                        "type": "object",
                        "properties": {"x": {"type": "integer"}},
                        "additionalProperties": False,
                    },
                    "union": {"oneOf": [{"$ref": "#/components/schemas/B"}]},
                },
            }
        )
    )
    assert [where for where, _ in found] == [
        "components.schemas.A.properties.bag",
        "components.schemas.A.properties.anything",
    ]


def test_a_free_form_schema_must_say_why(tmp_path):
    spec = tmp_path / "openapi.yaml"
    spec.write_text("openapi: 3.1.0\npaths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n")
    assert freeform.main(["x", str(spec)]) == 1
    spec.write_text(
        "openapi: 3.1.0\npaths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n"
        '      description: "Free-form: whatever a plugin stores"\n'
    )
    assert freeform.main(["x", str(spec)]) == 0
