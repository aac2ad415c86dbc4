// Package kernel is the Jupyter side of gobayes: it speaks the Jupyter
// messaging protocol (version 5.3) over ZeroMQ and drives an interp.Engine.
//
// Use it by reading the connection file Jupyter hands the kernel and serving
// until the client asks for shutdown:
//
//	info, err := kernel.ReadConnectionFile(path)
//	k, err := kernel.New(kernel.Config{Engine: engine, Scheme: info.SignatureScheme, Key: info.Key}, nil)
//	err = k.Serve(ctx, info) // returns after a shutdown_request
//
// Engine is an interp.Engine (supervisor.New of package interp/supervisor
// in the gobayes binary).
// Interrupt cancels the running cell (the binary calls it on SIGINT).
//
// The package is built in layers, each talking only to its neighbour:
//
//   - wire: the connection file (connection.go), HMAC signing (signer.go),
//     frames with the <IDS|MSG> delimiter (message.go) and the five sockets
//     (sockets.go);
//   - messages: headers made by an Origin, whose clock and id source are
//     injected so that frames are reproducible in golden tests (origin.go);
//   - dispatch: one handler per message type (kernel.go, handlers.go,
//     execute.go), with busy/idle published around every request;
//   - stdin: a cell reading standard input sends input_request to the
//     client and waits for its input_reply, when the execute_request
//     allowed stdin (stdin.go);
//   - iopub: what a running cell produces (stream, display_data,
//     update_display_data, clear_output, and the comm messages of its
//     widgets) published as it happens (execute.go);
//   - comms: a client's comm_open, comm_msg and comm_close go to
//     Engine.Comm, whose handlers (a widget's) run as a cell does, their
//     output parented by the comm message; comm_info_request lists
//     Engine.CommInfo; a comm_open no target serves is closed at once
//     (handlers.go).
//
// Nothing here knows how Go code is interpreted: that is interp.Engine's job.
package kernel
