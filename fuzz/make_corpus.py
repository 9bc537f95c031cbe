#!/usr/bin/env python3
"""Writes the seed corpora under fuzz/corpus/<target>/: the repository's own programs, effects and
scenes, small images of every format stb decodes (written by the packaged libstb's writers
through ctypes, plus hand-made GIF, PNM and palette/interlaced PNG files), small glTF files, and
the regression inputs of docs/design/reliability.md's findings.  The .mfx seeds need the `mote`
tool:
    python3 fuzz/make_corpus.py --mote build/tools/mote/mote
"""
import argparse
import base64
import ctypes
import json
import pathlib
import shutil
import struct
import subprocess
import tempfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def target(name):
    d = CORPUS / name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    return d


def copy_all(pattern_dir, glob, dest):
    for p in sorted((ROOT / pattern_dir).glob(glob)):
        shutil.copy(p, dest / p.name)


# ---- programs --------------------------------------------------------------------------------

MASM_EXTRA = {
    # finding 1: a width that wraps the record size
    "finding1_width_wraps.masm": ".registers 4\n.particle a 4294967295\n.update\n",
    "minimal.masm": ".registers 1\n.particle x 1\n.update\n  STORE_FIELD @x, 1.0\n",
    "words.masm": ".registers 2\n.init\n  .word 0x00000000 0 0 0\n",
    # EMIT_EVENT's raw event output operand, and the payload builtins a child's INIT reads
    "events.masm": ".registers 8\n.particle position 3\n.particle life 1\n.init\n"
                   "  LOAD_BUILTIN r0.xyz, EVENT_POSITION\n  STORE_FIELD @position, r0.xyz\n"
                   "  EMIT_EVENT 1.0, e[1]\n.update\n  LOAD_FIELD r4.x, @life\n  EMIT_EVENT r4.x, e[3]\n",
}



# The smallest module the loader accepts: a GLCompute "main" that returns (SPIR-V 1.6).
TINY_KERNEL = [0x07230203, 0x00010600, 0, 5, 0,
               2 << 16 | 17, 1,                          # OpCapability Shader
               3 << 16 | 14, 0, 1,                       # OpMemoryModel Logical GLSL450
               5 << 16 | 15, 5, 1, 0x6E69616D, 0,        # OpEntryPoint GLCompute %1 "main"
               6 << 16 | 16, 1, 17, 1, 1, 1,             # OpExecutionMode %1 LocalSize 1 1 1
               2 << 16 | 19, 2,                          # %2 = OpTypeVoid
               3 << 16 | 33, 3, 2,                       # %3 = OpTypeFunction %2
               5 << 16 | 54, 2, 1, 0, 3,                 # %1 = OpFunction %2 None %3
               2 << 16 | 248, 4,                         # %4 = OpLabel
               1 << 16 | 253,                            # OpReturn
               1 << 16 | 56]                             # OpFunctionEnd


def with_tiny_kernel(file_bytes):
    """A cooked effect whose KERN (the last chunk) holds one simulate kernel, TINY_KERNEL, under the
    program hash the real kernels carry."""
    at = 16
    while True:
        tag, size = struct.unpack_from("<4sI", file_bytes, at)
        if tag == b"KERN":
            break
        at += 8 + size
    payload = at + 8
    program_hash = struct.unpack_from("<II", file_bytes, payload + 8)  # kernel 0: stage, hash
    kern = struct.pack("<IIIII", 1, 1, program_hash[0], program_hash[1], len(TINY_KERNEL))
    kern += struct.pack("<%dI" % len(TINY_KERNEL), *TINY_KERNEL)
    body = file_bytes[16:at] + b"KERN" + struct.pack("<I", len(kern)) + kern
    return file_bytes[:8] + struct.pack("<II", len(body), zlib.crc32(body)) + body


