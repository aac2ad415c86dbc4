package cgen

import (
	"fmt"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
)

// lpdfForward writes an elementwise log density: one device call per
// element, NaN from infinite inputs mapped to -Inf, summed or pointwise.
func (pr *prog) lpdfForward(in *ir.Instr, name string) error {
	out, pw := pr.v(in.Out), isPointwise(in)
	n := pr.batch(in)
	if in.Op == ir.OpNormalLPDF && pr.n(in.In[2]) == 1 && !pw {
		// One σ for all, through ir's shortcut (lpdf_normal_sum.go).
		y, mu := in.In[0], in.In[1]
		pr.w("\t%s[0] = gb_normal_sum_shared(%s, %s, %d, %d, %d, %s[0]);\n", out, pr.v(y), pr.v(mu), n, pr.st(y), pr.st(mu), pr.v(in.In[2]))
		return nil
	}
	pr.w("\t{ double t = 0; for (long long i = 0; i < %d; i++) {\n", n)
	pr.w("\t\tdouble e = gb_%s_lpdf(%s);\n\t\tif (e != e) e = -GB_INF;\n", name, pr.args(in))
	if pw {
		pr.w("\t\t%s[i] = e;\n", out)
	}
	pr.w("\t\tt += e; }\n")
	if !pw {
		pr.w("\t%s[0] = t;\n", out)
	}
	pr.w("\t}\n")
	return nil
}

// batch is the number of elements of an elementwise log density.
func (pr *prog) batch(in *ir.Instr) int {
	n := 1
	for _, a := range in.In {
		if l := pr.n(a); l != 1 {
			n = l
		}
	}
	return n
}

// args are the element reads of every input, "X[i]" or "X[0]".
func (pr *prog) args(in *ir.Instr) string {
	s := make([]string, len(in.In))
	for k, a := range in.In {
		s[k] = pr.v(a) + "[" + idx(pr.st(a)) + "]"
	}
	return strings.Join(s, ", ")
}

func (pr *prog) lpdfBackward(in *ir.Instr, name string) error {
	pw := isPointwise(in)
	n := pr.batch(in)
	g := pr.a(in.Out) + "[0]"
	if pw {
		g = pr.a(in.Out) + "[i]"
	}
	if in.Op == ir.OpNormalLPDF && pr.n(in.In[2]) == 1 && !pw {
		return pr.normalSharedBackward(in, n)
	}
	pr.lpdfGradLoop(in, name, g, fmt.Sprintf("for (long long i = 0; i < %d; i++)", n), "\t%[2]s[0] += t%[1]d;\n")
	return nil
}

// lpdfGradLoop emits the reverse sweep of a fused log density: loop heads a
// loop over the elements; each element calls the device gradient, adds the
// partials of elementwise inputs in place and sums those of broadcast
// (stride-0) inputs in t<k>; flush, a format of (k, adjoint), writes each
// sum after the loop (serially, or through a block reduction).
func (pr *prog) lpdfGradLoop(in *ir.Instr, name, g, loop, flush string) {
	pr.w("\t{\n")
	for k, a := range in.In {
		if pr.a(a) != "" && pr.st(a) == 0 {
			pr.w("\tdouble t%d = 0;\n", k)
		}
	}
	pr.w("\t%s {\n", loop)
	ds := make([]string, len(in.In))
	for k := range in.In {
		ds[k] = fmt.Sprintf("&d%d", k)
		pr.w("\t\tdouble d%d;\n", k)
	}
	pr.w("\t\tgb_%s_grad(%s, %s, %s);\n", name, pr.args(in), g, strings.Join(ds, ", "))
	for k, a := range in.In {
		d := pr.a(a)
		switch {
		case d == "":
			pr.w("\t\t(void)d%d;\n", k)
		case pr.st(a) == 0:
			pr.w("\t\tt%d += d%d;\n", k, k)
		default:
			pr.w("\t\t%s[i] += d%d;\n", d, k)
		}
	}
	pr.w("\t}\n")
	for k, a := range in.In {
		if d := pr.a(a); d != "" && pr.st(a) == 0 {
			pr.w(flush, k, d)
		}
	}
	pr.w("\t}\n")
}

