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

// SVGer is a value that renders itself as an SVG document.
type SVGer interface{ SVG() string }

// PNGer is a value that renders itself as a PNG image.
type PNGer interface {
	PNG() ([]byte, error)
}

// JSONer is a value that renders itself as JSON (application/json); the
// returned value is marshalled with encoding/json.
type JSONer interface{ JSON() any }

// Bundler is the escape hatch: a value that builds its whole bundle. The
// kernel adds text/plain when the bundle lacks it.
type Bundler interface{ Bundle() Bundle }

// MIME types used in bundles.
const (
	MIMEText     = "text/plain"
	MIMEHTML     = "text/html"
	MIMEMarkdown = "text/markdown"
	MIMESVG      = "image/svg+xml"
	MIMEPNG      = "image/png"
	MIMEJSON     = "application/json"
)

// Render returns the bundle for v: every representation v's type provides
// through the interfaces above, and always text/plain. A nil v renders as
// an empty bundle (no Data).
func Render(v any) Bundle {
	b := Bundle{Data: map[string]any{}, Metadata: map[string]any{}}
	if v == nil {
		return b
	}
	switch x := v.(type) {
	case Bundle:
		return complete(copyBundle(x))
	case *Bundle:
		if x == nil {
			return b
		}
		return complete(copyBundle(*x))
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
	if x, ok := v.(SVGer); ok {
		setIfMissing(b, MIMESVG, x.SVG())
	}
	if x, ok := v.(PNGer); ok {
		if _, has := b.Data[MIMEPNG]; !has {
			png, err := x.PNG()
			if err != nil {
				// The picture failed; say so in the text form rather than fail the cell.
				b.Data[MIMEText] = fmt.Sprintf("display: %T.PNG failed: %v", v, err)
			} else {
				b.Data[MIMEPNG] = base64.StdEncoding.EncodeToString(png)
			}
		}
	}
	if x, ok := v.(JSONer); ok {
		if _, has := b.Data[MIMEJSON]; !has {
			b.Data[MIMEJSON] = jsonValue(x.JSON())
		}
	}
	if _, has := b.Data[MIMEText]; !has {
		b.Data[MIMEText] = Text(v)
	}
	return b
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
