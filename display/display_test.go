package display

import (
	"bytes"
	"context"
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
func (richValue) SVG() string          { return "<svg/>" }
func (richValue) PNG() ([]byte, error) { return []byte{1, 2, 3}, nil }
func (richValue) JSON() any            { return map[string]int{"a": 1} }

type brokenPNG struct{}

func (brokenPNG) PNG() ([]byte, error) { return nil, errors.New("no pixels") }

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
			MIMEHTML: "<i>rich</i>", MIMEMarkdown: "*rich*", MIMESVG: "<svg/>",
			MIMEPNG: base64.StdEncoding.EncodeToString([]byte{1, 2, 3}), MIMEJSON: map[string]any{"a": float64(1)},
			MIMEText: "{}"}},
		{"failing PNG says why", brokenPNG{}, map[string]any{MIMEText: "display: display.brokenPNG.PNG failed: no pixels"}},
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

// recording is a Publisher that keeps what it was given.
type recording struct {
	shown []string
}

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

func TestContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	prev := SetContext(ctx)
	defer SetContext(prev)
	cancel()
	if Context().Err() == nil {
		t.Error("Context() is not the cell's context")
	}
	SetContext(nil)
	if Context() != context.Background() {
		t.Error("Context() without a cell is not context.Background()")
	}
}

func TestNewHandleIDsDiffer(t *testing.T) {
	a, b := NewHandle(), NewHandle()
	if a.ID() == "" || a.ID() == b.ID() {
		t.Errorf("ids %q and %q", a.ID(), b.ID())
	}
}
