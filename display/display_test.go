package display

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"testing"
)

type htmlValue struct{}

func (htmlValue) HTML() string   { return "<b>bold</b>" }
func (htmlValue) String() string { return "bold" }

type richValue struct{}

func (richValue) HTML() string         { return "<i>rich</i>" }
func (richValue) Markdown() string     { return "*rich*" }
func (richValue) LaTeX() string        { return "$$x$$" }
func (richValue) SVG() string          { return "<svg/>" }
func (richValue) PNG() ([]byte, error) { return []byte{1, 2, 3}, nil }
func (richValue) JSON() any            { return map[string]int{"a": 1} }

// hidpi is a PNG of twice the pixels it shows at.
type hidpi struct{}

func (hidpi) PNG() ([]byte, error) { return []byte{4}, nil }
func (hidpi) PNGSize() (int, int)  { return 300, 200 }
func (hidpi) String() string       { return "picture" }

// A PNGSizer's size reaches the bundle's metadata, where front ends read
// the size to show a PNG at.
func TestPNGSize(t *testing.T) {
	b := Render(hidpi{})
	m, ok := b.Metadata[MIMEPNG].(map[string]any)
	if !ok || m["width"] != 300 || m["height"] != 200 {
		t.Errorf("metadata %v, want image/png width 300 height 200", b.Metadata)
	}
}

type brokenPNG struct{}

func (brokenPNG) PNG() ([]byte, error) { return nil, errors.New("no pixels") }

// badFigure is like a plotting figure made from bad input: its Bundle
// gives text only, its PNG fails, and Err says why.
type badFigure struct{}

func (badFigure) Bundle() Bundle {
	return Bundle{Data: map[string]any{MIMEText: "plot: unknown variable \"theta1\""}}
}
func (badFigure) PNG() ([]byte, error) { return nil, errors.New("plot: unknown variable \"theta1\"") }
func (badFigure) Err() error           { return errors.New("plot: unknown variable \"theta1\"") }

// scanner has an Err method but renders nothing itself: its Err says
// nothing about showing it.
type scanner struct{}

func (scanner) Err() error     { return errors.New("read failed") }
func (scanner) String() string { return "scanner" }

type fullBundle struct{}

func (fullBundle) Bundle() Bundle {
	return Bundle{Data: map[string]any{"text/latex": "$x$"}, Metadata: map[string]any{"k": "v"}}
}

type point struct{ X, Y int }

func TestRender(t *testing.T) {
	// Expected bundles are written from the interfaces' contracts: each
	// interface adds its MIME type, text/plain always present (PNG bytes
	// base64-encoded as the Jupyter protocol requires).
	cases := []struct {
		name string
		v    any
		want map[string]any
	}{
		{"nil", nil, map[string]any{}},
		{"int", 42, map[string]any{MIMEText: "42"}},
		{"string is quoted", "hi", map[string]any{MIMEText: `"hi"`}},
		{"struct shows field names", point{1, 2}, map[string]any{MIMEText: "{X:1 Y:2}"}},
		{"pointer to struct", &point{1, 2}, map[string]any{MIMEText: "&{X:1 Y:2}"}},
		{"error", errors.New("bad"), map[string]any{MIMEText: "bad"}},
		{"html with String", htmlValue{}, map[string]any{MIMEHTML: "<b>bold</b>", MIMEText: "bold"}},
		{"every interface", richValue{}, map[string]any{
			MIMEHTML: "<i>rich</i>", MIMEMarkdown: "*rich*", MIMELaTeX: "$$x$$", MIMESVG: "<svg/>",
			MIMEPNG: base64.StdEncoding.EncodeToString([]byte{1, 2, 3}), MIMEJSON: map[string]any{"a": float64(1)},
			MIMEText: "{}"}},
		{"failing PNG says why, no type name", brokenPNG{}, map[string]any{MIMEText: "no pixels"}},
		{"bad-input figure shows its error", badFigure{}, map[string]any{MIMEText: "plot: unknown variable \"theta1\""}},
		{"bundle escape hatch gets text", fullBundle{}, map[string]any{"text/latex": "$x$", MIMEText: "{}"}},
		{"a Bundle value is itself", HTMLBundle("<p>a &amp; b</p>"), map[string]any{MIMEHTML: "<p>a &amp; b</p>", MIMEText: "a & b"}},
	}
	for _, c := range cases {
		got := Render(c.v)
		if !reflect.DeepEqual(got.Data, c.want) {
			t.Errorf("%s: Render = %#v, want %#v", c.name, got.Data, c.want)
		}
	}
}

func TestRenderStrict(t *testing.T) {
	// want is the error text the value's own renderer or Err method
	// gives ("" for none): the value's own words, no Go type name.
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"fine", richValue{}, ""},
		{"plain int", 3, ""},
		{"failing PNG", brokenPNG{}, "no pixels"},
		{"Err of a self-rendering value", badFigure{}, "plot: unknown variable \"theta1\""},
		{"Err of a value that does not render itself", scanner{}, ""},
		{"typed nil", (*badPointer)(nil), ""},
	}
	for _, c := range cases {
		b, err := RenderStrict(c.v)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: RenderStrict error %q, want %q", c.name, got, c.want)
		}
		if err != nil && b.Data[MIMEText] != c.want {
			t.Errorf("%s: text/plain %q, want the error", c.name, b.Data[MIMEText])
		}
	}
}

