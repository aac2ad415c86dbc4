package table

import (
	"fmt"
	"html"
	"strings"
)

// PreviewRows is the rows a table's preview shows at each end.
const PreviewRows = 5

// previewRows are the rows a preview shows: all of a short table, else
// the first and last PreviewRows with -1 where the rest are left out.
func (t *Table) previewRows() []int {
	if t.rows <= 2*PreviewRows+1 {
		out := make([]int, t.rows)
		for i := range out {
			out[i] = i
		}
		return out
	}
	var out []int
	for i := range PreviewRows {
		out = append(out, i)
	}
	out = append(out, -1)
	for i := t.rows - PreviewRows; i < t.rows; i++ {
		out = append(out, i)
	}
	return out
}

// dims is the table's size and origin in a line.
func (t *Table) dims() string {
	var missing int
	for _, c := range t.cols {
		missing += c.missing
	}
	s := fmt.Sprintf("%s: %d rows × %d columns", t.name, t.rows, len(t.cols))
	if t.src.Format != "" {
		s += " (" + t.src.Format
		if t.src.Format == "npy" {
			order := "C order"
			if t.src.Fortran {
				order = "Fortran order"
			}
			s += ", " + t.src.DType + ", " + order
		}
		s += ")"
	}
	switch {
	case missing == 1:
		s += ", 1 missing value"
	case missing > 1:
		s += fmt.Sprintf(", %d missing values", missing)
	}
	return s
}

// HTML is a bounded preview for the notebook: the size line, the
// columns with their types, and the first and last rows.
func (t *Table) HTML() string {
	var sb strings.Builder
	sb.WriteString(`<div class="gobayes-table"><p>` + html.EscapeString(t.dims()) + "</p>\n<table>\n<thead><tr><th></th>")
	for _, c := range t.cols {
		sb.WriteString("<th>" + html.EscapeString(c.name) + "</th>")
	}
	sb.WriteString("</tr>\n<tr><th></th>")
	for _, c := range t.cols {
		typ := c.kind.String()
		if c.kind == String {
			typ = fmt.Sprintf("string (%d labels)", len(c.labels))
		}
		sb.WriteString("<td><i>" + html.EscapeString(typ) + "</i></td>")
	}
	sb.WriteString("</tr></thead>\n<tbody>\n")
	for _, i := range t.previewRows() {
		if i < 0 {
			sb.WriteString("<tr><th>…</th>")
			for range t.cols {
				sb.WriteString("<td>…</td>")
			}
			sb.WriteString("</tr>\n")
			continue
		}
		fmt.Fprintf(&sb, "<tr><th>%d</th>", i)
		for _, c := range t.cols {
			sb.WriteString("<td>" + html.EscapeString(c.cell(i)) + "</td>")
		}
		sb.WriteString("</tr>\n")
	}
	sb.WriteString("</tbody>\n</table></div>")
	return sb.String()
}

// String is the same preview as text, in aligned columns.
func (t *Table) String() string {
	rows := [][]string{{""}, {""}}
	for _, c := range t.cols {
		rows[0] = append(rows[0], c.name)
		rows[1] = append(rows[1], c.kind.String())
	}
	for _, i := range t.previewRows() {
		r := []string{"…"}
		if i >= 0 {
			r[0] = fmt.Sprint(i)
		}
		for _, c := range t.cols {
			if i < 0 {
				r = append(r, "…")
			} else {
				r = append(r, c.cell(i))
			}
		}
		rows = append(rows, r)
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for j, s := range r {
			width[j] = max(width[j], len([]rune(s)))
		}
	}
	var sb strings.Builder
	sb.WriteString(t.dims())
	for _, r := range rows {
		sb.WriteString("\n")
		for j, s := range r {
			if j > 0 {
				sb.WriteString("  ")
			}
			sb.WriteString(strings.Repeat(" ", width[j]-len([]rune(s))) + s)
		}
	}
	return sb.String()
}
