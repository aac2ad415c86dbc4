package display

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"sync"
)

// Publisher receives what display calls publish. The kernel's interpreter
// sets one while a cell runs; interp.Events satisfies it.
type Publisher interface {
	// Display publishes b now; with update true it replaces the bundle last
	// shown under the same non-empty id.
	Display(b Bundle, id string, update bool)
	// Clear clears the cell's output; wait delays it until new output comes.
	Clear(wait bool)
}

var (
	publisherMu sync.Mutex
	publisher   Publisher
)

// SetPublisher makes p the process-wide destination of display calls and
// returns the previous one, so a caller can restore it. A nil p prints the
// text/plain form to standard output.
func SetPublisher(p Publisher) (previous Publisher) {
	publisherMu.Lock()
	defer publisherMu.Unlock()
	previous, publisher = publisher, p
	return previous
}

func currentPublisher() Publisher {
	publisherMu.Lock()
	defer publisherMu.Unlock()
	return publisher
}

// Publish shows a bundle at once (display_data). A bundle without
// text/plain gets a placeholder, since every bundle must have one.
func Publish(b Bundle) { publish(b, "", false) }

func publish(b Bundle, id string, update bool) { publishTo(currentPublisher(), b, id, update) }

// publishTo publishes b to p, or prints its text form when p is nil.
func publishTo(p Publisher, b Bundle, id string, update bool) {
	b = complete(b)
	if p != nil {
		p.Display(b, id, update)
		return
	}
	fmt.Fprintln(os.Stdout, b.Data[MIMEText])
}

// An Output is one destination of displays, given where it is used: the
// notebook's interpreter hands its session's to what it connects (ppl's
// live progress tables and notices), so that two sessions in one process
// publish apart whatever the process-wide Publisher is. The zero Output
// prints text/plain forms to standard output, as no Publisher does.
type Output struct{ p Publisher }

// To is the Output of p.
func To(p Publisher) Output { return Output{p: p} }

// Active reports whether o reaches a notebook rather than standard output.
func (o Output) Active() bool { return o.p != nil }

// Publish shows a bundle at once, as the package's Publish does.
func (o Output) Publish(b Bundle) { publishTo(o.p, b, "", false) }

// Notice writes one line of text to o's standard output stream.
func (o Output) Notice(text string) { notice(o.p, text) }

// NewHandle returns a handle whose displays go to o.
func (o Output) NewHandle() *Handle {
	h := NewHandle()
	h.out = &o
	return h
}

func complete(b Bundle) Bundle {
	if b.Data == nil {
		b.Data = map[string]any{}
	}
	if b.Metadata == nil {
		b.Metadata = map[string]any{}
	}
	if _, ok := b.Data[MIMEText]; !ok {
		kinds := make([]string, 0, len(b.Data))
		for k := range b.Data {
			kinds = append(kinds, k)
		}
		b.Data[MIMEText] = "[" + strings.Join(kinds, ", ") + "]"
	}
	return b
}

// HTMLBundle is the bundle of an HTML fragment; its text/plain form is the
// fragment's text without tags.
func HTMLBundle(s string) Bundle {
	return Bundle{Data: map[string]any{MIMEHTML: s, MIMEText: stripTags(s)}, Metadata: map[string]any{}}
}

// MarkdownBundle is the bundle of a Markdown text.
func MarkdownBundle(s string) Bundle {
	return Bundle{Data: map[string]any{MIMEMarkdown: s, MIMEText: s}, Metadata: map[string]any{}}
}

// SVGBundle is the bundle of an SVG document.
func SVGBundle(s string) Bundle {
	return Bundle{Data: map[string]any{MIMESVG: s, MIMEText: fmt.Sprintf("[SVG image, %d bytes]", len(s))}, Metadata: map[string]any{}}
}

// PNGBundle is the bundle of PNG-encoded bytes.
func PNGBundle(b []byte) Bundle {
	text := fmt.Sprintf("[PNG image, %d bytes]", len(b))
	if cfg, err := png.DecodeConfig(bytes.NewReader(b)); err == nil {
		text = fmt.Sprintf("[PNG image %d×%d]", cfg.Width, cfg.Height)
	}
	return Bundle{Data: map[string]any{MIMEPNG: base64.StdEncoding.EncodeToString(b), MIMEText: text}, Metadata: map[string]any{}}
}

// JSONBundle is the bundle of v encoded as JSON, with indented JSON as its
// text form.
func JSONBundle(v any) Bundle {
	j := jsonValue(v)
	text := fmt.Sprint(j)
	if raw, err := jsonIndent(j); err == nil {
		text = raw
	}
	return Bundle{Data: map[string]any{MIMEJSON: j, MIMEText: text}, Metadata: map[string]any{}}
}

