"""A bad cell must never take the kernel down: errors end the cell with an
error reply and keep the session; crashes of the interpreter (a panic in a
goroutine, os.Exit, log.Fatal, running out of memory) are reported in the
cell, the state is reset, and the next cell runs. Driven through
jupyter_client, as Jupyter does."""
import time
import unittest

from kernel_client import KernelCase


class CellErrorsKeepState(KernelCase):
    """Errors the interpreter catches: the variables survive."""

    def setUp(self):
        self.assertOK(self.run_cell('import "fmt"\nkept := 41\nkept++'))

    def check_error_then_state(self, code, ename_has):
        cell = self.run_cell(code)
        self.assertEqual(cell.status, "error", cell)
        self.assertIn(ename_has, cell.content["ename"] + " " + cell.content["evalue"], cell)
        self.assertEqual(len(cell.of("error")), 1, cell)
        self.assertAlive()
        after = self.run_cell("kept")
        self.assertOK(after)
        self.assertEqual(after.result(), "42", after)

    def test_panic(self):
        self.check_error_then_state('panic("boom")', "boom")

    def test_nil_dereference(self):
        self.check_error_then_state("var p *int\nfmt.Println(*p)", "panic")

    def test_nil_map_write(self):
        self.check_error_then_state("var m map[string]int\nm[\"a\"] = 1", "panic")

    def test_compile_error(self):
        self.check_error_then_state("y := undefinedThing + 1", "undefinedThing")

    def test_error_names_cell_line(self):
        cell = self.run_cell("a := 1\nb := 2\nc := a + b + missing")
        self.assertEqual(cell.status, "error", cell)
        self.assertIn("3", cell.content["evalue"], "the error should name line 3 of the cell: %r" % cell)


class CrashesResetTheInterpreter(KernelCase):
    """Crashes that kill the interpreter's process: the kernel stays, says
    so in the cell, and runs the next cell in a fresh interpreter."""

    # Small, so the runaway allocation ends quickly; see supervisor.MemoryLimitEnv (interp/supervisor).
    env = {"GOBAYES_MEMORY_LIMIT": "768MiB"}

    def check_crash(self, code, may_be_caught=False):
        """Runs code that ends the interpreter. The cell must end in an
        error saying the interpreter crashed and its state was reset, and
        the next cell must run in a fresh interpreter. With may_be_caught
        the interpreter may instead stop the cell itself (os.Exit and
        log.Fatal called from the cell's own goroutine can be turned into
        an error): then the error must name what happened and the state
        must be intact."""
        self.assertOK(self.run_cell("before := 7"))
        cell = self.run_cell(code, timeout=120)
        self.assertEqual(cell.status, "error", cell)
        text = (cell.content["ename"] + " " + cell.content["evalue"]).lower()
        self.assertAlive()
        nxt = self.run_cell("1 + 1")
        self.assertOK(nxt)
        self.assertEqual(nxt.result(), "2", nxt)
        before = self.run_cell("before")
        if may_be_caught and "crash" not in text:
            self.assertOK(before)
            self.assertEqual(before.result(), "7", before)
            return cell
        self.assertIn("crash", text, cell)
        self.assertIn("reset", text, cell)
        self.assertEqual(before.status, "error", "state should have been reset: %r" % before)
        return cell

    def test_panic_in_goroutine(self):
        self.check_crash('import "time"\ngo func() { panic("in a goroutine") }()\ntime.Sleep(2 * time.Second)')

    def test_os_exit(self):
        cell = self.check_crash('import "os"\nos.Exit(3)', may_be_caught=True)
        self.assertIn("3", cell.content["evalue"], cell)

    def test_os_exit_in_goroutine(self):
        self.check_crash('import (\n\t"os"\n\t"time"\n)\ngo os.Exit(4)\ntime.Sleep(2 * time.Second)')

    def test_log_fatal(self):
        cell = self.check_crash('import "log"\nlog.Fatal("fatal from a cell")', may_be_caught=True)
        self.assertIn("fatal from a cell", cell.content["evalue"] + "".join(c["text"] for c in cell.of("stream")), cell)

    def test_runaway_allocation(self):
        # Growing step by step, it is usually stopped by the memory guard at
        # 75% of the limit with the state intact (MemoryLimit); when the
        # address-space limit comes first (seen with 52 MiB of heap and 1 GB
        # of address space in use) the interpreter crashes and says so.
        cell = self.check_crash("var hog [][]byte\nfor {\n\thog = append(hog, make([]byte, 1<<20))\n\thog[len(hog)-1][0] = 1\n}", may_be_caught=True)
        self.assertIn(cell.content["ename"], ("MemoryLimit", "InterpreterCrashed"), cell)
        self.assertIn("memory", cell.content["evalue"], cell)


class Interrupts(KernelCase):
    """A cell stuck in `for {}` stops on interrupt; the session survives."""

    def interrupt_loop(self, interrupt):
        self.assertOK(self.run_cell("survivor := 5"))
        started = time.monotonic()
        msg_id = self.send("for {\n}")
        # Wait until the cell is running: its execute_input is published
        # just before the interpreter starts.
        while True:
            m = self.kc.get_iopub_msg(timeout=10)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
                break
        time.sleep(0.3)
        sent = time.monotonic()
        interrupt()
        cell = self.collect(msg_id, timeout=30, started=started)
        stopped = time.monotonic() - sent
        print("\n    interrupt to idle: %.3fs" % stopped, end=" ")
        self.assertEqual(cell.status, "error", cell)
        self.assertAlive()
        after = self.run_cell("survivor")
        self.assertOK(after)
        self.assertEqual(after.result(), "5", after)

    def test_interrupt_request_on_control(self):
        # interrupt_mode "message": jupyter_client sends interrupt_request.
        self.interrupt_loop(self.km.interrupt_kernel)

    def test_sigint(self):
        import signal
        self.interrupt_loop(lambda: self.km.signal_kernel(signal.SIGINT))


if __name__ == "__main__":
    unittest.main()