def programs(mote):
    masm = target("fuzz_masm")
    copy_all("programs", "*.masm", masm)
    for name, text in MASM_EXTRA.items():
        (masm / name).write_text(text)
    mfx = target("fuzz_mfx")
    if not mote:
        print("no --mote: fuzz_mfx left empty")
        return
    for p in sorted(masm.glob("*.masm")):
        out = mfx / (p.stem + ".mfx")
        if subprocess.run([mote, "asm", str(p), "-o", str(out)], capture_output=True).returncode != 0:
            out.unlink(missing_ok=True)
    # The presets cooked (docs/design/cooked.md): the cooked effect decoder's seeds, without their
    # kernels (a real kernel is tens of kilobytes of SPIR-V, which the validator would take for
    # every execution), and fire with one tiny valid kernel (the KERN reader and the validator).
    cooked = target("fuzz_cooked")
    for p in sorted((ROOT / "effects").glob("*.json")):
        out = cooked / (p.stem + ".mfe")
        if subprocess.run([mote, "compile", str(p), "-o", str(out), "--no-kernels"],
                          capture_output=True).returncode != 0:
            out.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        full = pathlib.Path(tmp) / "fire.mfe"
        if subprocess.run([mote, "compile", str(ROOT / "effects" / "fire.json"), "-o", str(full)],
                          capture_output=True).returncode == 0:
            (cooked / "fire_tiny_kernel.mfe").write_bytes(with_tiny_kernel(full.read_bytes()))

    # A truncated file and one with a flipped byte: the decoder's error paths from the start.
    first = sorted(mfx.glob("*.mfx"))[0].read_bytes()
    (mfx / "truncated.mfx").write_bytes(first[: len(first) // 2])
    flipped = bytearray(first)
    flipped[len(flipped) // 3] ^= 0xFF
    (mfx / "flipped.mfx").write_bytes(bytes(flipped))


# ---- documents -------------------------------------------------------------------------------

def documents():
    effect = target("fuzz_effect")
    copy_all("effects", "*.json", effect)
    explosion = json.loads((ROOT / "effects" / "explosion.json").read_text())
    forever = dict(explosion)
    forever["emission"] = {"capacity": 64, "bursts": [{"time": 0, "count": 5, "cycles": 0, "interval": 1e-30}]}
    (effect / "finding3_forever_burst.json").write_text(json.dumps(forever))
    five = dict(explosion)
    five["emission"] = {"bursts": [{"time": t, "count": 10} for t in range(5)]}
    (effect / "finding11_five_bursts.json").write_text(json.dumps(five))
    (effect / "finding11_duplicate_key.json").write_text('{"name": "a", "name": "b"}')
    (effect / "finding7_nesting.json").write_text("[" * 80)

    scene = target("fuzz_scene")
    copy_all("scenes", "*.json", scene)
    chain = [{"name": "t0"}] + [{"name": f"t{i}", "parent": f"t{i - 1}"} for i in range(1, 70)]
    (scene / "finding5_deep_chain.json").write_text(json.dumps({"version": 1, "transforms": chain}))
    (scene / "finding4_empty_objects.json").write_text('{"version": 1, "objects": [' + ",".join(["{}"] * 200) + "]}")
    (scene / "escape_path.json").write_text(json.dumps(
        {"version": 1, "emitters": [{"effect": "../../etc/passwd"}], "objects": [{"shape": "mesh", "mesh": "/x.glb"}]}))


# ---- images ----------------------------------------------------------------------------------

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, colour_type, depth, rows, palette=None, interlace=0):
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0,
                                                                  interlace))
    if palette:
        out += png_chunk(b"PLTE", palette)
    out += png_chunk(b"IDAT", zlib.compress(rows, 9)) + png_chunk(b"IEND", b"")
    return out