// ImageBundle encodes img as PNG. An image that cannot be encoded gives a
// bundle whose text says why.
func ImageBundle(img image.Image) Bundle {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Bundle{Data: map[string]any{MIMEText: "display: cannot encode image as PNG: " + err.Error()}, Metadata: map[string]any{}}
	}
	return PNGBundle(buf.Bytes())
}

// HTML publishes an HTML fragment.
func HTML(s string) { Publish(HTMLBundle(s)) }

// Markdown publishes Markdown text.
func Markdown(s string) { Publish(MarkdownBundle(s)) }

// SVG publishes an SVG document.
func SVG(s string) { Publish(SVGBundle(s)) }

// PNG publishes PNG-encoded bytes.
func PNG(b []byte) { Publish(PNGBundle(b)) }

// JSON publishes v as JSON (application/json).
func JSON(v any) { Publish(JSONBundle(v)) }

// Image publishes img as a PNG.
func Image(img image.Image) { Publish(ImageBundle(img)) }

// Show publishes v as Render shows a final expression; nil shows as
// "<nil>", as fmt prints it. A value that cannot be rendered (see
// RenderStrict) shows its error on the cell's standard error instead.
func Show(v any) {
	if v == nil {
		Publish(Bundle{Data: map[string]any{MIMEText: "<nil>"}})
		return
	}
	b, err := RenderStrict(v)
	if err != nil {
		ShowError(err)
		return
	}
	Publish(b)
}

// Streamer is a Publisher that also takes text for the cell's output
// streams ("stdout", "stderr"); the kernel's publisher is one.
type Streamer interface {
	Stream(name, text string)
}

// ShowError writes "display: cannot show the value: " and err's text to
// the cell's standard error: the form a failed display takes, plain text
// rather than a picture that is not there.
func ShowError(err error) {
	text := "display: cannot show the value: " + err.Error() + "\n"
	if s, ok := currentPublisher().(Streamer); ok {
		s.Stream("stderr", text)
		return
	}
	fmt.Fprint(os.Stderr, text)
}

// Notice writes a line of information (no error: a redefinition, a
// renormalisation) to the cell's standard output, on standard output
// where no cell runs.
func Notice(text string) { notice(currentPublisher(), text) }

func notice(p Publisher, text string) {
	if s, ok := p.(Streamer); ok {
		s.Stream("stdout", text+"\n")
		return
	}
	fmt.Fprintln(os.Stdout, text)
}

// Clear clears the cell's output; with wait true the clearing waits until
// new output arrives, which avoids flicker in animations.
func Clear(wait bool) {
	if p := currentPublisher(); p != nil {
		p.Clear(wait)
	}
}

// Handle is one display that later calls replace in place
// (update_display_data): the basis of live progress bars.
type Handle struct {
	id    string
	mu    sync.Mutex
	shown bool
	// out is where the handle's displays go (Output.NewHandle); nil: the
	// process-wide Publisher.
	out *Output
}

// publish publishes b under the handle's id.
func (h *Handle) publish(b Bundle, update bool) {
	if h.out != nil {
		publishTo(h.out.p, b, h.id, update)
		return
	}
	publish(b, h.id, update)
}

// NewHandle returns a handle with a fresh random display id.
func NewHandle() *Handle {
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		// crypto/rand does not fail on supported platforms; a fixed prefix
		// keeps ids distinct from user ids if it ever does.
		return &Handle{id: fmt.Sprintf("gobayes-%p", &raw)}
	}
	return &Handle{id: hex.EncodeToString(raw[:])}
}

// HandleWithID returns a handle with the given display id (tests inject
// ids this way).
func HandleWithID(id string) *Handle { return &Handle{id: id} }

// ID is the display id the handle publishes under.
func (h *Handle) ID() string { return h.id }

// Show publishes v as a new display with the handle's id.
func (h *Handle) Show(v any) {
	h.mu.Lock()
	h.shown = true
	h.mu.Unlock()
	h.publish(Render(v), false)
}

// Update replaces what the handle shows with v; before any Show it shows v.
func (h *Handle) Update(v any) {
	h.mu.Lock()
	first := !h.shown
	h.shown = true
	h.mu.Unlock()
	h.publish(Render(v), !first)
}

// stripTags returns the text of an HTML fragment: tags removed, runs of
// white space collapsed, the common entities decoded.
func stripTags(s string) string {
	var out strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
			out.WriteByte(' ')
		case r == '>' && in:
			in = false
		case !in:
			out.WriteRune(r)
		}
	}
	text := strings.Join(strings.Fields(out.String()), " ")
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&nbsp;", " ", "&amp;", "&").Replace(text)
}
