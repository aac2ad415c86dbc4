package kernel

import (
	"time"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

type languageInfo struct {
	Name              string `json:"name"`
	Version           string `json:"version"`
	Mimetype          string `json:"mimetype"`
	FileExtension     string `json:"file_extension"`
	PygmentsLexer     string `json:"pygments_lexer"`
	CodemirrorMode    string `json:"codemirror_mode"`
	NbconvertExporter string `json:"nbconvert_exporter"`
}

type helpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

type kernelInfoReply struct {
	Status                string       `json:"status"`
	ProtocolVersion       string       `json:"protocol_version"`
	Implementation        string       `json:"implementation"`
	ImplementationVersion string       `json:"implementation_version"`
	LanguageInfo          languageInfo `json:"language_info"`
	Banner                string       `json:"banner"`
	HelpLinks             []helpLink   `json:"help_links"`
	Debugger              bool         `json:"debugger"`
}

func (k *Kernel) kernelInfo(ch Channel, req *Message) {
	k.reply(ch, req, "kernel_info_reply", kernelInfoReply{
		Status:                "ok",
		ProtocolVersion:       ProtocolVersion,
		Implementation:        "gobayes",
		ImplementationVersion: k.cfg.Version,
		LanguageInfo: languageInfo{
			Name: "go", Version: k.cfg.GoVersion, Mimetype: "text/x-go", FileExtension: ".go",
			PygmentsLexer: "go", CodemirrorMode: "go", NbconvertExporter: "script",
		},
		Banner: "gobayes " + k.cfg.Version + ": Go cells for Bayesian modelling, interpreted by yaegi (built with Go " + k.cfg.GoVersion + ").\n" +
			"Variables live across cells; the value of a final expression is shown.\n" +
			"Type %help for magics, NAME? or %doc NAME for documentation.",
		HelpLinks: []helpLink{
			{Text: "Go documentation", URL: "https://go.dev/doc/"},
			{Text: "Go standard library", URL: "https://pkg.go.dev/std"},
			{Text: "gonum", URL: "https://pkg.go.dev/gonum.org/v1/gonum"},
			{Text: "gobayes", URL: "https://github.com/gobayes/gobayes#readme"},
		},
	})
}

type completeRequest struct {
	Code      string `json:"code"`
	CursorPos int    `json:"cursor_pos"`
}

type completeReply struct {
	Status      string         `json:"status"`
	Matches     []string       `json:"matches"`
	CursorStart int            `json:"cursor_start"`
	CursorEnd   int            `json:"cursor_end"`
	Metadata    map[string]any `json:"metadata"`
}

func (k *Kernel) complete(ch Channel, req *Message) {
	var r completeRequest
	if !k.decode(ch, req, &r) {
		return
	}
	c := k.engine.Complete(r.Code, r.CursorPos)
	if c.Matches == nil {
		c.Matches = []string{}
	}
	if len(c.Matches) == 0 {
		c.Start, c.End = r.CursorPos, r.CursorPos
	}
	k.reply(ch, req, "complete_reply", completeReply{
		Status: "ok", Matches: c.Matches, CursorStart: c.Start, CursorEnd: c.End, Metadata: map[string]any{},
	})
}

type inspectRequest struct {
	Code        string `json:"code"`
	CursorPos   int    `json:"cursor_pos"`
	DetailLevel int    `json:"detail_level"`
}

type inspectReply struct {
	Status   string         `json:"status"`
	Found    bool           `json:"found"`
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}

func (k *Kernel) inspect(ch Channel, req *Message) {
	var r inspectRequest
	if !k.decode(ch, req, &r) {
		return
	}
	b, found := k.engine.Inspect(r.Code, r.CursorPos, r.DetailLevel)
	data, meta := bundleMaps(b)
	if !found {
		data = map[string]any{}
	}
	k.reply(ch, req, "inspect_reply", inspectReply{Status: "ok", Found: found, Data: data, Metadata: meta})
}

type isCompleteRequest struct {
	Code string `json:"code"`
}

type isCompleteReply struct {
	Status string `json:"status"`
	Indent string `json:"indent,omitempty"`
}

func (k *Kernel) isComplete(ch Channel, req *Message) {
	var r isCompleteRequest
	if !k.decode(ch, req, &r) {
		return
	}
	status, indent := k.engine.IsComplete(r.Code)
	switch status {
	case "complete", "incomplete", "invalid":
	default:
		status = "unknown"
	}
	if status != "incomplete" {
		indent = ""
	}
	k.reply(ch, req, "is_complete_reply", isCompleteReply{Status: status, Indent: indent})
}

// commInfo lists the interpreter's open comms, those of one target when
// the request names it.
func (k *Kernel) commInfo(ch Channel, req *Message) {
	var r struct {
		TargetName string `json:"target_name"`
	}
	if !k.decode(ch, req, &r) {
		return
	}
	comms := map[string]any{}
	for id, target := range k.engine.CommInfo(r.TargetName) {
		comms[id] = map[string]any{"target_name": target}
	}
	k.reply(ch, req, "comm_info_reply", map[string]any{"status": "ok", "comms": comms})
}

type commContent struct {
	CommID     string         `json:"comm_id"`
	TargetName string         `json:"target_name"`
	Data       map[string]any `json:"data"`
}

// commRequest hands a client's comm_open, comm_msg or comm_close to the
// interpreter, whose handlers (a widget's) run as a cell does: what they
// print or publish has this request as parent, and an interrupt stops
// them. A comm_open the interpreter cannot serve (no such target) is
// closed at once, as ipykernel does; a message for an unknown comm is
// logged and dropped.
func (k *Kernel) commRequest(ch Channel, req *Message) {
	var r commContent
	if !k.decode(ch, req, &r) {
		return
	}
	typ := req.Header.MsgType
	ctx, end := k.startCell()
	ev := &cellEvents{k: k, req: req, limit: k.cfg.OutputLimit}
	err := k.engine.Comm(ctx, comm.Message{Type: typ, CommID: r.CommID, TargetName: r.TargetName, Data: r.Data}, ev)
	ev.close()
	end()
	if err == nil {
		return
	}
	k.log.Printf("kernel: %s on comm %q: %s", typ, r.CommID, err.Value)
	if typ == comm.TypeOpen {
		k.publish(comm.TypeClose, req, map[string]any{"comm_id": r.CommID, "data": map[string]any{}})
	}
}

func (k *Kernel) connect(ch Channel, req *Message) {
	k.reply(ch, req, "connect_reply", map[string]any{
		"status": "ok", "shell_port": k.info.ShellPort, "iopub_port": k.info.IOPubPort,
		"stdin_port": k.info.StdinPort, "hb_port": k.info.HBPort, "control_port": k.info.ControlPort,
	})
}

func (k *Kernel) interrupt(ch Channel, req *Message) {
	k.Interrupt()
	k.reply(ch, req, "interrupt_reply", map[string]any{"status": "ok"})
}

// shutdown answers, interrupts a running cell, and stops the kernel. With
// restart set the interpreter is reset first; the client then starts a new
// kernel process on the same ports, so this one must exit either way.
func (k *Kernel) shutdown(ch Channel, req *Message) {
	var r struct {
		Restart bool `json:"restart"`
	}
	if !k.decode(ch, req, &r) {
		return
	}
	k.Interrupt()
	k.waitCell(2 * time.Second)
	if r.Restart {
		if err := k.engine.Reset(); err != nil {
			k.log.Printf("kernel: reset for restart: %v", err)
		}
	}
	content := map[string]any{"status": "ok", "restart": r.Restart}
	k.reply(ch, req, "shutdown_reply", content)
	k.publish("shutdown_reply", req, content)
	k.mu.Lock()
	k.restart = r.Restart
	k.mu.Unlock()
	k.stopOnce.Do(func() { close(k.stop) })
}

// bundleMaps returns a bundle's data and metadata, never nil.
func bundleMaps(b display.Bundle) (data, meta map[string]any) {
	data, meta = b.Data, b.Metadata
	if data == nil {
		data = map[string]any{}
	}
	if meta == nil {
		meta = map[string]any{}
	}
	return data, meta
}
