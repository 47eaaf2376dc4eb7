#!/usr/bin/python3
"""Every shipped JSON scene validates against scenes/scene.schema.json, and the schema refuses
hand-made bad scenes. Uses Debian's python3-jsonschema."""
import json
import pathlib
import sys

import jsonschema

scenes = pathlib.Path(sys.argv[1])
schema = json.loads((scenes / "scene.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

good = sorted(p for p in scenes.glob("*.json") if p.name != "scene.schema.json")
for path in good:
    errors = list(validator.iter_errors(json.loads(path.read_text())))
    if errors:
        sys.exit(f"{path}: {errors[0].message}")

bad = [
    {},
    {"bodies": {}},
    {"bodies": [{"shape": {"type": "circle"}}]},
    {"bodies": [{"shape": {"type": "circle", "radius": -1}}]},
    {"bodies": [{"shape": {"type": "box", "half_extents": [0, 1]}}]},
    {"bodies": [{"shape": {"type": "blob", "radius": 1}}]},
    {"bodies": [{"angle": 1, "angle_deg": 2, "shape": {"type": "circle", "radius": 1}}]},
    {"bodies": [{"colour": "red", "shape": {"type": "circle", "radius": 1}}]},
    {"bodies": [{"position": [1, 2, 3], "shape": {"type": "circle", "radius": 1}}]},
    {"bodies": [{"shape": {"type": "polygon", "vertices": [[0, 0], [1, 0]]}}]},
    {"bodies": [{"type": "rolling", "shape": {"type": "circle", "radius": 1}}]},
    {"bodies": [{"density": -1, "shape": {"type": "circle", "radius": 1}}]},
    {"bodies": [{"friction": -0.5, "shape": {"type": "circle", "radius": 1}}]},
    {"bodies": [{"restitution": -0.1, "shape": {"type": "circle", "radius": 1}}]},
    {"bodies": [{"density": "heavy", "shape": {"type": "circle", "radius": 1}}]},
]
for scene in bad:
    if validator.is_valid(scene):
        sys.exit(f"the schema accepted a bad scene: {json.dumps(scene)}")
print(f"schema: {len(good)} shipped scenes valid, {len(bad)} bad scenes refused")
