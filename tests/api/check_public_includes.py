#!/usr/bin/env python3
"""The public headers' include rule (docs/design/api.md): a header under include/mote/ includes
only C++ standard library headers (<vector>, <cstdint>, ...), other public headers ("mote/..."),
and — in the headers that carry Vulkan types, and only there — <vulkan/...>. Nothing from src/,
shaders/ or a third-party library (glm, fmt, nlohmann) may appear: a client of the API has only
include/ and the Vulkan headers on its include path.

The compile check in tests/api/CMakeLists.txt proves every header compiles on its own, but cannot
prove this rule on a system that installs glm, fmt and Vulkan under /usr/include (which every
compile searches): this script reads the #include lines instead.

  check_public_includes.py INCLUDE_DIR        exit 1 and list every violation
  check_public_includes.py --fixtures DIR     the script's own test: the lines of DIR's files
                                              marked `expect-violation` must be exactly the ones
                                              reported
"""
import pathlib
import re
import sys

# The C++20 standard library headers, including the C library's <c...> forms.
STANDARD = set("""
algorithm any array atomic barrier bit bitset charconv chrono codecvt compare complex concepts
condition_variable coroutine deque exception execution expected filesystem format forward_list
fstream functional future initializer_list iomanip ios iosfwd iostream istream iterator latch
limits list locale map memory memory_resource mutex new numbers numeric optional ostream queue
random ranges ratio regex scoped_allocator semaphore set shared_mutex source_location span
sstream stack stdexcept stop_token streambuf string string_view syncstream system_error thread
tuple type_traits typeindex typeinfo unordered_map unordered_set utility valarray variant vector
version
cassert cctype cerrno cfenv cfloat cinttypes climits clocale cmath csetjmp csignal cstdarg
cstddef cstdint cstdio cstdlib cstring ctime cuchar cwchar cwctype
""".split())

# The headers whose declarations carry Vulkan handles (docs/design/api.md: Vulkan types appear
# only there).
VULKAN_HEADERS = {"vulkan_interop.hpp", "host_vulkan_device.hpp", "particle_renderer.hpp"}

# Includes allowed while work that removes them is in flight (a warning says when an entry no
# longer matches anything: then delete it). None now.
PENDING: set = set()

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def violation(header_name, bracket, target):
    """Why this include breaks the rule, or None."""
    if bracket == '"':
        if target.startswith("mote/") and ".." not in target.split("/"):
            return None
        return 'a quoted include that is not "mote/..."'
    if target in STANDARD:
        return None
    if target.startswith("vulkan/"):
        if header_name in VULKAN_HEADERS:
            return None
        return "Vulkan outside " + " and ".join(sorted(VULKAN_HEADERS))
    return "not a C++ standard library header"


def scan(root):
    """(path, line number, text, reason) for every violation, and the pending entries seen."""
    found, pending_seen = [], set()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".hpp", ".h", ".inc")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            bracket, target = m.groups()
            if (path.name, target) in PENDING:
                pending_seen.add((path.name, target))
                continue
            reason = violation(path.name, bracket, target)
            if reason:
                found.append((path, number, line.strip(), reason))
    return found, pending_seen


def check(root):
    found, pending_seen = scan(root)
    for path, number, text, reason in found:
        print(f"{path}:{number}: {text}  -- {reason}")
    for entry in sorted(PENDING - pending_seen):
        print(f"warning: pending exception {entry[0]}: {entry[1]} no longer occurs; remove it from PENDING")
    print(f"public includes: {len(found)} violation(s)")
    return 1 if found else 0


def self_test(root):
    found, _ = scan(root)
    reported = {(p, n) for p, n, _, _ in found}
    expected = set()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "expect-violation" in line:
                expected.add((path, number))
    ok = True
    for path, number in sorted(expected - reported):
        print(f"{path}:{number}: a violation the check missed")
        ok = False
    for path, number in sorted(reported - expected):
        print(f"{path}:{number}: reported, but the line is allowed")
        ok = False
    if not expected:
        print("the fixtures mark no violations: nothing was tested")
        ok = False
    print(f"fixtures: {len(expected)} expected, {len(reported)} reported: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


def main(argv):
    if len(argv) == 3 and argv[1] == "--fixtures":
        return self_test(pathlib.Path(argv[2]))
    if len(argv) == 2:
        return check(pathlib.Path(argv[1]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
