#!/usr/bin/env python3
"""Writes the render tests' textures (run once; the PNGs are committed next to this file).

quadrants.png   64 x 64: four opaque quadrants (red top-left, green top-right, blue bottom-left,
                white bottom-right) inside a transparent 2-texel border, so a sprite shows which
                way up and which way round it is drawn.
flipbook_2x2.png 64 x 64: a 2 x 2 flipbook, cells row-major from the top-left: red, green, blue,
                yellow discs (alpha falling off at the rim), each with a dark notch at its cell's
                top-left, so a wrong cell, a flipped cell or a blend of two shows.
"""
import os
import struct
import zlib


def write_png(path, width, height, rgba):
    raw = b"".join(b"\x00" + bytes(rgba[y * width * 4:(y + 1) * width * 4]) for y in range(height))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def quadrants():
    n = 64
    px = []
    colours = {(0, 0): (230, 40, 40), (1, 0): (40, 200, 60), (0, 1): (50, 80, 230), (1, 1): (240, 240, 240)}
    for y in range(n):
        for x in range(n):
            border = x < 2 or y < 2 or x >= n - 2 or y >= n - 2
            r, g, b = colours[(x * 2 // n, y * 2 // n)]
            px += [r, g, b, 0 if border else 255]
    return n, n, px


def flipbook():
    cell = 32
    n = cell * 2
    colours = [(235, 50, 40), (50, 210, 70), (60, 90, 240), (245, 220, 40)]
    px = []
    for y in range(n):
        for x in range(n):
            c = (y // cell) * 2 + (x // cell)
            cx, cy = x % cell + 0.5, y % cell + 0.5
            d = ((cx - cell / 2) ** 2 + (cy - cell / 2) ** 2) ** 0.5 / (cell / 2 - 1)
            alpha = max(0.0, min(1.0, (1.0 - d) * 4.0))
            r, g, b = colours[c]
            if cx < cell * 0.45 and cy < cell * 0.45 and cx > cell * 0.2 and cy > cell * 0.2:
                r, g, b = r // 5, g // 5, b // 5  # the notch at the cell's top-left
            px += [r, g, b, int(round(alpha * 255))]
    return n, n, px


here = os.path.dirname(os.path.abspath(__file__))
for name, make in (("quadrants.png", quadrants), ("flipbook_2x2.png", flipbook)):
    w, h, data = make()
    write_png(os.path.join(here, name), w, h, data)
