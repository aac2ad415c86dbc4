"""The kernel process's memory is bounded whatever passes through it
(issue 26 item 7): a huge print, huge cells, a history_request over them.
The kernel (not the interpreter's worker, which has a limit of its own) is
measured from /proc: VmHWM, the most it ever held, and VmRSS after."""
import time

from kernel_client import KernelCase

MiB = 1 << 20


def proc_status(pid, field):
    """A /proc/PID/status field in bytes (VmRSS, VmHWM)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no %s in /proc/%d/status" % (field, pid))


class MemoryCase(KernelCase):
    """A fresh kernel per class, so that its peak is this class's."""

    def kernel_pid(self):
        return self.km.provisioner.process.pid

    def assertBounded(self, what, hwm_max, rss_max):
        pid = self.kernel_pid()
        hwm = proc_status(pid, "VmHWM")
        # What the kernel held only while a message passed is given back to
        # the system within a few seconds (its soft memory limit and the
        # runtime's scavenger); poll, since this is memory and not speed.
        deadline = time.monotonic() + 30
        rss = proc_status(pid, "VmRSS")
        while rss > rss_max and time.monotonic() < deadline:
            time.sleep(0.5)
            rss = proc_status(pid, "VmRSS")
        print("%s: kernel VmHWM %.0f MiB, VmRSS %.0f MiB" % (what, hwm / MiB, rss / MiB))
        self.assertLess(hwm, hwm_max, "%s: the kernel process peaked at %.0f MiB" % (what, hwm / MiB))
        self.assertLess(rss, rss_max, "%s: the kernel process keeps %.0f MiB" % (what, rss / MiB))


class HugePrint(MemoryCase):
    def test_print_300_mib(self):
        """fmt.Print of 300 MiB took the kernel from 24 MiB to 2,041 MiB for
        good; it reaches the client cut at the output limit, with a notice."""
        cell = self.run_cell('import "fmt"\nimport "strings"\nfmt.Print(strings.Repeat("y", 300<<20))', timeout=180)
        self.assertOK(cell)
        out = cell.stdout()
        self.assertLessEqual(len(out), 16 * MiB)
        self.assertGreater(len(out), 15 * MiB, "the output before the limit is shown")
        self.assertEqual(set(out), {"y"})
        notice = "".join(c["text"] for c in cell.of("stream") if c["name"] == "stderr")
        self.assertIn("output limit of 16 MiB", notice)
        self.assertIn("GOBAYES_OUTPUT_LIMIT", notice)
        self.assertBounded("300 MiB print", 200 * MiB, 100 * MiB)
        # The session goes on.
        self.assertEqual(self.run_cell("1+1").result(), "2")


class HugeCells(MemoryCase):
    def test_twenty_5mb_cells_and_history(self):
        """20 cells of 5 MB source took the kernel to 283 MiB, and one
        history_request to 799 MiB: history keeps its latest cells within
        its limit, so neither grows with the session."""
        filler = "// " + "y" * (5 * MiB) + "\n"
        for i in range(20):
            cell = self.run_cell(filler + "x%d := %d\nx%d" % (i, i, i), timeout=120)
            self.assertOK(cell)
        self.assertBounded("20 cells of 5 MB", 200 * MiB, 100 * MiB)
        reply = self.request("history", hist_access_type="tail", n=100, output=True, raw=True)
        self.assertEqual(reply["status"], "ok")
        rows = reply["history"]
        self.assertGreater(len(rows), 0)
        self.assertLess(len(rows), 20, "the history is not bounded")
        last = rows[-1]
        self.assertEqual(last[2][1], "19", "the latest cell is kept, with its output")
        self.assertTrue(last[2][0].endswith("x19 := 19\nx19"))
        self.assertBounded("history_request", 200 * MiB, 100 * MiB)

    def test_cell_too_large(self):
        """A cell over the kernel's limit on source is refused with a
        clear error, and the session keeps its state."""
        self.assertOK(self.run_cell("kept := 7"))
        cell = self.run_cell("// " + "y" * (17 * MiB) + "\n1", timeout=120)
        self.assertEqual(cell.status, "error")
        self.assertEqual(cell.content["ename"], "CellTooLarge")
        self.assertIn("os.ReadFile", cell.content["evalue"])
        self.assertEqual(self.run_cell("kept").result(), "7")
