"""Protocol behaviour beyond jupyter_kernel_test, through jupyter_client:
streaming while a cell runs, display ids, user_expressions, silent cells,
stop_on_error, comms, history, signatures, restart."""
import time
import unittest
from queue import Empty

from jupyter_client.session import Session
from jupyter_kernel_test.msgspec_v5 import validate_message

from kernel_client import KernelCase, TIMEOUT

DISPLAY = 'import "github.com/gobayes/gobayes/display"\n'


class Session_(KernelCase):
    def test_variables_functions_and_types_across_cells(self):
        self.assertOK(self.run_cell("type point struct{ X, Y float64 }\nfunc norm1(p point) float64 { return p.X + p.Y }"))
        self.assertOK(self.run_cell("q := point{X: 1.5, Y: 2}"))
        cell = self.run_cell("norm1(q)")
        self.assertOK(cell)
        self.assertEqual(cell.result(), "3.5", cell)

    def test_execution_count(self):
        a = self.run_cell("1")
        b = self.run_cell("2")
        self.assertEqual(b.content["execution_count"], a.content["execution_count"] + 1)
        silent = self.run_cell("3", silent=True)
        c = self.run_cell("4", store_history=False)
        d = self.run_cell("5")
        self.assertEqual(d.content["execution_count"], b.content["execution_count"] + 1,
                         "silent and store_history=False cells must not count")
        self.assertEqual(silent.outputs, [], "a silent cell publishes nothing: %r" % silent)
        self.assertEqual(c.result(), "4")

    def test_stream_arrives_while_the_cell_runs(self):
        started = time.monotonic()
        msg_id = self.send('import (\n\t"fmt"\n\t"time"\n)\nfmt.Println("first")\ntime.Sleep(1500 * time.Millisecond)\nfmt.Println("second")')
        first_at = None
        while first_at is None:
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream":
                self.assertIn("first", m["content"]["text"])
                self.assertNotIn("second", m["content"]["text"], "output was buffered to the end of the cell")
                first_at = time.monotonic()
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        reply_at = time.monotonic()
        self.assertEqual(reply["content"]["status"], "ok")
        # Ordering, not timing: "first" was received before the cell ended
        # (the cell sleeps after printing it).
        self.assertLess(first_at, reply_at)
        while True:  # drain up to idle
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status" \
                    and m["content"]["execution_state"] == "idle":
                break
        print("\n    first output %.2fs before the reply" % (reply_at - first_at), end=" ")

    def test_display_update_by_id(self):
        cell = self.run_cell(DISPLAY + 'h := display.NewHandle()\nh.Update("10%")\nh.Update("55%")\nh.Update("100%")')
        self.assertOK(cell)
        shown = [m for m in cell.outputs if m["msg_type"] in ("display_data", "update_display_data")]
        self.assertEqual([m["msg_type"] for m in shown], ["display_data", "update_display_data", "update_display_data"], cell)
        ids = {m["content"]["transient"]["display_id"] for m in shown}
        self.assertEqual(len(ids), 1, "updates must carry the id of the first display: %r" % cell)
        self.assertIn("100%", shown[-1]["content"]["data"]["text/plain"])
        for m in shown:
            validate_message(m)

    def test_markdown_and_svg(self):
        cell = self.run_cell(DISPLAY + 'display.Markdown("# Title")\ndisplay.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>`)')
        self.assertOK(cell)
        mimes = [set(c["data"]) for c in cell.of("display_data")]
        self.assertEqual(len(mimes), 2, cell)
        self.assertIn("text/markdown", mimes[0])
        self.assertIn("image/svg+xml", mimes[1])
        for s in mimes:
            self.assertIn("text/plain", s)

    def test_json_and_image(self):
        cell = self.run_cell(DISPLAY + 'import (\n\t"image"\n)\n'
                             'display.JSON(map[string]any{"chains": 4, "draws": []int{1, 2}})\n'
                             'display.Image(image.NewGray(image.Rect(0, 0, 3, 2)))')
        self.assertOK(cell)
        shown = cell.of("display_data")
        self.assertEqual(len(shown), 2, cell)
        self.assertEqual(shown[0]["data"]["application/json"], {"chains": 4, "draws": [1, 2]})
        self.assertTrue(shown[1]["data"]["image/png"].startswith("iVBORw0KGgo"), "not a base64 PNG: %r" % shown[1])

    def test_value_that_renders_itself(self):
        # A cell's type with an HTML method shows as HTML when it is the
        # value of the cell (display.HTMLer), with text/plain beside it.
        cell = self.run_cell('type badge struct{ Label string }\n'
                             'func (b badge) HTML() string { return "<span>" + b.Label + "</span>" }\n'
                             'badge{"converged"}')
        self.assertOK(cell)
        data = cell.of("execute_result")[0]["data"]
        self.assertEqual(data.get("text/html"), "<span>converged</span>", cell)
        self.assertIn("text/plain", data)

    def test_help_and_reset_magics(self):
        cell = self.run_cell("%help")
        self.assertOK(cell)
        self.assertIn("%time", cell.stdout())
        self.assertOK(self.run_cell("forgotten := 1"))
        self.assertOK(self.run_cell("%reset"))
        self.assertEqual(self.run_cell("forgotten").status, "error")
        self.assertOK(self.run_cell('import "fmt"\nfmt.Println("after reset")'))

    def test_user_expressions(self):
        self.assertOK(self.run_cell("ue := 20"))
        msg_id = self.kc.execute("ue = ue + 1", user_expressions={"double": "ue * 2", "broken": "nosuchname + 1"})
        cell = self.collect(msg_id)
        self.assertOK(cell)
        ue = cell.content["user_expressions"]
        self.assertEqual(ue["double"]["status"], "ok", ue)
        self.assertEqual(ue["double"]["data"]["text/plain"], "42", ue)
        self.assertEqual(ue["broken"]["status"], "error", ue)
        self.assertIn("nosuchname", ue["broken"]["evalue"], ue)

    def test_stop_on_error_aborts_queued_cells(self):
        self.assertOK(self.run_cell("counter := 0"))
        ids = [self.send('panic("first fails")'),
               self.send("counter++"),
               self.send("counter++")]
        cells = [self.collect(i) for i in ids]
        self.assertEqual([c.status for c in cells], ["error", "aborted", "aborted"], cells)
        self.assertEqual(self.run_cell("counter").result(), "0", "aborted cells must not run")
        # Without stop_on_error the queue goes on.
        ids = [self.send('panic("fails")', stop_on_error=False), self.send("counter++")]
        cells = [self.collect(i) for i in ids]
        self.assertEqual([c.status for c in cells], ["error", "ok"], cells)

    def test_comms(self):
        info = self.request("comm_info")
        self.assertEqual(info["status"], "ok")
        self.assertEqual(info["comms"], {})
        # The kernel serves no client-opened jupyter.widget comm (its widgets
        # open their own): it is closed at once, as ipykernel does for an
        # unknown target.
        comm_id = "test-comm-1"
        msg = self.kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget", "data": {}})
        self.kc.shell_channel.send(msg)
        deadline = time.monotonic() + TIMEOUT
        while True:
            m = self.kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
            if m["msg_type"] == "comm_close":
                self.assertEqual(m["content"]["comm_id"], comm_id)
                break

    def test_complete_session_names_and_keywords(self):
        self.assertOK(self.run_cell("zebraCount := 3"))
        r = self.request("complete", "x := zebraC")
        self.assertIn("zebraCount", r["matches"])
        self.assertEqual((r["cursor_start"], r["cursor_end"]), (5, 11), r)
        r = self.request("complete", "for i := 0; i < 3; i++ { contin")
        self.assertIn("continue", r["matches"])

    def test_inspect_session_variable_and_function(self):
        self.assertOK(self.run_cell("inspected := []float64{1, 2}"))
        r = self.request("inspect", "inspected", 3)
        self.assertTrue(r["found"], r)
        self.assertIn("[]float64", r["data"]["text/plain"])
        r = self.request("inspect", "strings.TrimSpace", 10)
        self.assertTrue(r["found"], r)
        self.assertIn("func TrimSpace(s string) string", r["data"]["text/plain"])

    def test_is_complete_indent(self):
        r = self.request("is_complete", "func f() {")
        self.assertEqual(r["status"], "incomplete")
        self.assertTrue(r["indent"].strip() == "" and r["indent"] != "", r)

    def test_history_output(self):
        self.run_cell("40 + 2")
        r = self.request("history", hist_access_type="tail", n=1, output=True, raw=True)
        self.assertEqual(r["history"][-1][2], ["40 + 2", "42"], r)

    def test_doc_magic_pages(self):
        cell = self.run_cell("%doc strings.Fields")
        self.assertOK(cell)
        page = cell.content["payload"][0]
        self.assertEqual(page["source"], "page")
        self.assertIn("Fields", page["data"]["text/plain"])

    def test_bad_signature_is_not_executed(self):
        self.assertOK(self.run_cell("untouched := 1"))
        forged = Session(key=b"not-the-kernel-key", session=self.kc.session.session)
        forged.send(self.kc.shell_channel.socket, forged.msg(
            "execute_request", {"code": "untouched = 99", "silent": False, "store_history": True,
                                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}))
        unsigned = Session(key=b"", session=self.kc.session.session)
        unsigned.send(self.kc.shell_channel.socket, unsigned.msg(
            "execute_request", {"code": "untouched = 98", "silent": False, "store_history": True,
                                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}))
        cell = self.run_cell("untouched")
        self.assertEqual(cell.result(), "1", "a message with a bad or missing signature was executed")
        with self.assertRaises(Empty):
            # and nothing was answered for them
            while True:
                m = self.kc.get_shell_msg(timeout=0.5)
                self.assertNotEqual(m["parent_header"].get("session"), None)


