package display

// Bundle is a MIME bundle: the same value in several representations, keyed
// by MIME type ("text/plain", "text/html", "image/png", ...), as Jupyter's
// display_data and execute_result messages carry it. Binary data (PNG) is
// stored base64-encoded, as the protocol wants it.
type Bundle struct {
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}
