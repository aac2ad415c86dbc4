"""The kernel's golden frames (kernel/testdata/session.golden, written by
the Go tests) checked by jupyter_client itself: every signature verifies
with the test key, and every message is valid for the message spec."""
import os
import unittest

from jupyter_client.session import Session
from jupyter_kernel_test.msgspec_v5 import validate_message

import gobayes_env

# The key the Go tests sign with (kernel/kernel_test.go: testKey).
TEST_KEY = b"a0b1c2d3-test-key"


def read_golden(path):
    """Returns [(channel, frames)] from a golden file."""
    msgs = []
    with open(path, "rb") as f:
        for line in f.read().split(b"\n"):
            if line.startswith(b"== "):
                msgs.append((line[3:].decode(), []))
            elif msgs and line:
                msgs[-1][1].append(line)
    return msgs


class GoldenFrames(unittest.TestCase):
    def test_signatures_and_schema(self):
        path = os.path.join(gobayes_env.ROOT, "kernel", "testdata", "session.golden")
        msgs = read_golden(path)
        self.assertGreater(len(msgs), 10)
        session = Session(key=TEST_KEY)
        types = set()
        for channel, frames in msgs:
            idents, parts = session.feed_identities(frames, copy=True)
            msg = session.deserialize(parts, content=True)  # raises on a bad signature
            validate_message(msg)
            types.add(msg["header"]["msg_type"])
            if channel == "iopub":
                self.assertEqual(len(idents), 1, "iopub messages carry one topic frame")
        for t in ["status", "kernel_info_reply", "execute_input", "stream", "display_data",
                  "execute_result", "execute_reply", "error", "complete_reply", "inspect_reply", "is_complete_reply"]:
            self.assertIn(t, types)

    def test_tampered_frame_fails(self):
        path = os.path.join(gobayes_env.ROOT, "kernel", "testdata", "session.golden")
        _, frames = read_golden(path)[1]
        session = Session(key=TEST_KEY)
        idents, parts = session.feed_identities(frames, copy=True)
        parts[-1] = parts[-1].replace(b"busy", b"idle")
        with self.assertRaises(ValueError):
            session.deserialize(parts, content=True)


if __name__ == "__main__":
    unittest.main()
