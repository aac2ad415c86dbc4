// Package comm is the kernel's end of Jupyter comms: two-way channels
// between Go code running in a cell and the client (the widget manager of a
// notebook, say), each with an id and a target name.
//
// Code running in a cell opens a comm, sends on it and hears back:
//
//	c := comm.Open("jupyter.widget", map[string]any{"_model_name": "IntSliderModel"})
//	c.OnMsg(func(data map[string]any) { fmt.Println("the client says", data) })
//	c.Send(map[string]any{"method": "update", "state": map[string]any{"value": 3}})
//
// and a package that serves comms the client opens registers a target:
//
//	comm.RegisterTarget("my.target", func(c *comm.Comm, data map[string]any) { ... })
//
// Messages leave through the process-wide Sender the interpreter sets while
// a cell (or a comm handler) runs, as package display's Publisher does for
// output; with none they are dropped. Messages from the client arrive
// through Deliver, which the interpreter calls for comm_open, comm_msg and
// comm_close, and which runs the handlers. Request is the msg_id of the
// client's request being served (the execute_request of the running cell,
// or the comm_msg whose handler runs): output published now has it as its
// parent, which is what an Output widget captures.
//
// comm imports only the standard library; the kernel's protocol, the wire
// between the kernel and its worker, and widgets are built on it elsewhere.
package comm
