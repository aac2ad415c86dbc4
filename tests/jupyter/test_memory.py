"""The kernel process's memory is bounded whatever passes through it
(issue 26 item 7): a huge print, huge cells, a history_request over them.
The kernel (not the interpreter's worker, which has a limit of its own) is
measured from /proc: VmHWM, the most it ever held, and VmRSS after; and
both processes over thousands of small cells."""
import os
import time
from queue import Empty

from kernel_client import TIMEOUT, KernelCase

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


def worker_pids(pid):
    """The kernel's descendants (the interpreter's worker), from the
    children of each of its threads."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for task in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, task)) as f:
                    kids = [int(c) for c in f.read().split()]
                out += kids
                todo += kids
        except FileNotFoundError:
            pass
    return out


class SteadyMemory(MemoryCase):
    """Thousands of small cells from two clients (issue 26's soak, shorter):
    neither the kernel nor the worker grows by 10% once warm. The kernel's
    heap grows to a multiple of its live heap before it collects, so what
    the kernel keeps for good (the replay guard's arrays) stays off it."""

    EXECUTES = 2000

    def run_on(self, kc, code):
        msg_id = kc.execute(code)
        deadline = time.monotonic() + TIMEOUT
        status = None
        while status is None:
            m = kc.get_shell_msg(timeout=max(0.01, deadline - time.monotonic()))
            if m["parent_header"].get("msg_id") == msg_id:
                status = m["content"]["status"]
        while True:
            m = kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
            if (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status"
                    and m["content"]["execution_state"] == "idle"):
                return status

    def drain(self, kc):
        while True:
            try:
                kc.get_iopub_msg(timeout=0)
            except Empty:
                return

    def rss(self):
        pid = self.kernel_pid()
        workers = worker_pids(pid)
        self.assertTrue(workers, "the kernel has no worker process")
        return proc_status(pid, "VmRSS"), sum(proc_status(p, "VmRSS") for p in workers)

    def test_two_clients_thousands_of_cells(self):
        """Growth is counted from the least each process held from the
        warm-up on: the worker's first reading sometimes still holds its
        start-up garbage, which would hide growth after it."""
        other = self.km.client()
        other.start_channels()
        try:
            self.assertEqual(self.run_on(self.kc, "n := 0"), "ok")
            for _ in range(200):  # warm-up
                self.assertEqual(self.run_on(self.kc, "n++"), "ok")
            self.drain(other)
            readings = [self.rss()]
            for i in range(self.EXECUTES):
                kc, idle = (self.kc, other) if i % 2 == 0 else (other, self.kc)
                self.assertEqual(self.run_on(kc, "n++\nn"), "ok")
                self.drain(idle)
                if (i + 1) % 250 == 0:
                    readings.append(self.rss())
            self.assertEqual(self.run_cell("n").result(), str(200 + self.EXECUTES))
        finally:
            other.stop_channels()
        for j, name in enumerate(("kernel", "worker")):
            least, last = min(r[j] for r in readings), readings[-1][j]
            print("%s VmRSS: %.1f MiB warm, least %.1f, %.1f MiB after %d executes (%+.1f%% over the least)"
                  % (name, readings[0][j] / MiB, least / MiB, last / MiB, self.EXECUTES, 100 * (last - least) / least))
            self.assertLess(last, least * 1.10, "the %s grew from %.1f to %.1f MiB over %d executes"
                            % (name, least / MiB, last / MiB, self.EXECUTES))
