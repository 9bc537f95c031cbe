#!/usr/bin/env python3
"""Writes the authored vector fields the scenes use (scenes/fields/*.mvf, the format of
docs/design/vector_field.md) from their closed forms, so the binary files can be rebuilt and
reviewed:

  scenes/fields/leaves_swirl.mvf  a swirl about the y axis (0.8 rad/s) with an updraft at its
                                  centre fading out 3 m from the axis, over [-4, 4] x [0, 6] x
                                  [-4, 4] on a 9 x 7 x 9 grid: the air scenes/leaves_swirl.json's
                                  leaves ride (effects/leaves_swirl.json, the field_drag module).

  make_vector_fields.py [SOURCE_DIR]
"""
import math
import pathlib
import struct
import sys


def write_field(path, size, box_min, box_max, vector_at):
    out = bytearray(b"MVF1")
    out += struct.pack("<3I", *size)
    out += struct.pack("<3f", *box_min)
    out += struct.pack("<3f", *box_max)
    for k in range(size[2]):
        for j in range(size[1]):
            for i in range(size[0]):  # x fastest, then y, then z
                p = [box_min[a] + (box_max[a] - box_min[a]) * (i, j, k)[a] / (size[a] - 1) for a in range(3)]
                out += struct.pack("<3f", *vector_at(*p))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out))


def swirl(x, y, z):
    r = math.hypot(x, z)
    omega = 0.8
    updraft = 0.8 * max(0.0, 1.0 - r / 3.0)
    return (-omega * z, updraft, omega * x)


def main():
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    write_field(root / "scenes/fields/leaves_swirl.mvf", (9, 7, 9), (-4.0, 0.0, -4.0), (4.0, 6.0, 4.0), swirl)


if __name__ == "__main__":
    main()
