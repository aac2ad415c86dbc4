"""A small harness over jupyter_client for the tests: start the installed
gobayes kernel, run a cell, collect its iopub messages up to idle."""
import os
import time
import unittest
from queue import Empty

from jupyter_client.manager import start_new_kernel

import gobayes_env

TIMEOUT = 30


class Cell:
    """What one execute request produced."""

    def __init__(self, reply, outputs, seconds):
        self.reply = reply
        self.content = reply["content"]
        self.status = self.content["status"]
        self.outputs = outputs  # iopub messages between busy and idle
        self.seconds = seconds  # request sent → idle received

    def of(self, msg_type):
        return [m["content"] for m in self.outputs if m["msg_type"] == msg_type]

    def stdout(self):
        return "".join(c["text"] for c in self.of("stream") if c["name"] == "stdout")

    def result(self):
        """text/plain of execute_result, or None."""
        r = self.of("execute_result")
        return r[0]["data"].get("text/plain") if r else None

    def __repr__(self):
        return "Cell(status=%s, content=%r, outputs=%r)" % (
            self.status, {k: v for k, v in self.content.items() if k != "traceback"},
            [(m["msg_type"], m["content"]) for m in self.outputs])


class KernelCase(unittest.TestCase):
    """One gobayes kernel shared by the tests of a class."""

    env = {}

    @classmethod
    def setUpClass(cls):
        env = dict(os.environ)
        env.update(cls.env)
        cls.km, cls.kc = start_new_kernel(kernel_name=gobayes_env.KERNEL, env=env)

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=False)

    def send(self, code, **kw):
        return self.kc.execute(code, **kw)

    def collect(self, msg_id, timeout=TIMEOUT, started=None):
        """Waits for the reply and the idle status of msg_id."""
        started = started or time.monotonic()
        deadline = started + timeout
        reply = None
        while reply is None:
            left = deadline - time.monotonic()
            if left <= 0:
                self.fail("no execute_reply within %ss" % timeout)
            try:
                m = self.kc.get_shell_msg(timeout=left)
            except Empty:
                continue
            if m["parent_header"].get("msg_id") == msg_id:
                reply = m
        outputs = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.fail("no idle status within %ss" % timeout)
            try:
                m = self.kc.get_iopub_msg(timeout=left)
            except Empty:
                continue
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "status":
                if m["content"]["execution_state"] == "idle":
                    break
                continue
            if m["msg_type"] != "execute_input":
                outputs.append(m)
        return Cell(reply, outputs, time.monotonic() - started)

    def run_cell(self, code, timeout=TIMEOUT, **kw):
        started = time.monotonic()
        return self.collect(self.send(code, **kw), timeout, started)

    def request(self, method, *args, **kw):
        """Sends a shell request (complete, inspect, ...) and returns the reply content."""
        msg_id = getattr(self.kc, method)(*args, **kw)
        while True:
            m = self.kc.get_shell_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") == msg_id:
                return m["content"]

    def assertOK(self, cell):
        self.assertEqual(cell.status, "ok", cell)

    def assertAlive(self):
        self.assertTrue(self.km.is_alive(), "the kernel process died")
