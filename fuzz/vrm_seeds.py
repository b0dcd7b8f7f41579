#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the seed corpus of fuzz_vrm (fuzz/corpus/vrm/) from the public models and motions in
# tests/vrm/: the three small glTF samples (bare and followed by a motion), a GLB made from one
# of them, Godette's VRM 0.x spring bones cut down to a small document (nodes, asset and
# secondaryAnimation of its GLB's JSON chunk), a hand-written 0.x document and a few malformed
# containers and documents. The input format is fuzz/fuzz_vrm.c's: a model, optionally
# "\n--motion--\n" and a motion. Usage: fuzz/vrm_seeds.py (from anywhere; rewrites the seeds).
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "tests", "vrm", "models")
MOTIONS = os.path.join(ROOT, "tests", "vrm", "motions")
OUT = os.path.join(ROOT, "fuzz", "corpus", "vrm")
SEP = b"\n--motion--\n"


def read(*parts):
    with open(os.path.join(*parts), "rb") as f:
        return f.read()


def glb(json_bytes, bin_bytes=b"", version=2, total=None, json_length=None):
    padded = json_bytes + b" " * (-len(json_bytes) % 4)
    binary = bin_bytes + b"\0" * (-len(bin_bytes) % 4)
    body = struct.pack("<II", len(padded) if json_length is None else json_length, 0x4E4F534A) + padded
    body += struct.pack("<II", len(binary), 0x004E4942) + binary
    size = 12 + len(body)
    return struct.pack("<4sII", b"glTF", version, size if total is None else total) + body


def minify(doc):
    return json.dumps(doc, separators=(",", ":")).encode()


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {}
    for name in ("sphere-collider", "inside-collider", "plane-collider"):
        seeds[name + ".gltf"] = read(MODELS, name + ".gltf")
    seeds["sphere-collider+sway"] = seeds["sphere-collider.gltf"] + SEP + minify(json.loads(read(MOTIONS, "sway.json")))
    seeds["plane-collider+turn"] = seeds["plane-collider.gltf"] + SEP + minify(json.loads(read(MOTIONS, "turn.json")))

    # A GLB: the inside-collider sample's JSON (its buffer made the BIN chunk) and its mesh.
    inside = json.loads(seeds["inside-collider.gltf"])
    for buf in inside.get("buffers", []):
        buf.pop("uri", None)
    mesh = read(MODELS, "sphere_mesh.bin")
    seeds["inside-collider.glb"] = glb(minify(inside), mesh)
    seeds["inside-collider.glb+shake"] = seeds["inside-collider.glb"] + SEP + minify(json.loads(read(MOTIONS, "shake.json")))

    # Godette (CC BY 3.0, tests/vrm/models/LICENSE.Godette-CC-BY-3.0.txt): the JSON chunk's nodes,
    # scene and spring bones only.
    god = read(MODELS, "Godette_vrm_v4.vrm")
    length = struct.unpack("<I", god[12:16])[0]
    doc = json.loads(god[20 : 20 + length])
    small = {k: doc[k] for k in ("asset", "scene", "scenes", "nodes") if k in doc}
    small["extensions"] = {"VRM": {"secondaryAnimation": doc["extensions"]["VRM"]["secondaryAnimation"]}}
    seeds["godette-0x.gltf"] = minify(small)
    seeds["godette-0x+shake"] = seeds["godette-0x.gltf"] + SEP + minify(json.loads(read(MOTIONS, "godette-shake.json")))

    # A hand-written VRM 0.x document: one bone group on a chain with a leaf, a sphere collider.
    seeds["hand-0x.gltf"] = minify({
        "asset": {"version": "2.0"},
        "nodes": [{"name": "hips", "children": [1, 3]}, {"name": "hair", "translation": [0, 1, 0], "children": [2]},
                  {"name": "tip", "translation": [0, -0.2, 0.01]}, {"name": "head", "translation": [0, 1.2, 0]}],
        "scenes": [{"nodes": [0]}],
        "extensions": {"VRM": {"secondaryAnimation": {
            "boneGroups": [{"bones": [1], "stiffiness": 1.5, "gravityPower": 0.2, "gravityDir": {"x": 0, "y": -1, "z": 0},
                            "dragForce": 0.4, "hitRadius": 0.02, "center": -1, "colliderGroups": [0]}],
            "colliderGroups": [{"node": 3, "colliders": [{"offset": {"x": 0, "y": 0.1, "z": 0.05}, "radius": 0.1}]}]}}},
    }) + SEP + b'{"duration":1,"tracks":[{"node":"head","rotation":[[0,0,0,0,1],[1,0,1,0,0]]},' \
               b'{"node":"$root","translation":[[0.5,0,0,0]]}]}'

    # A 1.0 document with a capsule, an inside capsule and a centre.
    seeds["hand-1.0.gltf"] = minify({
        "asset": {"version": "2.0"},
        "nodes": [{"name": "root", "children": [1, 4]}, {"name": "a", "translation": [0, 1, 0], "children": [2]},
                  {"name": "b", "translation": [0, 0.3, 0], "children": [3]}, {"name": "c", "translation": [0, 0.3, 0]},
                  {"name": "body", "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 1]}],
        "extensions": {"VRMC_springBone": {
            "specVersion": "1.0",
            "colliders": [{"node": 4, "shape": {"capsule": {"offset": [0, 0, 0], "radius": 0.1, "tail": [0, 0.5, 0]}}},
                          {"node": 4, "shape": {"sphere": {"radius": 0}},
                           "extensions": {"VRMC_springBone_extended_collider": {
                               "specVersion": "1.0", "shape": {"capsule": {"radius": 2, "tail": [0, 1, 0], "inside": True}}}}}],
            "colliderGroups": [{"colliders": [0, 1]}],
            "springs": [{"joints": [{"node": 1, "hitRadius": 0.05, "stiffness": 1, "gravityPower": 0.5,
                                     "gravityDir": [0, -1, 0], "dragForce": 0.5}, {"node": 2}, {"node": 3}],
                         "colliderGroups": [0], "center": 0}]}},
    })

    # Malformed: containers that lie, documents cut short.
    sphere = json.loads(seeds["sphere-collider.gltf"])
    js = minify(sphere)
    seeds["bad-glb-total"] = glb(js, total=12)
    seeds["bad-glb-version"] = glb(js, version=1)
    seeds["bad-glb-chunk-length"] = glb(js, json_length=1 << 20)
    seeds["bad-glb-cut"] = glb(js)[:64]
    seeds["bad-json-cut.gltf"] = js[: len(js) // 2]
    seeds["bad-joint-node.gltf"] = js.replace(b'"node":4', b'"node":99', 1)
    seeds["bad-motion"] = seeds["sphere-collider.gltf"] + SEP + b'{"duration":1,"tracks":[{"node":"Spring A"}]}'

    for name, data in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print("%d seeds in %s" % (len(seeds), os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
