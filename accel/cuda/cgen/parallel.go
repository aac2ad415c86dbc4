package cgen

import (
	"fmt"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
)

// The data-parallel sweeps: gb_pfwd_<id> and gb_pbwd_<id> run one chain's
// top-level program on a block of lanes (threads). Elementwise ops, the
// elementwise log densities, sums, dots and matrix–vector products split
// their elements among the lanes (lane i takes i, i+lanes, …, so that
// neighbouring lanes read neighbouring addresses) and reduce partial sums
// with gb_block_sum; every other op runs on lane 0. A barrier (GB_SYNC)
// follows every instruction. Scan bodies run sequentially on lane 0.

// parallelOp reports whether op has a lane-parallel form.
func parallelOp(op ir.Op) bool {
	if _, ok := unaryOps[op]; ok {
		return true
	}
	if _, ok := binaryOps[op]; ok {
		return true
	}
	if _, ok := generatedLPDFs[op]; ok {
		return true
	}
	switch op {
	case ir.OpSum, ir.OpDot, ir.OpMatVec:
		return true
	}
	return false
}

// parallel writes the data-parallel sweeps of the top-level program.
func (pr *prog) parallel() error {
	p := pr.p
	var fwd, bwd strings.Builder
	fmt.Fprintf(&fwd, "\n__device__ static void gb_pfwd_%d(double *V, const double *K, long long lane, long long lanes, double *red) {\n", pr.id)
	fmt.Fprintf(&bwd, "\n__device__ static void gb_pbwd_%d(double *V, double *A, const double *K, long long lane, long long lanes, double *red) {\n", pr.id)
	for i := range p.Instrs {
		in := &p.Instrs[i]
		pr.sb = &fwd
		fmt.Fprintf(&fwd, "\t/* %s */\n", in.Op)
		var err error
		if parallelOp(in.Op) {
			err = pr.forwardPar(in)
		} else {
			fwd.WriteString("\tif (lane == 0) {\n")
			err = pr.forward(in)
			fwd.WriteString("\t}\n")
		}
		if err != nil {
			return err
		}
		fwd.WriteString("\tGB_SYNC();\n")
	}
	for i := len(p.Instrs) - 1; i >= 0; i-- {
		in := &p.Instrs[i]
		if !p.Values[in.Out].Grad {
			continue
		}
		pr.sb = &bwd
		fmt.Fprintf(&bwd, "\t/* %s reverse */\n", in.Op)
		var err error
		if parallelOp(in.Op) {
			err = pr.backwardPar(in)
		} else {
			bwd.WriteString("\tif (lane == 0) {\n")
			err = pr.backward(in)
			bwd.WriteString("\t}\n")
		}
		if err != nil {
			return err
		}
		bwd.WriteString("\tGB_SYNC();\n")
	}
	fwd.WriteString("\t(void)V; (void)K; (void)lane; (void)lanes; (void)red;\n}\n")
	bwd.WriteString("\t(void)V; (void)A; (void)K; (void)lane; (void)lanes; (void)red;\n}\n")
	pr.g.out.WriteString(fwd.String())
	pr.g.out.WriteString(bwd.String())
	return nil
}

// ploop is the header of a loop over n elements split among the lanes.
func ploop(n int) string {
	return fmt.Sprintf("for (long long i = lane; i < %d; i += lanes)", n)
}

// accumulatePar is accumulate for a block of lanes: a broadcast
// destination gets the block's total from lane 0.
func (pr *prog) accumulatePar(dst string, s, n int, expr string) {
	if dst == "" {
		return
	}
	if s == 0 {
		pr.w("\t{ double t = 0; %s t += %s; t = gb_block_sum(t, red, lane, lanes); if (lane == 0) %s[0] += t; }\n", ploop(n), expr, dst)
		return
	}
	pr.w("\t%s %s[i] += %s;\n", ploop(n), dst, expr)
}

func (pr *prog) forwardPar(in *ir.Instr) error {
	out := pr.v(in.Out)
	n := pr.n(in.Out)
	if t, ok := unaryOps[in.Op]; ok {
		pr.w("\t%s %s[i] = %s;\n", ploop(n), out, subst(t[0], "X", pr.v(in.In[0])+"[i]"))
		return nil
	}
	if t, ok := binaryOps[in.Op]; ok {
		a, b := in.In[0], in.In[1]
		pr.w("\t%s %s[i] = %s;\n", ploop(n), out,
			subst(t[0], "A", pr.v(a)+"["+idx(pr.st(a))+"]", "B", pr.v(b)+"["+idx(pr.st(b))+"]"))
		return nil
	}
	if name, ok := generatedLPDFs[in.Op]; ok {
		pw := isPointwise(in)
		nb := pr.batch(in)
		if in.Op == ir.OpNormalLPDF && pr.n(in.In[2]) == 1 && !pw {
			y, mu := in.In[0], in.In[1]
			pr.w("\t{ double s = %s[0], q = 0;\n", pr.v(in.In[2]))
			pr.w("\t%s { double d = %s[%s] - %s[%s]; q += d * d; }\n", ploop(nb), pr.v(y), idx(pr.st(y)), pr.v(mu), idx(pr.st(mu)))
			pr.w("\tq = gb_block_sum(q, red, lane, lanes);\n")
			pr.w("\tdouble inv = 1 / s, e = -0.5 * (q * inv) * inv - %d.0 * (log(s) + GB_LN_SQRT_2PI);\n", nb)
			pr.w("\tif (!(s > 0) || e != e) e = -GB_INF;\n\tif (lane == 0) %s[0] = e; }\n", out)
			return nil
		}
		pr.w("\t{ double t = 0; %s { double e = gb_%s_lpdf(%s); if (e != e) e = -GB_INF;", ploop(nb), name, pr.args(in))
		if pw {
			pr.w(" %s[i] = e;", out)
		}
		pr.w(" t += e; }\n")
		if !pw {
			pr.w("\tt = gb_block_sum(t, red, lane, lanes); if (lane == 0) %s[0] = t;\n", out)
		}
		pr.w("\t(void)t; }\n")
		return nil
	}
	switch in.Op {
	case ir.OpSum:
		pr.w("\t{ double s = 0; %s s += %s[i]; s = gb_block_sum(s, red, lane, lanes); if (lane == 0) %s[0] = s; }\n", ploop(pr.n(in.In[0])), pr.v(in.In[0]), out)
	case ir.OpDot:
		pr.w("\t{ double s = 0; %s s += %s[i] * %s[i]; s = gb_block_sum(s, red, lane, lanes); if (lane == 0) %s[0] = s; }\n",
			ploop(pr.n(in.In[0])), pr.v(in.In[0]), pr.v(in.In[1]), out)
	case ir.OpMatVec:
		k := pr.n(in.In[1])
		pr.w("\t%s %s[i] = gb_dot(%s + i*%d, %d, %s);\n", ploop(n), out, pr.v(in.In[0]), k, k, pr.v(in.In[1]))
	default:
		return fmt.Errorf("cgen: no parallel form of %s", in.Op)
	}
	return nil
}

