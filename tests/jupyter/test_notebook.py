"""notebooks/01-go-kernel-tour.ipynb executed end to end by nbclient, as
`jupyter nbconvert --execute` does, and its outputs checked cell by cell
(cells are found by their tag)."""
import base64
import os
import struct
import unittest

import nbformat
from nbclient import NotebookClient

import gobayes_env


def outputs(nb, tag):
    for c in nb.cells:
        if c.cell_type == "code" and tag in c.metadata.get("tags", []):
            return c.outputs
    raise AssertionError("no cell tagged %r in the notebook" % tag)


def stdout(outs):
    return "".join(o.text for o in outs if o.output_type == "stream" and o.name == "stdout")


def results(outs):
    return [o.data["text/plain"] for o in outs if o.output_type == "execute_result"]


def displays(outs):
    return [o.data for o in outs if o.output_type == "display_data"]


class Tour(unittest.TestCase):
    nb = None

    @classmethod
    def setUpClass(cls):
        path = os.path.join(gobayes_env.ROOT, "notebooks", "01-go-kernel-tour.ipynb")
        nb = nbformat.read(path, as_version=4)
        for c in nb.cells:
            if c.cell_type == "code":
                c.outputs = []
        # Raises CellExecutionError when a cell not tagged raises-exception fails.
        NotebookClient(nb, kernel_name=gobayes_env.KERNEL, timeout=120).execute()
        cls.nb = nb

    def test_variables_across_cells(self):
        self.assertEqual(stdout(outputs(self.nb, "hello")), "hello from gobayes\n")
        self.assertEqual(stdout(outputs(self.nb, "draws")), "5 draws\n")

    def test_function_and_final_expression(self):
        self.assertEqual(outputs(self.nb, "mean-def"), [])
        # (2.5 + 3.1 + 4.7 + 5.0 + 3.9) / 5 = 19.2 / 5
        self.assertEqual(results(outputs(self.nb, "mean")), ["3.84"])

    def test_types_and_methods(self):
        self.assertEqual(stdout(outputs(self.nb, "interval")), "3 of 5 draws inside [2.9, 4.8], width 1.9\n")

    def test_gonum(self):
        outs = outputs(self.nb, "gonum")
        # stat.MeanStdDev uses the unbiased variance: sd = sqrt(4.432/4) = 1.0526
        self.assertEqual(stdout(outs), "mean 3.840, sd 1.053\n")
        # The 97.5% quantile of the standard normal, 1.959964 (tables).
        self.assertTrue(results(outs)[0].startswith("1.95996"), outs)

    def test_streaming_cell(self):
        self.assertEqual(stdout(outputs(self.nb, "streaming")), "step 1\nstep 2\nstep 3\n")

    def test_html(self):
        outs = outputs(self.nb, "html")
        html = [d for d in displays(outs) if "text/html" in d]
        self.assertEqual(len(html), 1, outs)
        self.assertIn("<td>4.7</td>", html[0]["text/html"])
        self.assertIn("text/plain", html[0])

    def test_markdown(self):
        md = displays(outputs(self.nb, "markdown"))
        self.assertEqual(md[0]["text/markdown"], "The posterior mean is **3.84** (from 5 draws).")

    def test_png(self):
        d = displays(outputs(self.nb, "png"))
        self.assertEqual(len(d), 1)
        raw = base64.b64decode(d[0]["image/png"])
        self.assertEqual(raw[:8], b"\x89PNG\r\n\x1a\n")
        width, height = struct.unpack(">II", raw[16:24])  # IHDR
        self.assertEqual((width, height), (120, 60))

    def test_display_calls_have_no_value(self):
        # display.HTML, display.Markdown and display.PNG return nothing, so
        # a cell ending with one has no execute_result.
        for tag in ("html", "markdown", "png"):
            self.assertEqual(results(outputs(self.nb, tag)), [], "cell %s shows a value: %r" % (tag, outputs(self.nb, tag)))

    def test_progress_updates_in_place(self):
        # nbclient applies update_display_data to the output with the same
        # display id, so one output is left, showing the last update.
        d = displays(outputs(self.nb, "progress"))
        self.assertEqual(len(d), 1, d)
        self.assertIn("sampling 100%", d[0]["text/plain"])
        self.assertIn("<progress value=100", d[0]["text/html"])

    def test_time_magic(self):
        out = stdout(outputs(self.nb, "time"))
        # sum of 0..99999 = 99999*100000/2
        self.assertIn("4999950000\n", out)
        self.assertRegex(out, r"wall time: [0-9.]+(ns|µs|us|ms|s)\n")

    def test_compile_error_names_the_line(self):
        outs = outputs(self.nb, "compile-error")
        err = [o for o in outs if o.output_type == "error"]
        self.assertEqual(len(err), 1, outs)
        self.assertIn("drwas", err[0].evalue)
        self.assertIn("2", err[0].evalue.split("drwas")[0], "the error should point at line 2: %s" % err[0].evalue)
        self.assertEqual(stdout(outs), "", "nothing runs when the cell does not compile")

    def test_panic_names_the_line(self):
        outs = outputs(self.nb, "panic")
        err = [o for o in outs if o.output_type == "error"]
        self.assertEqual(len(err), 1, outs)
        self.assertIn("divide by zero", err[0].evalue)
        self.assertIn("cell:2", err[0].evalue + "\n".join(err[0].traceback), "the panic happened on line 2")

    def test_state_survives_errors(self):
        self.assertEqual(results(outputs(self.nb, "after-error")), ["3.84"])

    def test_execution_counts_increase(self):
        counts = [c.execution_count for c in self.nb.cells if c.cell_type == "code"]
        self.assertEqual(counts, list(range(1, len(counts) + 1)))


if __name__ == "__main__":
    unittest.main()
