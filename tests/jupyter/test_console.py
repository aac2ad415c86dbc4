"""`jupyter console --kernel gobayes`, as a person uses it: once with its
input piped (--simple-prompt), once in a terminal under tmux, where the
console asks the kernel whether a cell is complete before running it."""
import os
import shutil
import subprocess
import time
import unittest
import uuid

import gobayes_env

TIMEOUT = 60


def console_cmd():
    # Debian's jupyter: another Python's jupyter on PATH would not see
    # Debian's jupyter_console.
    jupyter = "/usr/bin/jupyter" if os.access("/usr/bin/jupyter", os.X_OK) else "jupyter"
    return [jupyter, "console", "--kernel", gobayes_env.KERNEL]


class PipedConsole(unittest.TestCase):
    def test_one_cell_through_a_pipe(self):
        cells = 'import "fmt"\nfmt.Println("console says", 6*7)\n6*7\n'
        p = subprocess.run(console_cmd() + ["--simple-prompt"], input=cells, capture_output=True,
                           text=True, timeout=TIMEOUT)
        out = p.stdout
        self.assertIn("gobayes", out, "the banner names the kernel: %s" % out)
        self.assertIn("In [2]: console says 42\n", out, out)
        self.assertIn("Out[3]: 42\n", out, out)
        self.assertIn("Shutting down kernel", out, out)
        self.assertEqual(p.returncode, 0, p.stderr)


@unittest.skipUnless(shutil.which("tmux"), "tmux is not installed (make deps installs it)")
class TerminalConsole(unittest.TestCase):
    def start(self):
        self.name = "gobayes-test-" + uuid.uuid4().hex[:8]
        cmd = " ".join(console_cmd())
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "120", "-y", "50",
                        "env JUPYTER_PATH=%s %s" % (os.environ["JUPYTER_PATH"], cmd)], check=True)
        self.addCleanup(subprocess.run, ["tmux", "kill-session", "-t", self.name], capture_output=True)

    def screen(self):
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name, "-S", "-200"],
                              capture_output=True, text=True).stdout

    def wait_for(self, text):
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            s = self.screen()
            if text in s:
                return s
            time.sleep(0.2)
        self.fail("%r never appeared on the console; screen:\n%s" % (text, self.screen()))

    def keys(self, *keys):
        # Typed at a person's pace: jupyter_console 6.4 (prompt_toolkit under
        # nest_asyncio) can trip over keys that arrive while it redraws.
        for k in keys:
            time.sleep(0.3)
            subprocess.run(["tmux", "send-keys", "-t", self.name, k], check=True)

    def test_multi_line_cell_and_completion(self):
        # jupyter_console 6.4 under prompt_toolkit and nest_asyncio now and
        # then drops keys with "Unhandled exception in event loop" (with
        # ipykernel too); one more try in a fresh console tells that apart
        # from a kernel fault.
        try:
            self.start()
            self.scenario()
        except AssertionError as first:
            if "Unhandled exception in event loop" not in str(first):
                raise
            print("\n    jupyter_console dropped keys; trying once more", end=" ")
            self.start()
            self.scenario()

    def scenario(self):
        self.wait_for("In [1]:")
        # An unfinished func: the console asks is_complete and continues the
        # cell with "...:" instead of running it.
        self.keys("func double(v int) int {", "Enter")
        self.wait_for("...:")
        self.keys("return 2 * v", "Enter")
        self.keys("}", "Enter")
        self.wait_for("}")
        self.keys("Enter")  # a blank line ends the cell
        self.wait_for("In [2]:")
        self.keys("double(21)", "Enter")
        self.wait_for("Out[2]: 42")
        # Tab completion comes from complete_request.
        self.keys('import "strings"', "Enter")
        self.wait_for("In [4]:")
        self.keys("strings.TrimSp", "Tab")
        self.wait_for("strings.TrimSpace")
        self.keys("C-u")
        self.keys("C-d")


if __name__ == "__main__":
    unittest.main()
