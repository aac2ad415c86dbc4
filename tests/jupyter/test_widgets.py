"""Widgets over comms with jupyter_client: the comm_open a slider sends, in
the widget protocol of Debian's Notebook 6 front-end (jupyter-js-widgets
2.1.4: the comm data is the model's state), a client's change reaching the
Go handler and an Output widget, comm_info, and bad comm input that leaves
the kernel and the session as they were."""
import time
import unittest
from queue import Empty

from kernel_client import TIMEOUT, KernelCase

SLIDER_CELL = """import (
	"fmt"
	"github.com/gobayes/gobayes/widgets"
)
scale := widgets.FloatSlider("prior scale", 0.1, 10, 1)
out := widgets.Output()
scale.OnChange(func(v float64) {
	out.Capture(func() { fmt.Println("scale is now", v) })
})
scale"""


class Widgets(KernelCase):

    def client_comm(self, msg_type, content):
        """Sends a comm message from the client; returns the iopub messages
        it caused, between busy and idle."""
        msg = self.kc.session.msg(msg_type, content)
        self.kc.shell_channel.send(msg)
        msg_id = msg["header"]["msg_id"]
        deadline = time.monotonic() + TIMEOUT
        out = []
        while time.monotonic() < deadline:
            try:
                m = self.kc.get_iopub_msg(timeout=1)
            except Empty:
                continue
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "status":
                if m["content"]["execution_state"] == "idle":
                    return msg_id, out
                continue
            out.append(m)
        self.fail("no idle status for %s" % msg_type)

    def test_slider_round_trip(self):
        cell = self.run_cell(SLIDER_CELL)
        self.assertOK(cell)
        opens = [m for m in cell.outputs if m["msg_type"] == "comm_open"]
        # The slider and the output area, then, as the slider is shown,
        # the models of its row: its layout, its description, the row's
        # layout, the row.
        self.assertEqual(len(opens), 6, cell)
        slider, output, row = opens[0]["content"], opens[1]["content"], opens[-1]["content"]
        by_id = {o["content"]["comm_id"]: o["content"] for o in opens}
        for o in opens:
            self.assertEqual(o["content"]["target_name"], "jupyter.widget")
            self.assertEqual(o["buffers"], [], "no widget here has binary state")
            state = o["content"]["data"]
            # Protocol 1: the comm data is the state itself; the copy under
            # "state" (and buffer_paths) is for clients reading protocol 2.
            nested = dict(state)
            del nested["state"], nested["buffer_paths"]
            self.assertEqual(state["state"], nested)
            self.assertEqual(state["buffer_paths"], [])
            self.assertEqual(state["_model_module"], "jupyter-js-widgets")
            self.assertEqual(state["_model_module_version"], "~2.1.4")
            self.assertEqual(state["_view_module"], "jupyter-js-widgets")
            self.assertEqual(state["_view_module_version"], "~2.1.4")
        self.assertEqual(slider["data"]["_model_name"], "FloatSliderModel")
        self.assertEqual(slider["data"]["_view_name"], "FloatSliderView")
        self.assertEqual(slider["data"]["description"], "", "the row shows the description, in full")
        self.assertEqual((slider["data"]["min"], slider["data"]["max"], slider["data"]["value"]), (0.1, 10, 1))
        self.assertEqual(output["data"]["_model_name"], "OutputModel")
        sid, oid = slider["comm_id"], output["comm_id"]
        # The view: the slider shows as a row (an HBox) of its description
        # (an HTMLMath; jupyter-js-widgets 2.1.4 cuts a description of the
        # slider's own at 148 px) and the slider, given its width by a
        # layout; a display message on the row's comm, and the row's MIME
        # bundle as the cell's value.
        self.assertEqual(row["data"]["_model_name"], "HBoxModel")
        label_ref, slider_ref = row["data"]["children"]
        self.assertEqual(slider_ref, "IPY_MODEL_" + sid)
        label = by_id[label_ref[len("IPY_MODEL_"):]]
        self.assertEqual((label["data"]["_model_name"], label["data"]["value"]), ("HTMLMathModel", "prior scale"))
        updates = [c["data"] for c in cell.of("comm_msg") if c["comm_id"] == sid]
        self.assertEqual(len(updates), 1, updates)
        layout = by_id[updates[0]["state"]["layout"][len("IPY_MODEL_"):]]
        self.assertEqual((layout["data"]["_model_name"], layout["data"]["width"]), ("LayoutModel", "60%"))
        display = [c["comm_id"] for c in cell.of("comm_msg") if c["data"] == {"method": "display"}]
        self.assertEqual(display, [row["comm_id"]])
        result = cell.of("execute_result")[0]["data"]
        self.assertEqual(result["application/vnd.jupyter.widget-view+json"],
                         {"model_id": row["comm_id"], "version_major": 1, "version_minor": 0})

        info = self.request("comm_info", target_name="jupyter.widget")
        self.assertEqual(info["comms"].get(sid), {"target_name": "jupyter.widget"}, info)
        self.assertEqual(info["comms"].get(oid), {"target_name": "jupyter.widget"}, info)

        # The student moves the slider: the front-end's backbone sync.
        msg_id, got = self.client_comm("comm_msg", {
            "comm_id": sid, "data": {"method": "backbone", "sync_data": {"value": 2.5}, "buffer_keys": []}})
        kinds = [(m["msg_type"], m["content"].get("comm_id"), m["content"].get("data", m["content"].get("text"))) for m in got]
        self.assertEqual(kinds, [
            ("comm_msg", oid, {"method": "update", "state": {"msg_id": msg_id}}),
            ("stream", None, "scale is now 2.5\n"),
            ("comm_msg", oid, {"method": "update", "state": {"msg_id": ""}}),
        ], "the handler's output, captured by the Output widget; no echo of the accepted value")

        # Bad input: the kernel stays up and the value stays.
        _, got = self.client_comm("comm_msg", {
            "comm_id": sid, "data": {"method": "backbone", "sync_data": {"value": "very large"}}})
        self.assertEqual([(m["msg_type"], m["content"]["data"]) for m in got],
                         [("comm_msg", {"method": "update", "state": {"value": 2.5}})],
                         "a value that is not a number is answered with the value kept")
        _, got = self.client_comm("comm_msg", {"comm_id": "no-such-comm", "data": {"method": "backbone"}})
        self.assertEqual(got, [])
        _, got = self.client_comm("comm_msg", {"comm_id": sid, "data": "not an object"})
        self.assertEqual(got, [])
        _, got = self.client_comm("comm_close", {"comm_id": "no-such-comm", "data": {}})
        self.assertEqual(got, [])
        self.assertAlive()

        cell = self.run_cell("fmt.Println(scale.Value())")
        self.assertOK(cell)
        self.assertEqual(cell.stdout(), "2.5\n")

    def test_version_comm(self):
        _, got = self.client_comm("comm_open", {"comm_id": "v1", "target_name": "jupyter.widget.version", "data": {}})
        self.assertEqual([(m["msg_type"], m["content"]) for m in got],
                         [("comm_msg", {"comm_id": "v1", "data": {"version": "~2.1.4"}})])
        _, got = self.client_comm("comm_msg", {"comm_id": "v1", "data": {"validated": True, "frontend_version": "2.1.4"}})
        self.assertEqual(got, [])

    def test_unknown_target_is_closed(self):
        _, got = self.client_comm("comm_open", {"comm_id": "u1", "target_name": "no.such.target", "data": {}})
        self.assertEqual([(m["msg_type"], m["content"]["comm_id"]) for m in got], [("comm_close", "u1")])


if __name__ == "__main__":
    unittest.main()