type badPointer struct{ err error }

func (p *badPointer) Err() error   { return p.err }
func (p *badPointer) HTML() string { return "<p>x</p>" }

// recording is a Publisher that keeps what it was given; it takes stream
// text too, as the kernel's publisher does.
type recording struct {
	shown []string
}

func (r *recording) Stream(name, text string) { r.shown = append(r.shown, name+":"+text) }

func (r *recording) Display(b Bundle, id string, update bool) {
	kinds := ""
	for _, k := range []string{MIMEHTML, MIMEMarkdown, MIMESVG, MIMEPNG, MIMEJSON} {
		if _, ok := b.Data[k]; ok {
			kinds += k + " "
		}
	}
	r.shown = append(r.shown, fmt.Sprintf("%s|%v|%s%v", id, update, kinds, b.Data[MIMEText]))
}

func (r *recording) Clear(wait bool) { r.shown = append(r.shown, fmt.Sprintf("clear %v", wait)) }

func TestPublish(t *testing.T) {
	rec := &recording{}
	prev := SetPublisher(rec)
	defer SetPublisher(prev)

	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, img); err != nil {
		t.Fatal(err)
	}

	HTML("<h1>Title</h1>")
	Markdown("# Title")
	SVG("<svg></svg>")
	PNG(pngBytes.Bytes())
	Image(img)
	JSON([]int{1, 2})
	Show(42)
	Show(badFigure{})
	Clear(true)
	h := HandleWithID("bar")
	h.Update("first") // before any Show: shows
	h.Update("second")
	h2 := HandleWithID("baz")
	h2.Show(1)
	h2.Update(2)

	want := []string{
		"|false|text/html Title",
		"|false|text/markdown # Title",
		"|false|image/svg+xml [SVG image, 11 bytes]",
		"|false|image/png [PNG image 3×2]",
		"|false|image/png [PNG image 3×2]",
		"|false|application/json [\n  1,\n  2\n]",
		"|false|42",
		"stderr:display: cannot show the value: plot: unknown variable \"theta1\"\n",
		"clear true",
		"bar|false|\"first\"",
		"bar|true|\"second\"",
		"baz|false|1",
		"baz|true|2",
	}
	if !reflect.DeepEqual(rec.shown, want) {
		t.Errorf("published\n%q\nwant\n%q", rec.shown, want)
	}
}

func TestSetPublisherReturnsPrevious(t *testing.T) {
	a, b := &recording{}, &recording{}
	orig := SetPublisher(a)
	defer SetPublisher(orig)
	if got := SetPublisher(b); got != a {
		t.Errorf("SetPublisher returned %v, want the first publisher", got)
	}
	if !Active() {
		t.Error("Active() = false with a publisher set")
	}
	SetPublisher(nil)
	if Active() {
		t.Error("Active() = true with no publisher")
	}
}

// TestOutputsApart: two Outputs (two sessions' destinations) receive
// what is published to each, and their handles' updates, whatever the
// process-wide Publisher is; the zero Output is not active.
func TestOutputsApart(t *testing.T) {
	a, b, global := &recorder{}, &recorder{}, &recorder{}
	prev := SetPublisher(global)
	defer SetPublisher(prev)
	oa, ob := To(a), To(b)
	oa.Publish(HTMLBundle("<b>a</b>"))
	h := ob.NewHandle()
	h.Update("one")
	h.Update("two")
	oa.Notice("note")
	if len(a.shown) != 1 || len(b.shown) != 2 || len(global.shown) != 0 {
		t.Fatalf("published: %d to a (want 1), %d to b (want 2), %d to the process publisher (want 0)", len(a.shown), len(b.shown), len(global.shown))
	}
	if b.ids[0] != h.ID() || !b.updates[1] || b.updates[0] {
		t.Errorf("b's handle: ids %q, updates %v; want the handle's id, a display then an update", b.ids, b.updates)
	}
	if !oa.Active() || (Output{}).Active() {
		t.Errorf("Active: %v for an Output with a publisher, %v for the zero Output", oa.Active(), (Output{}).Active())
	}
}

// recorder is a Publisher that keeps what it is given.
type recorder struct {
	shown   []Bundle
	ids     []string
	updates []bool
}

func (r *recorder) Display(b Bundle, id string, update bool) {
	r.shown = append(r.shown, b)
	r.ids = append(r.ids, id)
	r.updates = append(r.updates, update)
}

func (r *recorder) Clear(bool) {}

func TestNewHandleIDsDiffer(t *testing.T) {
	a, b := NewHandle(), NewHandle()
	if a.ID() == "" || a.ID() == b.ID() {
		t.Errorf("ids %q and %q", a.ID(), b.ID())
	}
}
