package interp

import (
	"fmt"
	"html"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gobayes/gobayes/display"
)

// maxMatrixCells bounds the HTML table of a matrix; larger ones show
// their corners.
const maxMatrixCells = 12

// renderMatrix gives gonum matrices, which have no String method, the
// layout gonum's mat.Formatted prints and an HTML table.
func renderMatrix(m mat.Matrix, b *display.Bundle) {
	r, c := m.Dims()
	b.Data[display.MIMEText] = fmt.Sprintf("%T %d×%d\n%v", m, r, c, mat.Formatted(m, mat.Squeeze(), mat.Excerpt(maxMatrixCells/2)))
	b.Data[display.MIMEHTML] = matrixHTML(m, r, c)
}

// matrixHTML is a table of the matrix; rows and columns beyond
// maxMatrixCells are elided in the middle.
func matrixHTML(m mat.Matrix, r, c int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "<div><small>%s %d×%d</small><table>", html.EscapeString(fmt.Sprintf("%T", m)), r, c)
	for _, i := range shownIndices(r) {
		sb.WriteString("<tr>")
		for _, j := range shownIndices(c) {
			switch {
			case i < 0 || j < 0:
				sb.WriteString("<td>…</td>")
			default:
				fmt.Fprintf(&sb, "<td style=\"text-align:right\">%.6g</td>", m.At(i, j))
			}
		}
		sb.WriteString("</tr>")
	}
	sb.WriteString("</table></div>")
	return sb.String()
}

// shownIndices lists the indices of a dimension to show, with -1 where
// the middle is elided.
func shownIndices(n int) []int {
	var out []int
	if n <= maxMatrixCells {
		for i := 0; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	for i := 0; i < maxMatrixCells/2; i++ {
		out = append(out, i)
	}
	out = append(out, -1)
	for i := n - maxMatrixCells/2; i < n; i++ {
		out = append(out, i)
	}
	return out
}