def gif_1x1():
    return (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\x00\x00\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00"
            b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


def stb_images(dest):
    stb = ctypes.CDLL("libstb.so")
    w, h = 12, 8
    pixels = bytes((x * 20 + y * 3) % 256 for y in range(h) for x in range(w) for _ in range(4))
    buf = ctypes.create_string_buffer(pixels)
    with tempfile.TemporaryDirectory() as tmp:
        for ext, call in [("png", lambda p: stb.stbi_write_png(p, w, h, 4, buf, w * 4)),
                          ("bmp", lambda p: stb.stbi_write_bmp(p, w, h, 3, buf)),
                          ("tga", lambda p: stb.stbi_write_tga(p, w, h, 4, buf)),
                          ("jpg", lambda p: stb.stbi_write_jpg(p, w, h, 3, buf, 80))]:
            path = pathlib.Path(tmp) / f"stb.{ext}"
            if call(str(path).encode()):
                shutil.copy(path, dest / f"stb_{w}x{h}.{ext}")
        floats = (ctypes.c_float * (w * h * 3))(*[((i % 7) / 7.0) for i in range(w * h * 3)])
        path = pathlib.Path(tmp) / "stb.hdr"
        if stb.stbi_write_hdr(str(path).encode(), w, h, 3, floats):
            shutil.copy(path, dest / f"stb_{w}x{h}.hdr")


def images():
    dest = target("fuzz_image")
    grey = b"".join(b"\x00" + bytes(range(y * 4, y * 4 + 16)) for y in range(16))
    (dest / "grey_16x16.png").write_bytes(png(16, 16, 0, 8, grey))
    rgba = b"".join(b"\x01" + bytes((x * 16 + y) % 256 for x in range(32)) for y in range(8))
    (dest / "rgba_8x8_sub_filter.png").write_bytes(png(8, 8, 6, 8, rgba))
    pal = b"".join(b"\x00" + bytes([(x + y) % 4 for x in range(8)]) for y in range(8))
    (dest / "palette_8x8.png").write_bytes(png(8, 8, 3, 8, pal, palette=bytes(range(12))))
    inter = b"\x00" * 64
    (dest / "interlaced_7x7.png").write_bytes(png(7, 7, 0, 8, inter, interlace=1))
    (dest / "finding11_zero_header.png").write_bytes(png(0, 0, 0, 8, b""))
    (dest / "finding11_huge_header.png").write_bytes(png(100000, 100000, 0, 8, b"\x00"))
    (dest / "one.gif").write_bytes(gif_1x1())
    (dest / "tiny.pgm").write_bytes(b"P5\n4 2\n255\n" + bytes(range(8)))
    (dest / "tiny.ppm").write_bytes(b"P6\n2 2\n255\n" + bytes(range(12)))
    stb_images(dest)
    # The fuzzers' own findings (docs/design/reliability.md), the regression inputs of
    # tests/reliability/assets_findings_test.cpp.
    for p in sorted((ROOT / "tests" / "reliability" / "data").glob("stb_*")):
        shutil.copy(p, dest / f"fuzzer_finding_{p.name}")
    # stb's memcpy(NULL, p, 0) on an empty IDAT (harmless; see fuzz/CMakeLists.txt): a seed only.
    (dest / "fuzzer_finding_stb_png_empty_idat.png").write_bytes(base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAMAAADz0U65AAAADFBMVEUAAQIDBAUGBwgJCgsAAAAAAAAAAElEQVR42mNgYGRi"
        "RsEMMDYDTIyBCDUADcgAYdp327sAAAAASUUOma5CYII="))


# ---- glTF ------------------------------------------------------------------------------------

def gltf_model():
    positions = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    indices = struct.pack("<3H", 0, 1, 2) + b"\x00\x00"
    binary = positions + indices
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "children": [1], "translation": [1, 0, 0]}, {"mesh": 0, "scale": [2, 2, 2]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]},
                      {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}],
    }
    return doc, binary


def glb(doc, binary):
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\x00" * (-len(binary) % 4)
    body = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(binary), b"BIN\x00") + binary
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def gltf():
    dest = target("fuzz_gltf")
    doc, binary = gltf_model()
    embedded = json.loads(json.dumps(doc))
    embedded["buffers"] = [{"byteLength": len(binary),
                            "uri": "data:application/octet-stream;base64," + base64.b64encode(binary).decode()}]
    (dest / "triangle_embedded.gltf").write_text(json.dumps(embedded))
    inner = json.loads(json.dumps(doc))
    inner["buffers"] = [{"byteLength": len(binary)}]
    (dest / "triangle.glb").write_bytes(glb(inner, binary))
    escape = json.loads(json.dumps(doc))
    escape["buffers"] = [{"byteLength": len(binary), "uri": "../secret.bin"}]
    (dest / "finding9_escape.gltf").write_text(json.dumps(escape))


# ---- vector fields ---------------------------------------------------------------------------

def mvf(size, box_min, box_max, vectors):
    """A .mvf file (docs/design/vector_field.md): magic, u32 size[3], f32 box, f32 vectors."""
    return (b"MVF1" + struct.pack("<3I", *size) + struct.pack("<3f", *box_min) + struct.pack("<3f", *box_max) +
            struct.pack(f"<{len(vectors)}f", *vectors))


def vector_fields():
    dest = target("fuzz_vector_field")
    corners = [float(v) for i in range(8) for v in (i & 1, (i >> 1) & 1, -(i >> 2))]
    (dest / "cube_2x2x2.mvf").write_bytes(mvf((2, 2, 2), (-1, -1, -1), (1, 1, 1), corners))
    swirl = []
    for z in range(3):
        for y in range(4):
            for x in range(2):
                swirl += [-(y - 1.5), x - 0.5, 0.1 * z]
    (dest / "swirl_2x4x3.mvf").write_bytes(mvf((2, 4, 3), (0, 0, 0), (2, 6, 1.5), swirl))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mote", help="the mote tool, for the .mfx seeds")
    args = parser.parse_args()
    programs(args.mote)
    documents()
    images()
    gltf()
    vector_fields()


if __name__ == "__main__":
    main()
