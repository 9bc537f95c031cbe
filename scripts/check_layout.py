#!/usr/bin/env python3
"""Checks the project's layout rules (CONTRIBUTING.md): no C++ file over 600 lines, no function
definition over 120 lines, in src/, include/ and tools/. Prints one line per finding and exits 1
when there is any that the allowlist does not cover; 0 otherwise.

    scripts/check_layout.py [--allow FILE] [--root DIR] [--max-file-lines N]
                            [--max-function-lines N] [PATH ...]

PATHs (files or folders, relative to --root) default to src, include and tools. `--allow FILE`
names paths (one per line, '#' starts a comment) whose findings are tolerated for now; an entry
that no longer has any finding gets a warning, so the list only shrinks.

How functions are found (a heuristic, not a C++ parser):
  1. The text is cleaned first: comments, string and character literals (raw strings included,
     digit separators such as 1'000 left alone) are blanked, and preprocessor lines (with their
     backslash continuations) are dropped, keeping every newline so line numbers stay right.
     Braces inside any of those are never counted; braces in `#if` branches are never seen, so a
     definition whose head is split across `#if`/`#else` is read by the branch text left.
  2. The braces that remain are matched with a stack of scopes. In a declaration scope (the
     file, a namespace, `extern "C"`, a class, struct, union or enum body) the text since the last
     `;`, `{` or `}` is the head of the next `{`. The head opens:
       - a declaration scope when it names `namespace`, is `extern "..."`, or declares a class,
         struct, union or enum;
       - a function when, after cutting a constructor's initializer list, a trailing return type
         and qualifiers (const, noexcept, override, final, mutable, &, &&, try), it ends in a
         parameter list `(...)` after a name or an operator, or in a lambda's `[...]` or
         `[...](...)`; a macro such as TEST(Suite, Name) counts as a function too;
       - otherwise a brace initializer, whose `{...}` stays part of the head (so
         `Foo() : a_{1}, b_{2} {` is still a constructor).
     Inside a function every brace is the function's own: lambdas, local classes and blocks count
     toward the lines of the function around them.
  3. A function's length runs from the first line of its head (a `template <...>` line included)
     to its closing brace.
"""

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_PATHS = ("src", "include", "tools")
CPP_SUFFIXES = {".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".h", ".inl", ".ipp"}
RAW_STRING_PREFIXES = {"R", "u8R", "uR", "UR", "LR"}
CHAR_PREFIXES = {"", "u8", "u", "U", "L"}
NOT_FUNCTION_NAMES = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof", "alignas",
                      "static_assert", "noexcept", "requires"}
TRAILING_QUALIFIERS = re.compile(r"\s*(?:\b(?:const|volatile|noexcept|override|final|mutable|constexpr|try)\b|&&|&)\s*$")
TRAILING_NOEXCEPT_ARGS = re.compile(r"\bnoexcept\s*$")


# ---- cleaning ----------------------------------------------------------------------------------