// normalSharedBackward is the reverse of the summed normal density with
// one σ, through ir's shortcut (lpdf_normal_sum.go).
func (pr *prog) normalSharedBackward(in *ir.Instr, n int) error {
	y, mu, sg := in.In[0], in.In[1], in.In[2]
	pr.w("\tgb_normal_sum_shared_reverse(%s, %s, %d, %d, %d, %s[0], %s[0], %s, %s, %s);\n", pr.v(y), pr.v(mu), n, pr.st(y), pr.st(mu), pr.v(sg), pr.a(in.Out),
		pr.adjLen(y), pr.adjLen(mu), pr.adjLen(sg))
	return nil
}

// eventRows is the number of events of an [N×K] argument and its row
// stride (0 for one shared [K] row).
func (pr *prog) eventRows(id ir.ID) (rows, stride int) {
	sh := pr.p.Values[id].Shape
	if len(sh) == 2 && sh[0] != 1 {
		return sh[0], sh[1]
	}
	return 1, 0
}

// eventLPDF writes the forward call of a multivariate density whose
// device function (args: the arguments before out) returns the sum of its
// terms and writes each into out when pointwise.
func (pr *prog) eventLPDF(in *ir.Instr, fn, args string) {
	out := pr.v(in.Out)
	if isPointwise(in) {
		pr.w("\t%s(%s, %s, 1);\n", fn, args, out)
		return
	}
	pr.w("\t%s[0] = %s(%s, %s, 0);\n", out, fn, args, out)
}

// adjOr is the adjoint of id and 1, or "0" and 0 when it has none: an
// adjoint argument of a translated reverse and its flag.
func (pr *prog) adjOr(id ir.ID) (string, int) {
	if d := pr.a(id); d != "" {
		return d, 1
	}
	return "0", 0
}

// outAdj is the adjoint of in's output and its stride (1 pointwise).
func (pr *prog) outAdj(in *ir.Instr) (string, int) {
	if isPointwise(in) {
		return pr.a(in.Out), 1
	}
	return pr.a(in.Out), 0
}

// dirichlet writes dirichlet_lpdf(y, alpha) over events of K values, by
// the device functions translated from ir's dirichletLPDF and its
// reverse.
func (pr *prog) dirichlet(in *ir.Instr, reverse bool) error {
	y, al := in.In[0], in.In[1]
	sh := pr.p.Values[y].Shape
	k := sh[len(sh)-1]
	ny, yrs := pr.eventRows(y)
	na, ars := pr.eventRows(al)
	args := fmt.Sprintf("%s, %d, %s, %d, %d, %d", pr.v(y), yrs, pr.v(al), ars, max(ny, na), k)
	if !reverse {
		pr.eventLPDF(in, "gb_dirichlet_lpdf", args)
		return nil
	}
	g, gs := pr.outAdj(in)
	ay, gy := pr.adjOr(y)
	aa, ga := pr.adjOr(al)
	pr.w("\tgb_dirichlet_reverse(%s, %s, %d, %s, %s, %d, %d);\n", args, g, gs, ay, aa, gy, ga)
	return nil
}

// multiNormal writes multi_normal_cholesky_lpdf(y, mu, L) by the device
// functions translated from ir's multiNormalCholLPDF and its reverse; the
// scratch holds z and w (2K slots).
func (pr *prog) multiNormal(in *ir.Instr, reverse bool) error {
	y, mu, l := in.In[0], in.In[1], in.In[2]
	k := pr.p.Values[l].Shape[0]
	ny, yrs := pr.eventRows(y)
	nm, mrs := pr.eventRows(mu)
	args := fmt.Sprintf("%s, %d, %s, %d, %s, %d, %d", pr.v(y), yrs, pr.v(mu), mrs, pr.v(l), max(ny, nm), k)
	if !reverse {
		pr.eventLPDF(in, "gb_multi_normal_chol_lpdf", args+", "+pr.v(in.Scratch))
		return nil
	}
	g, gs := pr.outAdj(in)
	ay, gy := pr.adjOr(y)
	am, gm := pr.adjOr(mu)
	al, gl := pr.adjOr(l)
	pr.w("\tgb_multi_normal_chol_reverse(%s, %s, %d, %s, %s, %s, %s, %d, %d, %d);\n", args, g, gs, pr.v(in.Scratch), ay, am, al, gy, gm, gl)
	return nil
}
