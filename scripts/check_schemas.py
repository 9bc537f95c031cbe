#!/usr/bin/env python3
"""Checks the JSON schemas against the documents Mote ships (CTest graph.schemas).

Every effect preset (effects/*.json, effects/stateless/*.json) must validate against docs/effect.schema.json and every
scene (scenes/*.json) against docs/scene.schema.json, with a "$schema" key added as an editor
would add it; and documents broken the ways a person typing breaks them (an unknown node type,
a misspelt input port, a misspelt parameter, a parameter of the wrong kind, an unknown top-level
key; an unknown module, a module in the wrong stage, a misspelt module parameter or one of the
wrong type, an unknown stage) must not. Uses python3-jsonschema (Debian), draft 2020-12.

  check_schemas.py SOURCE_DIR
"""
import copy
import glob
import json
import os
import sys

import jsonschema


def validator(path):
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def first_node_with(doc, predicate):
    for section in ("init", "update"):
        for node in doc[section]["nodes"]:
            if predicate(node):
                return node
    raise AssertionError("no such node in the preset")


def main(source):
    failures = 0
    passes = 0

    def expect(ok, what):
        nonlocal failures, passes
        if ok:
            passes += 1
        else:
            failures += 1
            print("FAIL " + what)

    effect = validator(os.path.join(source, "docs/effect.schema.json"))
    scene = validator(os.path.join(source, "docs/scene.schema.json"))
    # docs/look/: the before/after scenes of docs/design/modules.md's pictures.
    for schema, pattern, name, least in ((effect, "effects/*.json", "effect.schema.json", 8),
                                         (effect, "effects/stateless/*.json", "effect.schema.json", 6),
                                         (scene, "scenes/*.json", "scene.schema.json", 8),
                                         (scene, "docs/look/*.json", "scene.schema.json", 2)):
        files = sorted(glob.glob(os.path.join(source, pattern)))
        expect(len(files) >= least, f"{pattern}: fewer than {least} files")
        for path in files:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            doc["$schema"] = "../docs/" + name
            errors = sorted(schema.iter_errors(doc), key=lambda e: e.path)
            expect(not errors, f"{path}: {errors[0].message if errors else ''}")

    # Node-level mistakes in a hand-written graph (the fire preset before its modules rewrite).
    with open(os.path.join(source, "tests/graph/preset_fixtures/fire.json"), encoding="utf-8") as f:
        fire = json.load(f)
    broken = []
    doc = copy.deepcopy(fire)
    first_node_with(doc, lambda n: True)["type"] = "no_such_node"
    broken.append(("an unknown node type", doc))
    doc = copy.deepcopy(fire)
    node = first_node_with(doc, lambda n: n.get("inputs"))
    key = next(iter(node["inputs"]))
    node["inputs"][key + "_typo"] = node["inputs"].pop(key)
    broken.append(("a misspelt input port", doc))
    doc = copy.deepcopy(fire)
    node = first_node_with(doc, lambda n: n.get("params"))
    key = next(iter(node["params"]))
    node["params"][key + "_typo"] = node["params"].pop(key)
    broken.append(("a misspelt parameter", doc))
    doc = copy.deepcopy(fire)
    node = first_node_with(doc, lambda n: n["type"] in ("get_field", "set_field"))
    node["params"]["field"] = 3
    broken.append(("a field parameter that is a number", doc))
    doc = copy.deepcopy(fire)
    doc["emissions"] = {}
    broken.append(("an unknown top-level key", doc))
    # Module-level mistakes in the preset as it is written now.
    with open(os.path.join(source, "effects/fire.json"), encoding="utf-8") as f:
        modules = json.load(f)
    doc = copy.deepcopy(modules)
    doc["modules"]["initialize"][0]["module"] = "no_such_module"
    broken.append(("an unknown module", doc))
    doc = copy.deepcopy(modules)
    doc["modules"]["update"].append({"module": "shape_point"})
    broken.append(("a module in another stage", doc))
    doc = copy.deepcopy(modules)
    doc["modules"]["initialize"][2]["life_minimum"] = 1.0
    broken.append(("a misspelt module parameter", doc))
    doc = copy.deepcopy(modules)
    doc["modules"]["update"][0]["gravity"] = 9.8
    broken.append(("a vector parameter given a number", doc))
    doc = copy.deepcopy(modules)
    doc["modules"]["later"] = []
    broken.append(("an unknown stage", doc))
    for what, doc in broken:
        expect(not effect.is_valid(doc), f"effect.schema.json accepts {what}")

    print(f"schemas: {passes} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