def identifier_before(text, i):
    """The run of identifier characters that ends just before text[i]."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] == "_"):
        j -= 1
    return text[j:i]


def blank(chunk):
    """`chunk` with everything but newlines turned into spaces."""
    return "".join(c if c == "\n" else " " for c in chunk)


def skip_quoted(text, i, quote):
    """The index just past the literal that opens at text[i] (an unterminated one ends at the line)."""
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n":
            return j
        j += 1
    return j


def clean(text):
    """`text` with comments and literals blanked and preprocessor lines dropped; same length."""
    out = []
    i = 0
    n = len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "\n":
            out.append(c)
            at_line_start = True
            i += 1
            continue
        if at_line_start and c == "#":
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n" else 1
            out.append(blank(text[i:j]))
            i = j
            continue
        if not c.isspace():
            at_line_start = False
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif c == "/" and nxt == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' and identifier_before(text, i) in RAW_STRING_PREFIXES:
            open_paren = text.find("(", i)
            delimiter = text[i + 1:open_paren] if open_paren >= 0 else ""
            end = text.find(")" + delimiter + '"', open_paren) if open_paren >= 0 else -1
            j = n if end < 0 else end + len(delimiter) + 2
            out.append('"' + blank(text[i + 1:j - 1]) + '"')
            i = j
        elif c == '"':
            j = skip_quoted(text, i, '"')
            out.append('"' + blank(text[i + 1:j - 1]) + '"' if j - i >= 2 else blank(text[i:j]))
            i = j
        elif c == "'":
            before = identifier_before(text, i)
            if before[:1].isdigit() or before not in CHAR_PREFIXES:
                out.append(" ")  # a digit separator (1'000)
                i += 1
                continue
            j = skip_quoted(text, i, "'")
            out.append(blank(text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


# ---- heads -------------------------------------------------------------------------------------


def matching_open(s, close_index, open_char, close_char):
    """The index of the bracket that opens the one closing at s[close_index], or -1."""
    depth = 0
    for k in range(close_index, -1, -1):
        if s[k] == close_char:
            depth += 1
        elif s[k] == open_char:
            depth -= 1
            if depth == 0:
                return k
    return -1


def cut_after_parameters(s):
    """(`s` up to a constructor initializer list or trailing return type that follows a `)`,
    the initializer list or None)."""
    depth = 0
    seen_close = False
    k = 0
    while k < len(s):
        c = s[k]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            seen_close = seen_close or depth == 0
        elif depth == 0 and seen_close:
            if c == ":" and s[k + 1:k + 2] != ":" and s[k - 1:k] != ":":
                return s[:k].rstrip(), s[k + 1:].strip()
            if s.startswith("->", k):
                return s[:k].rstrip(), None
        k += 1
    return s, None


def is_lambda_introducer(s, close_index):
    """Whether the `]` at s[close_index] closes a lambda's capture list, not an array's size."""
    open_index = matching_open(s, close_index, "[", "]")
    if open_index < 0:
        return False
    before = s[:open_index].rstrip()
    return not before or before[-1] in "=(,{" or re.search(r"\breturn$", before) is not None


def function_name(head):
    """The name of the function `head` opens ('lambda' for a lambda), or None if it is none."""
    s, initializers = cut_after_parameters(head)
    # In `A() : a_{1}, b_(2) {` the first `{` initializes a_: only a complete list opens the body.
    if initializers is not None and not re.search(r"[)}]\s*(\.\.\.)?$", initializers):
        return None
    while True:
        stripped = TRAILING_QUALIFIERS.sub("", s)
        if s.endswith(")"):
            open_index = matching_open(s, len(s) - 1, "(", ")")
            if open_index > 0 and TRAILING_NOEXCEPT_ARGS.search(s[:open_index]):
                stripped = TRAILING_NOEXCEPT_ARGS.sub("", s[:open_index]).rstrip()
        if stripped == s:
            break
        s = stripped.rstrip()
    if s.endswith("]"):
        return "lambda" if is_lambda_introducer(s, len(s) - 1) else None
    if not s.endswith(")"):
        return None
    open_index = matching_open(s, len(s) - 1, "(", ")")
    if open_index <= 0:
        return None
    before = s[:open_index].rstrip()
    operator = re.search(r"\boperator\b\s*(\(\s*\)|\[\s*\]|[^\w\s(]+|\w[\w\s:<>*&]*)$", before)
    if operator:
        symbol = re.sub(r"\s+", " ", operator.group(1)).strip()
        return "operator" + (" " if symbol[0].isalpha() else "") + re.sub(r"\s+(?=\W)|(?<=\W)\s+", "", symbol)
    if before.endswith("]"):
        return "lambda" if is_lambda_introducer(before, len(before) - 1) else None
    name = re.search(r"(~?[A-Za-z_]\w*)(\s*<[^<>]*>)?$", before)
    if not name or name.group(1) in NOT_FUNCTION_NAMES:
        return None
    if name.group(1).isupper():  # a macro such as TEST(Suite, Name): its arguments name it
        return name.group(1) + re.sub(r"\s+", " ", s[open_index:])
    qualified = re.search(r"((?:[A-Za-z_]\w*(?:<[^<>]*>)?\s*::\s*)*~?[A-Za-z_]\w*)(\s*<[^<>]*>)?$", before)
    return re.sub(r"\s+", "", qualified.group(1))


def opens_declaration_scope(head):
    return bool(re.search(r"\bnamespace\b", head) or re.fullmatch(r'\s*extern\s*"\s*"\s*', head)
                or re.search(r"\b(class|struct|union|enum)\b", head))


# ---- scopes ------------------------------------------------------------------------------------


@dataclass
class Scope:
    kind: str  # "declaration", "function" or "block"
    start_line: int = 0
    name: str = ""
    fold_into_head: bool = False  # a brace initializer inside a head
    head: list = field(default_factory=list)
    head_line: int = 0
    parens: int = 0

    def reset_head(self):
        self.head = []
        self.head_line = 0
        self.parens = 0


@dataclass
class Function:
    name: str
    start_line: int
    end_line: int

    @property
    def lines(self):
        return self.end_line - self.start_line + 1


def find_functions(text):
    """Every function definition in C++ `text` that is not inside another one."""
    code = clean(text)
    functions = []
    stack = [Scope("declaration")]
    line = 1
    for c in code:
        top = stack[-1]
        if c == "\n":
            line += 1
        if top.kind != "declaration":
            if c == "{":
                stack.append(Scope("block"))
            elif c == "}":
                close_scope(stack, functions, line)
            continue
        if c == "{":
            open_scope(stack, line)
        elif c == "}":
            close_scope(stack, functions, line)
        elif c == ";" and top.parens == 0:
            top.reset_head()
        else:
            if not c.isspace() and not top.head_line:
                top.head_line = line
            top.head.append(c)
            top.parens += (c == "(") - (c == ")")
            if c == ":" and re.fullmatch(r"\s*(public|protected|private)\s*:", "".join(top.head)):
                top.reset_head()
    return functions


def open_scope(stack, line):
    top = stack[-1]
    head = "".join(top.head).strip()
    if top.parens > 0:
        stack.append(Scope("block", fold_into_head=True))
        return
    name = function_name(head)
    if name:
        stack.append(Scope("function", start_line=top.head_line or line, name=name))
    elif opens_declaration_scope(head):
        stack.append(Scope("declaration"))
    else:
        stack.append(Scope("block", fold_into_head=True))


def close_scope(stack, functions, line):
    if len(stack) == 1:
        return  # an unmatched '}' (a brace in a dropped #if branch): keep the file scope
    scope = stack.pop()
    if scope.kind == "function":
        functions.append(Function(scope.name, scope.start_line, line))
    parent = stack[-1]
    if parent.kind != "declaration":
        return
    if scope.fold_into_head:
        parent.head.append("{}")
    else:
        parent.reset_head()


# ---- the check ---------------------------------------------------------------------------------


def read_allowlist(path):
    entries = []
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        entry = raw.split("#", 1)[0].strip()
        if entry:
            entries.append(entry)
    return entries


def source_files(root, paths):
    for p in paths:
        full = root / p
        if full.is_file():
            yield full
        elif full.is_dir():
            yield from sorted(f for f in full.rglob("*") if f.is_file() and f.suffix in CPP_SUFFIXES)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder under {root}")


def findings_for(path, text, max_file_lines, max_function_lines):
    """One message per rule `text` breaks."""
    out = []
    file_lines = len(text.splitlines())
    if file_lines > max_file_lines:
        out.append(f"{path}: {file_lines} lines (limit {max_file_lines})")
    for f in find_functions(text):
        if f.lines > max_function_lines:
            out.append(f"{path}:{f.start_line}: function {f.name} is {f.lines} lines (limit {max_function_lines})")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=list(DEFAULT_PATHS), help="files or folders under --root")
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent), help="the repository root")
    parser.add_argument("--allow", metavar="FILE", help="allowlist: one path (relative to --root) per line")
    parser.add_argument("--max-file-lines", type=int, default=600)
    parser.add_argument("--max-function-lines", type=int, default=120)
    args = parser.parse_args(argv)

    root = Path(args.root)
    allowed = read_allowlist(args.allow) if args.allow else []
    try:
        files = list(source_files(root, args.paths))
    except FileNotFoundError as e:
        print(f"check_layout: {e}", file=sys.stderr)
        return 2
    findings = {}
    for f in files:
        rel = f.relative_to(root).as_posix()
        text = f.read_text(encoding="utf-8", errors="replace")
        findings[rel] = findings_for(rel, text, args.max_file_lines, args.max_function_lines)

    over = [m for rel, found in findings.items() if rel not in allowed for m in found]
    for entry in allowed:
        if entry not in findings:
            print(f"warning: {entry} is in the allowlist but was not scanned (moved or deleted?): remove it")
        elif not findings[entry]:
            print(f"warning: {entry} is in the allowlist but within the limits now: remove it")
        else:
            for message in findings[entry]:
                print(f"allowed: {message}")
    for message in over:
        print(message)
    print(f"check_layout: {len(files)} files, {len(over)} over the limits"
          + (f", {sum(1 for e in allowed if findings.get(e))} allowlisted files over them" if allowed else ""))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
