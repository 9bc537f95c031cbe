#!/usr/bin/env python3
"""Tests of scripts/check_layout.py on the fixtures beside this file: what it takes for a function
and where each one starts and ends, the limits, and the allowlist's warnings and exit codes."""

import contextlib
import io
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
import check_layout  # noqa: E402  (after the path is set)

FIXTURES = HERE / "fixtures"


def functions_in(name):
    return [(f.name, f.start_line, f.end_line) for f in check_layout.find_functions((FIXTURES / name).read_text())]


def run_check(*args):
    """(exit code, printed lines) of the script's main on `args`."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = check_layout.main(["--root", str(FIXTURES), *args])
    return code, out.getvalue().splitlines()


class FindFunctions(unittest.TestCase):
    def test_long_function_spans_from_its_template_line(self):
        self.assertEqual(functions_in("long_function.cpp"),
                         [("short_one", 5, 5), ("long_one", 7, 17), ("next", 21, 23)])

    def test_lambdas_inside_a_function_are_part_of_it(self):
        # with_lambda holds two lambdas and ends at line 17; the namespace-scope lambda and the
        # member initializer lambda are functions; `cells[4]{}` is an array, not a lambda.
        self.assertEqual(functions_in("lambda.cpp"),
                         [("with_lambda", 8, 17), ("lambda", 19, 23), ("lambda", 27, 29)])

    def test_braces_in_literals_comments_and_macros_are_not_counted(self):
        # Were any of the braces in the comments, strings, character literals, raw string or
        # #defines counted, tricky would not end at 20 and `after` would not be found at 34.
        self.assertEqual(functions_in("braces_in_literals.cpp"),
                         [("tricky", 13, 20), ("Holder", 24, 26), ("a", 27, 27), ("after", 34, 34)])

    def test_cleaning_keeps_lines_and_blanks_literals(self):
        text = 'a = "{";\nb = R"x({\n})x";\n#define X {\nc = \'}\'; // {\nd = 1\'0;'
        cleaned = check_layout.clean(text)
        self.assertEqual(len(cleaned), len(text))
        self.assertEqual(cleaned.count("\n"), text.count("\n"))
        self.assertNotIn("{", cleaned)
        self.assertNotIn("}", cleaned)
        self.assertIn("d = 1 0;", cleaned)


class Check(unittest.TestCase):
    def test_within_the_default_limits_passes(self):
        code, lines = run_check(".")
        self.assertEqual(code, 0, lines)

    def test_a_function_over_the_limit_fails_with_its_line(self):
        code, lines = run_check("--max-function-lines", "10", "long_function.cpp")
        self.assertEqual(code, 1)
        self.assertIn("long_function.cpp:7: function long_one is 11 lines (limit 10)", lines)
        code, _ = run_check("--max-function-lines", "11", "long_function.cpp")
        self.assertEqual(code, 0)

    def test_a_file_over_the_limit_fails(self):
        code, lines = run_check("--max-file-lines", "20", "lambda.cpp", "long_function.cpp")
        self.assertEqual(code, 1)
        self.assertIn("lambda.cpp: 32 lines (limit 20)", lines)
        self.assertIn("long_function.cpp: 29 lines (limit 20)", lines)

    def test_the_allowlist_tolerates_and_warns_when_an_entry_is_no_longer_over(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("# why: being split\nlong_function.cpp  # long_one\nlambda.cpp\nmissing.cpp\n")
        try:
            code, lines = run_check("--allow", f.name, "--max-function-lines", "10", "long_function.cpp", "lambda.cpp")
        finally:
            Path(f.name).unlink()
        self.assertEqual(code, 0, lines)
        self.assertIn("allowed: long_function.cpp:7: function long_one is 11 lines (limit 10)", lines)
        self.assertTrue(any(l.startswith("warning: lambda.cpp") and "within the limits" in l for l in lines), lines)
        self.assertTrue(any(l.startswith("warning: missing.cpp") and "not scanned" in l for l in lines), lines)

    def test_a_path_that_does_not_exist_is_an_error(self):
        code, _ = run_check("nope")
        self.assertEqual(code, 2)


if __name__ == "__main__":
    unittest.main()
