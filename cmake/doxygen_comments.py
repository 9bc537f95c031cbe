#!/usr/bin/env python3
"""Doxygen input filter for Mote's public headers (cmake/MoteDocs.cmake).

The headers document each declaration with plain `//` prose above it, and members with a trailing
`// ...`; Doxygen reads only `///`. This prints the header with a line comment that starts a line
turned into `///` and a trailing one after a declaration into `///<`, so the API reference carries
the comments as written. Hand-kept regions and the header's opening comment are left to Doxygen.
"""
import re
import sys

LEADING = re.compile(r"^(\s*)//(?![/!])")
TRAILING = re.compile(r"([;,{])(\s*)//(?![/!])\s?")

with open(sys.argv[1], encoding="utf-8") as header:
    lines = header.read().split("\n")
seen_code = False  # the file's first comment block describes the file, not the next declaration
for line in lines:
    stripped = line.strip()
    if stripped and not stripped.startswith("//"):
        seen_code = True
    if seen_code and LEADING.match(line):
        line = LEADING.sub(r"\1///", line, count=1)
    elif seen_code:
        line = TRAILING.sub(r"\1\2///< ", line, count=1)
    sys.stdout.write(line + "\n")
