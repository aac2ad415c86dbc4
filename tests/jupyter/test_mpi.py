"""The "mpi" backend driven from a cell through a real client: an
interrupt stops every rank and keeps the session; a rank killed mid-run
ends the cell with an error that says so, and the kernel and its
variables survive. Skipped where Open MPI or bin/gobayes-mpi is missing
(GOBAYES_REQUIRE_MPI=1 makes that a failure, as make test sets it)."""
import os
import shutil
import signal
import time
import unittest

import gobayes_env
from kernel_client import KernelCase

WORKER = os.path.join(os.path.dirname(gobayes_env.BIN), "gobayes-mpi")

SETUP = '''import (
    "fmt"

    "github.com/gobayes/gobayes/ppl"
    "github.com/gobayes/gobayes/ppl/datasets"
)
X, y, _ := datasets.Logistic(20000, 10, 3)
m := ppl.NewModel("logistic")
alpha := m.Normal("alpha", 0, 2)
beta := m.Normal("beta", 0, 1, ppl.Size(10))
m.BernoulliLogit("y", alpha.Add(ppl.MatVec(X, beta)), ppl.Observed(y))
kept := 41
'''

LONG = 'fit := m.Sample(ppl.Backend("mpi"), ppl.Ranks(2), ppl.Chains(2), ppl.Warmup(100000), ppl.Draws(100000))'


def ranks():
    """pid → MPI rank of the running gobayes-mpi processes."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            if os.readlink("/proc/%s/exe" % d) != os.path.realpath(WORKER):
                continue
            with open("/proc/%s/stat" % d) as f:
                if ") Z " in f.read():
                    continue
            with open("/proc/%s/environ" % d, "rb") as f:
                env = dict(kv.split(b"=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
            out[int(d)] = int(env.get(b"OMPI_COMM_WORLD_RANK", b"-1"))
        except (OSError, ValueError):
            continue
    return out


def wait_for(cond, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    return False


class MPI(KernelCase):
    def setUp(self):
        missing = None
        if not shutil.which("mpirun"):
            missing = "mpirun is not installed (Debian: openmpi-bin)"
        elif not os.access(WORKER, os.X_OK):
            missing = "%s is missing (make mpi)" % WORKER
        if missing:
            if os.environ.get("GOBAYES_REQUIRE_MPI"):
                self.fail("GOBAYES_REQUIRE_MPI is set but " + missing)
            self.skipTest(missing)
        super().setUp()
        self.assertOK(self.run_cell(SETUP, timeout=60))

    def test_interrupt_ends_every_rank(self):
        msg_id = self.send(LONG)
        self.assertTrue(wait_for(lambda: len(ranks()) == 2, 30), "the job's 2 ranks did not start")
        time.sleep(1.0)
        self.km.interrupt_kernel()
        cell = self.collect(msg_id, timeout=30)
        self.assertEqual(cell.status, "error", cell)
        self.assertEqual(cell.content["ename"], "Interrupted", cell)
        self.assertTrue(wait_for(lambda: not ranks(), 10), "ranks still running after the interrupt: %s" % ranks())
        after = self.run_cell("kept++\nfmt.Println(kept, ppl.LastRun().Interrupted)", timeout=30)
        self.assertOK(after)
        self.assertEqual(after.stdout(), "42 true\n", after)

    def test_killed_rank_ends_the_cell_not_the_kernel(self):
        msg_id = self.send(LONG)
        self.assertTrue(wait_for(lambda: 1 in ranks().values(), 30), "rank 1 did not start")
        time.sleep(1.0)
        victim = [pid for pid, r in ranks().items() if r == 1][0]
        os.kill(victim, signal.SIGKILL)
        cell = self.collect(msg_id, timeout=60)
        self.assertEqual(cell.status, "error", cell)
        text = cell.content["evalue"] + "\n".join(cell.content.get("traceback", []))
        self.assertIn("the MPI job ended", text, cell)
        self.assertIn("rank 1", text, cell)
        self.assertTrue(wait_for(lambda: not ranks(), 10), "ranks still running: %s" % ranks())
        after = self.run_cell("kept++\nkept", timeout=30)
        self.assertOK(after)
        self.assertEqual(after.result(), "42", after)


if __name__ == "__main__":
    unittest.main()
