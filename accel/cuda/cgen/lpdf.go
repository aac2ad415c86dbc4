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
		// One σ for all, as ir computes it: -½ Σ(y-μ)²/σ² - n(log σ + log √(2π)).
		y, mu := in.In[0], in.In[1]
		pr.w("\t{ double s = %s[0]; if (!(s > 0)) %s[0] = -GB_INF; else {\n", pr.v(in.In[2]), out)
		pr.w("\t\tdouble q = 0; for (long long i = 0; i < %d; i++) { double d = %s[%s] - %s[%s]; q += d * d; }\n",
			n, pr.v(y), idx(pr.st(y)), pr.v(mu), idx(pr.st(mu)))
		pr.w("\t\tdouble inv = 1 / s, e = -0.5 * (q * inv) * inv - %d.0 * (log(s) + GB_LN_SQRT_2PI);\n", n)
		pr.w("\t\tif (e != e) e = -GB_INF; %s[0] = e; } }\n", out)
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

// normalSharedBackward mirrors ir's reverse of the summed normal density
// with one σ: ∂y_i = -g(y_i-μ_i)/σ², ∂μ_i = -∂y_i, ∂σ = g(Σ(y-μ)²/σ² - n)/σ.
func (pr *prog) normalSharedBackward(in *ir.Instr, n int) error {
	y, mu, sg := in.In[0], in.In[1], in.In[2]
	pr.w("\t{ double s = %s[0], g = %s[0]; if (s > 0) {\n", pr.v(sg), pr.a(in.Out))
	pr.w("\t\tdouble inv = 1 / s, r = g * inv, q = 0, ty = 0, tm = 0;\n")
	pr.w("\t\tfor (long long i = 0; i < %d; i++) { double d = %s[%s] - %s[%s]; q += d * d;", n, pr.v(y), idx(pr.st(y)), pr.v(mu), idx(pr.st(mu)))
	for _, c := range []struct {
		id   ir.ID
		sign string
		acc  string
	}{{y, "-", "ty"}, {mu, "", "tm"}} {
		d := pr.a(c.id)
		switch {
		case d == "":
		case pr.st(c.id) == 0:
			pr.w(" %s += %sr * (d * inv);", c.acc, c.sign)
		default:
			pr.w(" %s[i] += %sr * (d * inv);", d, c.sign)
		}
	}
	pr.w(" }\n")
	for _, c := range []struct {
		id  ir.ID
		acc string
	}{{y, "ty"}, {mu, "tm"}} {
		if d := pr.a(c.id); d != "" && pr.st(c.id) == 0 {
			pr.w("\t\t%s[0] += %s;\n", d, c.acc)
		}
	}
	if d := pr.a(sg); d != "" {
		pr.w("\t\t%s[0] += g * inv * ((q * inv) * inv - %d.0);\n", d, n)
	}
	pr.w("\t\t(void)ty; (void)tm; } }\n")
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

// dirichlet writes dirichlet_lpdf(y, alpha) over events of K values.
func (pr *prog) dirichlet(in *ir.Instr, reverse bool) error {
	y, al := in.In[0], in.In[1]
	sh := pr.p.Values[y].Shape
	k := sh[len(sh)-1]
	ny, yrs := pr.eventRows(y)
	na, ars := pr.eventRows(al)
	n := max(ny, na)
	pw := isPointwise(in)
	Y, AL := pr.v(y), pr.v(al)
	if !reverse {
		out := pr.v(in.Out)
		pr.w("\t{ double t = 0; for (long long i = 0; i < %d; i++) {\n", n)
		pr.w("\t\tconst double *yr = %s + i*%d, *ar = %s + i*%d; double e = gb_dirichlet_const(ar, %d);\n", Y, yrs, AL, ars, k)
		pr.w("\t\tfor (long long j = 0; j < %d; j++) { if (!(yr[j] > 0 && yr[j] <= 1)) { e = -GB_INF; break; } e += (ar[j] - 1) * log(yr[j]); }\n", k)
		pr.w("\t\tif (e != e) e = -GB_INF;\n")
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
	g := pr.a(in.Out) + "[0]"
	if pw {
		g = pr.a(in.Out) + "[i]"
	}
	ay, aa := pr.a(y), pr.a(al)
	pr.w("\t{ double gsum = 0; for (long long i = 0; i < %d; i++) {\n", n)
	pr.w("\t\tconst double *yr = %s + i*%d, *ar = %s + i*%d;\n", Y, yrs, AL, ars)
	pr.w("\t\tif (!gb_dirichlet_inside(yr, %d, ar)) continue;\n\t\tdouble gi = %s; gsum += gi;\n", k, g)
	if ay != "" {
		pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[i*%d+j] += gi * (ar[j] - 1) / yr[j];\n", k, ay, yrs)
	}
	if aa != "" {
		pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[i*%d+j] += gi * log(yr[j]);\n", k, aa, ars)
		if ars != 0 {
			pr.w("\t\tgb_dirichlet_add_psi(%s + i*%d, ar, %d, gi);\n", aa, ars, k)
		}
	}
	pr.w("\t}\n")
	if aa != "" && ars == 0 {
		pr.w("\tif (gsum != 0) gb_dirichlet_add_psi(%s, %s, %d, gsum);\n", aa, AL, k)
	}
	pr.w("\t(void)gsum; }\n")
	return nil
}

// multiNormal writes multi_normal_cholesky_lpdf(y, mu, L); the scratch
// holds z and w (2K slots).
func (pr *prog) multiNormal(in *ir.Instr, reverse bool) error {
	y, mu, l := in.In[0], in.In[1], in.In[2]
	k := pr.p.Values[l].Shape[0]
	ny, yrs := pr.eventRows(y)
	nm, mrs := pr.eventRows(mu)
	n := max(ny, nm)
	pw := isPointwise(in)
	Y, M, L, S := pr.v(y), pr.v(mu), pr.v(l), pr.v(in.Scratch)
	pr.w("\t{ double *z = %s, *w = %s + %d, ld = gb_chol_log_det(%s, %d); int ok = ld == ld;\n", S, S, k, L, k)
	if !reverse {
		out := pr.v(in.Out)
		pr.w("\tdouble c = -%d.0 * GB_LN_SQRT_2PI - ld, t = 0;\n", k)
		pr.w("\tfor (long long i = 0; i < %d; i++) { double e = -GB_INF;\n", n)
		pr.w("\t\tif (ok) { for (long long j = 0; j < %d; j++) z[j] = %s[i*%d+j] - %s[i*%d+j];\n", k, Y, yrs, M, mrs)
		pr.w("\t\t\tgb_forward_subst(%s, %d, z, z); double q = 0; for (long long j = 0; j < %d; j++) q += z[j] * z[j]; e = c - 0.5 * q; }\n", L, k, k)
		pr.w("\t\tif (e != e) e = -GB_INF;\n")
		if pw {
			pr.w("\t\t%s[i] = e;\n", out)
		}
		pr.w("\t\tt += e; }\n")
		if !pw {
			pr.w("\t%s[0] = t;\n", out)
		}
		pr.w("\t(void)w; }\n")
		return nil
	}
	g := pr.a(in.Out) + "[0]"
	if pw {
		g = pr.a(in.Out) + "[i]"
	}
	pr.w("\tif (ok) { double gsum = 0; for (long long i = 0; i < %d; i++) { double gi = %s; gsum += gi;\n", n, g)
	pr.w("\t\tfor (long long j = 0; j < %d; j++) z[j] = %s[i*%d+j] - %s[i*%d+j];\n", k, Y, yrs, M, mrs)
	pr.w("\t\tgb_forward_subst(%s, %d, z, z); gb_back_subst(%s, %d, z, w);\n", L, k, L, k)
	if d := pr.a(y); d != "" {
		pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[i*%d+j] -= gi * w[j];\n", k, d, yrs)
	}
	if d := pr.a(mu); d != "" {
		pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[i*%d+j] += gi * w[j];\n", k, d, mrs)
	}
	dl := pr.a(l)
	if dl != "" {
		pr.w("\t\tfor (long long j = 0; j < %d; j++) { double gw = gi * w[j]; for (long long m = 0; m <= j; m++) %s[j*%d+m] += gw * z[m]; }\n", k, dl, k)
	}
	pr.w("\t}\n")
	if dl != "" {
		pr.w("\tfor (long long j = 0; j < %d; j++) %s[j*%d+j] -= gsum / %s[j*%d+j];\n", k, dl, k, L, k)
	}
	pr.w("\t(void)gsum; } }\n")
	return nil
}