class TwoClients(KernelCase):
    def test_second_client_shares_the_session(self):
        # As `jupyter console --existing` beside a notebook: a second client
        # on the same connection file sees the same variables, gets its own
        # replies, and both see every cell's output on iopub.
        # A client of its own, from the connection file, as console --existing
        # makes (km.client() would share this client's session and identity).
        from jupyter_client.blocking import BlockingKernelClient
        other = BlockingKernelClient(connection_file=self.km.connection_file)
        other.load_connection_file()
        other.start_channels()
        self.addCleanup(other.stop_channels)
        other.wait_for_ready(timeout=TIMEOUT)
        self.assertOK(self.run_cell("shared := 6"))
        msg_id = other.execute('import "fmt"\nfmt.Println(shared * 7)')
        reply = other.get_shell_msg(timeout=TIMEOUT)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "ok")
        seen = ""
        deadline = time.monotonic() + TIMEOUT
        while "42" not in seen and time.monotonic() < deadline:
            m = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream":
                seen += m["content"]["text"]
        self.assertEqual(seen, "42\n", "the first client did not see the second client's output")


class Restart(KernelCase):
    def test_restart_gives_a_fresh_session(self):
        self.assertOK(self.run_cell("old := 1"))
        self.km.restart_kernel(now=False)
        self.kc.wait_for_ready(timeout=TIMEOUT)
        cell = self.run_cell("old")
        self.assertEqual(cell.status, "error", cell)
        self.assertOK(self.run_cell("new := 2"))
        self.assertTrue(self.kc.is_alive())


if __name__ == "__main__":
    unittest.main()
