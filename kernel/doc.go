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
//     frames with the <IDS|MSG> delimiter (message.go), the five sockets
//     (sockets.go; router.go and pub.go, peer.go) and the listeners
//     under them (transport.go, zmtp.go);
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
// The wire is hostile: anyone who can reach a port may send anything, with
// or without the key. zmq4 (v0.17.0) trusts its peers, so the kernel owns
// its listeners (zmtp.go) and checks ZMTP before anything reads a byte of
// it: each accepted connection's greeting and READY are read in a
// goroutine of their own under a deadline (Config.HandshakeTimeout), and
// only a connection whose handshake is whole and well formed (NULL
// mechanism, a known Socket-Type that may connect to the socket) is
// served (zmq4's accept loop, for the heartbeat, does its handshake
// synchronously and would otherwise wait on a silent peer). After the
// handshake the connection gives its reader whole frames only, read
// ahead into the kernel's own buffer: what a header
// announces costs nothing until its bytes arrive, and a frame or message
// past the channel's limit (Config.MaxMessage on shell, control and stdin;
// a few KiB on iopub and heartbeat) drops the connection, with a log line
// (at most ten a second a port, the rest counted), before it is kept.
//
// Only the heartbeat is zmq4's. The kernel serves shell, control and
// stdin (router.go) and iopub (pub.go) itself on the same guarded
// listeners (peer.go): after the handshake it sends its READY and reads
// the checked frames. A ROUTER connection's reader goroutine hands each
// message, with the peer's identity in front (the Identity of its READY,
// or one the kernel gives), to the kernel, one at a time a socket; a
// reply is written to the peers of its identity from the goroutine that
// sends it, and dropped when none is connected, as ZeroMQ's ROUTER does.
// iopub reads the peer's subscriptions (one frame each, counted per topic
// as ZeroMQ does, at most 64 KiB of topics a peer) and writes each
// message, framed once, to every subscriber of a prefix of its topic,
// from the goroutine that publishes it. zmq4's sockets passed every
// message through goroutines of their own (a reader's channel, a
// receive loop, a writer goroutine per ROUTER send, a PUB queue without
// bound): wake-ups on each step of a request's round trip, and memory
// that grew behind a subscriber that stopped reading. A peer that leaves
// the kernel's writes untaken for Config.WriteTimeout is dropped; until
// then the sender waits, so a cell's output waits for the slowest
// subscriber, within that bound.
//
// Owning the listeners was chosen over patching zmq4 (a fork to keep)
// and over recovering its panics (they happen in zmq4's own goroutines,
// where no recover of ours reaches): checking the stream is small, the
// protocol's grammar is short, and zmq4 keeps doing the rest.
//
// Above ZeroMQ, a message runs only when its signature is the exact
// lowercase hex HMAC of its frames and, with a key, is not among the last
// replayWindow signatures received on any channel (replay.go); a shell request is
// checked as it arrives, so that what waits behind a running cell is only
// what the key holder sent. Header, parent, metadata and content must be
// UTF-8: the header goes back out as the replies' parent, and a JSON
// decoder refuses anything else, so such a message is dropped, not
// answered with a repaired header the client could not match. A request
// whose content has a field of the wrong type gets an error reply
// (ename InvalidRequest, evalue naming the field), never silence. With an
// empty key, Serve warns on its log (standard error) that messages are not
// authenticated.
//
// The kernel process's memory does not follow what passes through it. A
// cell's output reaches the kernel in pieces of at most 64 KiB (interp
// cuts large writes; the worker replaces a display or value over the
// output limit by a notice) and is passed on until the cell has shown
// Config.OutputLimit bytes (GOBAYES_OUTPUT_LIMIT), then cut with one notice
// on stderr while the cell runs on, as Notebook's iopub data-rate limit
// does; clear_output starts the count again. A cell's source over
// Config.MaxCell is answered with a CellTooLarge error, not run, and any
// other request over it (plus 64 KiB) with a RequestTooLarge error. History
// keeps the latest cells within Config.HistoryLimit, so a history_reply is
// bounded too. After a request that received or sent a message over 1 MiB,
// the kernel returns its free memory to the system (after idle), and the
// gobayes binary gives the process a soft memory limit of its own. What the
// kernel keeps for good and that holds no pointers, the replay guard's
// arrays, is mapped off the Go heap, so that it does not raise the heap
// the collector lets grow to a multiple of the live heap between
// collections.
//
// Nothing here knows how Go code is interpreted: that is interp.Engine's job.
package kernel
