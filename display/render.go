package display

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
)

// HTMLer is a value that renders itself as an HTML fragment.
type HTMLer interface{ HTML() string }

// Markdowner is a value that renders itself as Markdown.
type Markdowner interface{ Markdown() string }

// LaTeXer is a value that renders itself as LaTeX maths (text/latex:
// display maths between $$, which Notebook typesets even in an untrusted
// notebook, where it shows no Markdown).
type LaTeXer interface{ LaTeX() string }

// SVGer is a value that renders itself as an SVG document.
type SVGer interface{ SVG() string }

// PNGer is a value that renders itself as a PNG image.
type PNGer interface {
	PNG() ([]byte, error)
}

// PNGSizer is a PNGer whose image holds more pixels than it should take
// on the page (a HiDPI image): PNGSize is the width and height to show it
// at, in CSS pixels, which the bundle's metadata carries.
type PNGSizer interface {
	PNGSize() (width, height int)
}

// JSONer is a value that renders itself as JSON (application/json); the
// returned value is marshalled with encoding/json.
type JSONer interface{ JSON() any }

// Bundler is the escape hatch: a value that builds its whole bundle. The
// kernel adds text/plain when the bundle lacks it.
type Bundler interface{ Bundle() Bundle }

// Preparer is a value whose rendering may take a while — the summary of
// a posterior of millions of draws computes its diagnostics — and says
// what it is doing: the kernel shows Preparing's words (a short phrase,
// "computing …") when rendering the value of a cell takes over a second.
type Preparer interface{ Preparing() string }

// MIME types used in bundles.
const (
	MIMEText     = "text/plain"
	MIMEHTML     = "text/html"
	MIMEMarkdown = "text/markdown"
	MIMELaTeX    = "text/latex"
	MIMESVG      = "image/svg+xml"
	MIMEPNG      = "image/png"
	MIMEJSON     = "application/json"
)

// Render returns the bundle for v: every representation v's type provides
// through the interfaces above, and always text/plain. A nil v renders as
// an empty bundle (no Data).
//
// A renderer that fails (a PNG method returning an error, or a value whose
// Err method reports the bad input it was made from) leaves the error's
// text as the text/plain form; RenderStrict returns the error instead.
func Render(v any) Bundle {
	b, err := RenderStrict(v)
	if err != nil {
		b.Data[MIMEText] = err.Error()
	}
	return b
}

// Failer is a value that may have been made from bad input and says so:
// a figure of an unknown variable, say. A value that renders itself
// through one of the interfaces above and whose Err returns non-nil
// cannot be shown; RenderStrict returns that error.
type Failer interface{ Err() error }

// RenderStrict is Render for a value that must render: when one of v's
// renderers fails, it returns the error (its own text, the renderer's
// package prefix included) with the bundle built from the renderers that
// worked. The kernel fails a cell whose final value does not render, so
// the user sees the error as an error.
func RenderStrict(v any) (Bundle, error) {
	b := Bundle{Data: map[string]any{}, Metadata: map[string]any{}}
	if v == nil {
		return b, nil
	}
	if err := failure(v); err != nil {
		b.Data[MIMEText] = err.Error()
		return b, err
	}
	var renderErr error
	switch x := v.(type) {
	case Bundle:
		return complete(copyBundle(x)), nil
	case *Bundle:
		if x == nil {
			return b, nil
		}
		return complete(copyBundle(*x)), nil
	}
	if x, ok := v.(Bundler); ok {
		got := x.Bundle()
		for k, d := range got.Data {
			b.Data[k] = d
		}
		for k, m := range got.Metadata {
			b.Metadata[k] = m
		}
	}
	if x, ok := v.(HTMLer); ok {
		setIfMissing(b, MIMEHTML, x.HTML())
	}
	if x, ok := v.(Markdowner); ok {
		setIfMissing(b, MIMEMarkdown, x.Markdown())
	}
	if x, ok := v.(LaTeXer); ok {
		setIfMissing(b, MIMELaTeX, x.LaTeX())
	}
	if x, ok := v.(SVGer); ok {
		setIfMissing(b, MIMESVG, x.SVG())
	}
	if x, ok := v.(PNGer); ok {
		if _, has := b.Data[MIMEPNG]; !has {
			png, err := x.PNG()
			if err != nil {
				renderErr = err
			} else {
				b.Data[MIMEPNG] = base64.StdEncoding.EncodeToString(png)
				if sz, ok := v.(PNGSizer); ok {
					if _, has := b.Metadata[MIMEPNG]; !has {
						w, h := sz.PNGSize()
						b.Metadata[MIMEPNG] = map[string]any{"width": w, "height": h}
					}
				}
			}
		}
	}
	if x, ok := v.(JSONer); ok {
		if _, has := b.Data[MIMEJSON]; !has {
			b.Data[MIMEJSON] = jsonValue(x.JSON())
		}
	}
	if renderErr != nil {
		// The text form of a value that could not be drawn is the reason.
		b.Data[MIMEText] = renderErr.Error()
		return b, renderErr
	}
	if _, has := b.Data[MIMEText]; !has {
		b.Data[MIMEText] = Text(v)
	}
	return b, nil
}

// failure is the error of a value that renders itself (one of the
// interfaces above) and reports through Err that it was made from bad
// input. Other values with an Err method (a bufio.Scanner, a context) show
// as usual: their Err is no statement about their display.
func failure(v any) error {
	f, ok := v.(Failer)
	if !ok {
		return nil
	}
	switch v.(type) {
	case Bundler, HTMLer, Markdowner, SVGer, PNGer, JSONer:
	default:
		return nil
	}
	// A typed nil pointer's Err may dereference it.
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil
	}
	return f.Err()
}

func setIfMissing(b Bundle, mime, s string) {
	if _, has := b.Data[mime]; !has {
		b.Data[mime] = s
	}
}

// jsonValue round-trips v through encoding/json so the bundle holds plain
// maps, slices, strings, numbers and bools whatever v's type is.
func jsonValue(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return map[string]any{"error": "display: cannot encode JSON: " + err.Error()}
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return map[string]any{"error": "display: cannot encode JSON: " + err.Error()}
	}
	return out
}

// Text is the text/plain form of v: its String or Error method when it has
// one, a quoted string for strings, and fmt's %v otherwise.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return "<nil>"
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case string:
		return fmt.Sprintf("%q", x)
	case []byte:
		return fmt.Sprintf("%v", x)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Struct:
		return fmt.Sprintf("%+v", v)
	case reflect.Pointer:
		if !rv.IsNil() && rv.Elem().Kind() == reflect.Struct {
			return fmt.Sprintf("&%+v", rv.Elem().Interface())
		}
	}
	return fmt.Sprintf("%v", v)
}

func jsonIndent(v any) (string, error) {
	raw, err := json.MarshalIndent(v, "", "  ")
	return string(raw), err
}

func copyBundle(in Bundle) Bundle {
	out := Bundle{Data: make(map[string]any, len(in.Data)), Metadata: make(map[string]any, len(in.Metadata))}
	for k, v := range in.Data {
		out.Data[k] = v
	}
	for k, v := range in.Metadata {
		out.Metadata[k] = v
	}
	return out
}
