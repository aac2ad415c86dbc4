"""jupyter_kernel_test's KernelTests against gobayes, every sample set so
that all twelve of its tests run (a skip counts as a failure in runner.py)."""
import unittest

import jupyter_kernel_test

import gobayes_env

IMPORT_DISPLAY = 'import "github.com/gobayes/gobayes/display"\n'

# A 4x4 grey PNG made in the cell by image/png.
PNG_CELL = (
    "import (\n\t\"bytes\"\n\t\"image\"\n\t\"image/png\"\n\t\"github.com/gobayes/gobayes/display\"\n)\n"
    "var buf bytes.Buffer\n"
    "png.Encode(&buf, image.NewGray(image.Rect(0, 0, 4, 4)))\n"
    "display.PNG(buf.Bytes())"
)


class GobayesKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = gobayes_env.KERNEL
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'import "fmt"\nfmt.Println("hello, world")'
    code_stderr = 'import (\n\t"fmt"\n\t"os"\n)\nfmt.Fprintln(os.Stderr, "to stderr")'

    # Members of importable packages: the completion test may run before
    # any cell has imported them. (Keyword completion is checked in
    # test_session.py, where the matches may include the typed prefix.)
    completion_samples = [
        {"text": "fmt.Print", "matches": {"Print", "Printf", "Println"}},
        {"text": "strings.TrimS", "matches": {"TrimSpace", "TrimSuffix"}},
        # math.Sqrt and the constants Sqrt2, SqrtE, SqrtPi, SqrtPhi (go doc math).
        {"text": "math.Sq", "matches": {"Sqrt", "Sqrt2", "SqrtE", "SqrtPi", "SqrtPhi"}},
    ]
    complete_code_samples = ["x := 1", 'fmt.Println("a")', "func f() int { return 1 }", "type P struct{ X int }"]
    incomplete_code_samples = ["func f() {", "for i := 0; i < 3; i++ {", "x := []int{1,\n2,", "if x > 1 {\n\tx++"]
    invalid_code_samples = ["x := )", "func ) {", "}", "x := ]"]

    code_page_something = "fmt.Println?"
    code_generate_error = 'panic("this cell fails on purpose")'

    code_execute_result = [
        {"code": "6*7", "result": "42"},
        {"code": "1.5 + 1", "result": "2.5"},
        {"code": '"go" + "bayes"', "result": '"gobayes"'},
    ]
    # Matches "6*7" only (SQLite GLOB, as IPython's history search).
    code_history_pattern = "6?7"
    supported_history_operations = ("tail", "range", "search")

    code_display_data = [
        {"code": IMPORT_DISPLAY + 'display.HTML("<b>bold</b>")', "mime": "text/html"},
        {"code": PNG_CELL, "mime": "image/png"},
    ]
    code_inspect_sample = "fmt.Println"
    code_clear_output = IMPORT_DISPLAY + "display.Clear(false)"


if __name__ == "__main__":
    unittest.main()
