"""iopub as jupyter_client sees it: the order of a request's messages
(busy before anything else it publishes, idle after all of it), the same
messages to every subscriber, and large messages. The kernel writes iopub
itself (kernel/pub.go). Topic filtering is tested in Go with raw
subscribers (kernel/pub_test.go): libzmq's SUB sockets filter what they
receive again, so a client of theirs cannot tell."""
import time
import unittest

from kernel_client import TIMEOUT, KernelCase

BIG = 3 << 20  # bytes of one stream message: long ZMTP frames, many TCP writes


class IOPubOrder(KernelCase):
    def messages(self, kc, msg_ids, timeout=TIMEOUT):
        """The iopub messages of kc whose parents are msg_ids, in arrival
        order, until each has its idle status."""
        waiting = set(msg_ids)
        got = []
        deadline = time.monotonic() + timeout
        while waiting:
            left = deadline - time.monotonic()
            if left <= 0:
                self.fail("no idle for %d of %d requests; got %r" % (len(waiting), len(msg_ids), got[-5:]))
            m = kc.get_iopub_msg(timeout=left)
            parent = m["parent_header"].get("msg_id")
            if parent not in msg_ids:
                continue
            state = m["content"].get("execution_state") if m["msg_type"] == "status" else None
            got.append((parent, m["msg_type"], state, m["content"]))
            if state == "idle":
                waiting.discard(parent)
        return got

    def assertOrdered(self, got, msg_ids, expect):
        """Each request's messages are contiguous, in the order sent, busy
        first, idle last, and of the types expect(i) lists between."""
        i = 0
        for n, msg_id in enumerate(msg_ids):
            want = ["busy"] + expect(n) + ["idle"]
            seq = got[i:i + len(want)]
            kinds = [state or t for _, t, state, _ in seq]
            self.assertEqual(kinds, want, "request %d of %d: %r" % (n, len(msg_ids), seq))
            self.assertTrue(all(p == msg_id for p, *_ in seq), "request %d's messages interleave: %r" % (n, seq))
            i += len(want)
        self.assertEqual(i, len(got), "messages after the last idle: %r" % (got[i:],))

    def test_order_of_many_cells_sent_at_once(self):
        # Sent without waiting, so that the kernel publishes as fast as it
        # can; the client must still see each request's messages whole and
        # in order.
        self.run_cell('import "fmt"')
        codes = ['fmt.Println("out", %d)\n%d*2' % (n, n) if n % 3 else "%d+1" % n for n in range(40)]
        msg_ids = [self.send(c) for c in codes]
        got = self.messages(self.kc, msg_ids)
        expect = lambda n: ["execute_input", "stream", "execute_result"] if n % 3 else ["execute_input", "execute_result"]
        self.assertOrdered(got, msg_ids, expect)
        results = [c["data"]["text/plain"] for _, t, _, c in got if t == "execute_result"]
        self.assertEqual(results, [str(n * 2) if n % 3 else str(n + 1) for n in range(40)])
        for msg_id in msg_ids:  # the replies
            while True:
                m = self.kc.get_shell_msg(timeout=TIMEOUT)
                if m["parent_header"]["msg_id"] == msg_id:
                    self.assertEqual(m["content"]["status"], "ok")
                    break

    def test_error_then_idle(self):
        msg_id = self.send('panic("on purpose")')
        got = self.messages(self.kc, [msg_id])
        self.assertOrdered(got, [msg_id], lambda n: ["execute_input", "error"])

    def test_second_client_sees_the_same(self):
        kc2 = self.km.client()
        kc2.start_channels()
        try:
            # The second client's subscription reaches the kernel a moment
            # after it connects: wait until it hears a request's idle.
            for _ in range(50):
                msg_id = self.send("1")
                try:
                    self.messages(kc2, [msg_id], timeout=0.5)
                    break
                except Exception:
                    continue
            msg_id = self.send('import "fmt"\nfmt.Print("both")\n7')
            one = self.messages(self.kc, [msg_id])
            two = self.messages(kc2, [msg_id])
            self.assertEqual([(t, s, c) for _, t, s, c in one], [(t, s, c) for _, t, s, c in two])
            self.assertOrdered(one, [msg_id], lambda n: ["execute_input", "stream", "execute_result"])
        finally:
            kc2.stop_channels()

    def test_large_output_arrives_whole(self):
        self.run_cell('import "strings"')
        msg_id = self.send('print(strings.Repeat("x", %d))' % BIG)
        got = self.messages(self.kc, [msg_id], timeout=60)
        text = "".join(c["text"] for _, t, _, c in got if t == "stream")
        self.assertEqual(text.strip(), "x" * BIG)
        kinds = [s or t for _, t, s, _ in got]
        self.assertEqual(kinds[0], "busy")
        self.assertEqual(kinds[-1], "idle")


if __name__ == "__main__":
    unittest.main()