func (pr *prog) backwardPar(in *ir.Instr) error {
	g := pr.a(in.Out)
	n := pr.n(in.Out)
	if t, ok := unaryOps[in.Op]; ok {
		pr.accumulatePar(pr.a(in.In[0]), 1, n, subst(t[1], "G", g+"[i]", "X", pr.v(in.In[0])+"[i]", "Y", pr.v(in.Out)+"[i]"))
		return nil
	}
	if t, ok := binaryOps[in.Op]; ok {
		a, b := in.In[0], in.In[1]
		kv := []string{"G", g + "[i]", "A", pr.v(a) + "[" + idx(pr.st(a)) + "]", "B", pr.v(b) + "[" + idx(pr.st(b)) + "]", "Y", pr.v(in.Out) + "[i]"}
		pr.accumulatePar(pr.a(a), pr.st(a), n, subst(t[1], kv...))
		pr.accumulatePar(pr.a(b), pr.st(b), n, subst(t[2], kv...))
		return nil
	}
	if name, ok := generatedLPDFs[in.Op]; ok {
		return pr.lpdfBackwardPar(in, name)
	}
	switch in.Op {
	case ir.OpSum:
		pr.accumulatePar(pr.a(in.In[0]), 1, pr.n(in.In[0]), g+"[0]")
	case ir.OpDot:
		a, b := in.In[0], in.In[1]
		pr.accumulatePar(pr.a(a), 1, pr.n(a), g+"[0] * "+pr.v(b)+"[i]")
		pr.accumulatePar(pr.a(b), 1, pr.n(b), g+"[0] * "+pr.v(a)+"[i]")
	case ir.OpMatVec:
		k := pr.n(in.In[1])
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\t%s gb_axpy(%s + i*%d, %s[i], %s, %d);\n", ploop(n), d, k, g, pr.v(in.In[1]), k)
		}
		if d := pr.a(in.In[1]); d != "" {
			pr.w("\tfor (long long l = 0; l < %d; l++) { double s = 0; %s s += %s[i*%d+l] * %s[i]; s = gb_block_sum(s, red, lane, lanes); if (lane == 0) %s[l] += s; }\n",
				k, ploop(n), pr.v(in.In[0]), k, g, d)
		}
	default:
		return fmt.Errorf("cgen: no parallel form of %s reverse", in.Op)
	}
	return nil
}

func (pr *prog) lpdfBackwardPar(in *ir.Instr, name string) error {
	pw := isPointwise(in)
	n := pr.batch(in)
	g := pr.a(in.Out) + "[0]"
	if pw {
		g = pr.a(in.Out) + "[i]"
	}
	if in.Op == ir.OpNormalLPDF && pr.n(in.In[2]) == 1 && !pw {
		y, mu, sg := in.In[0], in.In[1], in.In[2]
		pr.w("\t{ double s = %s[0], g = %s[0]; if (s > 0) {\n", pr.v(sg), pr.a(in.Out))
		pr.w("\t\tdouble inv = 1 / s, r = g * inv, q = 0, ty = 0, tm = 0;\n")
		pr.w("\t\t%s { double d = %s[%s] - %s[%s]; q += d * d;", ploop(n), pr.v(y), idx(pr.st(y)), pr.v(mu), idx(pr.st(mu)))
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
				pr.w("\t\t%s = gb_block_sum(%s, red, lane, lanes); if (lane == 0) %s[0] += %s;\n", c.acc, c.acc, d, c.acc)
			}
		}
		if d := pr.a(sg); d != "" {
			pr.w("\t\tq = gb_block_sum(q, red, lane, lanes); if (lane == 0) %s[0] += g * inv * ((q * inv) * inv - %d.0);\n", d, n)
		}
		pr.w("\t\t(void)ty; (void)tm; } }\n")
		return nil
	}
	pr.lpdfGradLoop(in, name, g, ploop(n), "\tt%[1]d = gb_block_sum(t%[1]d, red, lane, lanes); if (lane == 0) %[2]s[0] += t%[1]d;\n")
	return nil
}
