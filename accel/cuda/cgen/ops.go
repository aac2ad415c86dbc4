package cgen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
)

// unaryOps and binaryOps, the C templates of the elementwise ops, are
// generated from accel/opdef (elementwise_gen.go).

var otherOps = []ir.Op{
	ir.OpLogMix, ir.OpSum, ir.OpDot, ir.OpLogSumExp, ir.OpAddN,
	ir.OpGather, ir.OpGatherRow, ir.OpConcat, ir.OpSlice, ir.OpFill,
	ir.OpMatVec, ir.OpCholesky, ir.OpCovExpQuad, ir.OpAddDiag,
	ir.OpLogMatMulExp, ir.OpCategoricalLogitLPMF,
	ir.OpCholCorrFwd, ir.OpCholCorrLogJ, ir.OpLKJCorrCholLPDF,
	ir.OpScan, ir.OpLinearRecurrence, ir.OpMatMul, ir.OpTriSolve, ir.OpMulLowerTTr,
	ir.OpLowerFwd, ir.OpLowerLogJ, ir.OpUpperFwd, ir.OpUpperLogJ,
	ir.OpIntervalFwd, ir.OpIntervalLogJ, ir.OpOrderedFwd, ir.OpOrderedLogJ,
	ir.OpPosOrderedFwd, ir.OpPosOrderedLogJ, ir.OpSimplexFwd, ir.OpSimplexLogJ,
	ir.OpDirichletLPDF, ir.OpMultiNormalCholLPDF,
}

func supported(op ir.Op) bool {
	if _, ok := unaryOps[op]; ok {
		return true
	}
	if _, ok := binaryOps[op]; ok {
		return true
	}
	if _, ok := generatedLPDFs[op]; ok {
		return true
	}
	for _, o := range otherOps {
		if o == op {
			return true
		}
	}
	return false
}

// Supported lists the names of the ops the generator covers.
func Supported() []string {
	var s []string
	for op := ir.Op(1); op < ir.NumOps; op++ {
		if supported(op) {
			s = append(s, op.String())
		}
	}
	sort.Strings(s)
	return s
}

// Unsupported lists the ops of p (scan bodies included) that the
// generator does not cover, nil when it covers them all.
func Unsupported(p *ir.Program) []string {
	seen := map[string]bool{}
	var walk func(p *ir.Program)
	walk = func(p *ir.Program) {
		for i := range p.Instrs {
			in := &p.Instrs[i]
			if !supported(in.Op) {
				seen[in.Op.String()] = true
			}
			if in.Body != nil {
				walk(in.Body)
			}
		}
	}
	walk(p)
	var s []string
	for k := range seen {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// positive is 1 for the positive-ordered transform's ops, 0 for the
// ordered one's: the pos argument of the gb_ordered functions.
func positive(op ir.Op) int {
	if op == ir.OpPosOrderedFwd || op == ir.OpPosOrderedLogJ {
		return 1
	}
	return 0
}

func subst(tmpl string, kv ...string) string {
	return strings.NewReplacer(kv...).Replace(tmpl)
}

// forward writes the forward code of one instruction.
func (pr *prog) forward(in *ir.Instr) error {
	out := pr.v(in.Out)
	n := pr.n(in.Out)
	if t, ok := unaryOps[in.Op]; ok {
		x := pr.v(in.In[0])
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] = %s;\n", n, out, subst(t[0], "X", x+"[i]"))
		return nil
	}
	if t, ok := binaryOps[in.Op]; ok {
		a, b := in.In[0], in.In[1]
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] = %s;\n", n, out,
			subst(t[0], "A", pr.v(a)+"["+idx(pr.st(a))+"]", "B", pr.v(b)+"["+idx(pr.st(b))+"]"))
		return nil
	}
	if name, ok := generatedLPDFs[in.Op]; ok {
		return pr.lpdfForward(in, name)
	}
	switch in.Op {
	case ir.OpLogMix:
		t, a, b := in.In[0], in.In[1], in.In[2]
		pr.w("\tfor (long long i = 0; i < %d; i++) {\n", n)
		pr.w("\t\tdouble ti = %s[%s], ai = %s[%s], bi = %s[%s], *e = %s + i, *y = %s + i;\n",
			pr.v(t), idx(pr.st(t)), pr.v(a), idx(pr.st(a)), pr.v(b), idx(pr.st(b)), pr.v(in.Scratch), out)
		pr.w("\t\tif (ai == -GB_INF && bi == -GB_INF) { *e = 0; *y = -GB_INF; }\n")
		pr.w("\t\telse if (ai >= bi) { *e = exp(bi - ai); *y = ai + log(ti + (1 - ti) * *e); }\n")
		pr.w("\t\telse { *e = exp(ai - bi); *y = bi + log(ti * *e + 1 - ti); }\n\t}\n")
	case ir.OpSum:
		pr.w("\t{ double s = 0; for (long long i = 0; i < %d; i++) s += %s[i]; %s[0] = s; }\n", pr.n(in.In[0]), pr.v(in.In[0]), out)
	case ir.OpDot:
		pr.w("\t{ double s = 0; for (long long i = 0; i < %d; i++) s += %s[i] * %s[i]; %s[0] = s; }\n",
			pr.n(in.In[0]), pr.v(in.In[0]), pr.v(in.In[1]), out)
	case ir.OpLogSumExp:
		pr.w("\t%s[0] = gb_logsumexp(%s, %d, %s);\n", out, pr.v(in.In[0]), pr.n(in.In[0]), pr.v(in.Scratch))
	case ir.OpAddN:
		terms := make([]string, len(in.In))
		for i, a := range in.In {
			terms[i] = pr.v(a) + "[0]"
		}
		pr.w("\t{ double s = 0; ")
		for _, t := range terms {
			pr.w("s += %s; ", t)
		}
		pr.w("%s[0] = s; }\n", out)
	case ir.OpGather:
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] = %s[TB%d_%d[i]];\n", n, out, pr.v(in.In[0]), pr.id, in.Table)
	case ir.OpGatherRow:
		k := pr.p.Values[in.In[0]].Shape[1]
		pr.w("\tfor (long long i = 0; i < %d; i++) for (long long j = 0; j < %d; j++) %s[i*%d+j] = %s[TB%d_%d[i]*%d+j];\n",
			n/max(k, 1), k, out, k, pr.v(in.In[0]), pr.id, in.Table, k)
	case ir.OpConcat:
		off := 0
		for _, a := range in.In {
			pr.w("\tfor (long long i = 0; i < %d; i++) %s[%d+i] = %s[i];\n", pr.n(a), out, off, pr.v(a))
			off += pr.n(a)
		}
	case ir.OpSlice:
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] = %s[%d+i];\n", n, out, pr.v(in.In[0]), in.Ints[0])
	case ir.OpFill:
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] = %s[0];\n", n, out, pr.v(in.In[0]))
	case ir.OpMatVec:
		k := pr.n(in.In[1])
		pr.w("\tfor (long long i = 0; i < %d; i++) { double s = 0; for (long long l = 0; l < %d; l++) s += %s[i*%d+l] * %s[l]; %s[i] = s; }\n",
			n, k, pr.v(in.In[0]), k, pr.v(in.In[1]), out)
	case ir.OpCholesky:
		m := pr.p.Values[in.Out].Shape[0]
		pr.w("\tif (gb_cholesky(%s, %s, %d, 0.0) >= 0) for (long long i = 0; i < %d; i++) %s[i] = GB_NAN;\n", pr.v(in.In[0]), out, m, n, out)
	case ir.OpCovExpQuad:
		m := pr.p.Values[in.In[0]].Shape[0]
		d := pr.n(in.In[0]) / m
		pr.w("\tgb_cov_exp_quad(%s, %s[0], %s[0], %s, %d, %d);\n", pr.v(in.In[0]), pr.v(in.In[1]), pr.v(in.In[2]), out, m, d)
	case ir.OpAddDiag:
		m := pr.p.Values[in.Out].Shape[0]
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] = %s[i];\n", n, out, pr.v(in.In[0]))
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i*%d+i] += %s[%s];\n", m, out, m, pr.v(in.In[1]), idx(pr.st(in.In[1])))
	case ir.OpScan:
		return pr.scanForward(in)
	case ir.OpLogMatMulExp:
		return pr.logMatMulExp(in, false)
	case ir.OpCholCorrFwd:
		pr.w("\tgb_cholcorr_fwd(%s, %d, %s);\n", pr.v(in.In[0]), pr.n(in.In[0]), out)
	case ir.OpCholCorrLogJ:
		pr.w("\t%s[0] = gb_cholcorr_logj(%s, %d);\n", out, pr.v(in.In[0]), pr.n(in.In[0]))
	case ir.OpLKJCorrCholLPDF:
		k := pr.p.Values[in.In[0]].Shape[0]
		pr.w("\t%s[0] = gb_lkj_lpdf(%s, %s[0], %d);\n", out, pr.v(in.In[0]), pr.v(in.In[1]), k)
	case ir.OpCategoricalLogitLPMF:
		return pr.categorical(in, false)
	case ir.OpLinearRecurrence:
		a, b := in.In[1], in.In[2]
		pr.w("\tgb_linear_recurrence(%s[0], %s, %d, %s, %d, %s, %d);\n", pr.v(in.In[0]), pr.v(a), pr.st(a), pr.v(b), pr.st(b), out, n)
	case ir.OpMatMul:
		sa := pr.p.Values[in.In[0]].Shape
		rows, k := sa[0], sa[1]
		m := pr.n(in.In[1]) / k
		pr.w("\tfor (long long i = 0; i < %d; i++) for (long long j = 0; j < %d; j++) { double s = 0; for (long long l = 0; l < %d; l++) s += %s[i*%d+l] * %s[l*%d+j]; %s[i*%d+j] = s; }\n",
			rows, m, k, pr.v(in.In[0]), k, pr.v(in.In[1]), m, out, m)
	case ir.OpTriSolve:
		nn := pr.p.Values[in.In[0]].Shape[0]
		m := pr.n(in.In[1]) / nn
		pr.w("\tgb_tri_solve(%s, %s, %s, %d, %d);\n", pr.v(in.In[0]), pr.v(in.In[1]), out, nn, m)
	case ir.OpMulLowerTTr:
		pr.w("\tgb_mul_lower_self_transpose(%s, %s, %d);\n", pr.v(in.In[0]), out, pr.p.Values[in.Out].Shape[0])
	case ir.OpLowerFwd, ir.OpUpperFwd:
		sign := "+"
		if in.Op == ir.OpUpperFwd {
			sign = "-"
		}
		b := in.In[1]
		pr.w("\tfor (long long i = 0; i < %d; i++) { double e = exp(%s[i]); %s[i] = e; %s[i] = %s[%s] %s e; }\n",
			n, pr.v(in.In[0]), pr.v(in.Scratch), out, pr.v(b), idx(pr.st(b)), sign)
	case ir.OpLowerLogJ, ir.OpUpperLogJ:
		pr.w("\t{ double s = 0; for (long long i = 0; i < %d; i++) s += %s[i]; %s[0] = s; }\n", pr.n(in.In[0]), pr.v(in.In[0]), out)
	case ir.OpOrderedLogJ, ir.OpPosOrderedLogJ:
		pr.w("\t%s[0] = gb_ordered_logj(%s, %d, %d);\n", out, pr.v(in.In[0]), pr.n(in.In[0]), positive(in.Op))
	case ir.OpIntervalFwd:
		lb, ub := in.In[1], in.In[2]
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] = gb_interval_fwd(%s[i], %s[%s], %s[%s]);\n",
			n, out, pr.v(in.In[0]), pr.v(lb), idx(pr.st(lb)), pr.v(ub), idx(pr.st(ub)))
	case ir.OpIntervalLogJ:
		lb, ub := in.In[1], in.In[2]
		pr.w("\t{ double s = 0; for (long long i = 0; i < %d; i++) s += log(%s[%s] - %s[%s]) + gb_logistic_logj(%s[i]); %s[0] = s; }\n",
			pr.n(in.In[0]), pr.v(ub), idx(pr.st(ub)), pr.v(lb), idx(pr.st(lb)), pr.v(in.In[0]), out)
	case ir.OpOrderedFwd, ir.OpPosOrderedFwd:
		pr.w("\tgb_ordered_fwd(%s, %s, %d, %d);\n", pr.v(in.In[0]), out, n, positive(in.Op))
	case ir.OpSimplexFwd:
		km1 := pr.n(in.In[0])
		pr.w("\tgb_simplex_fwd(%s, %d, %s);\n", pr.v(in.In[0]), km1, out)
	case ir.OpSimplexLogJ:
		km1 := pr.n(in.In[0])
		pr.w("\t%s[0] = gb_simplex_logj(%s, %d);\n", out, pr.v(in.In[0]), km1)
	case ir.OpDirichletLPDF:
		return pr.dirichlet(in, false)
	case ir.OpMultiNormalCholLPDF:
		return pr.multiNormal(in, false)
	default:
		return fmt.Errorf("%w: %s", ErrUnsupported, in.Op)
	}
	return nil
}

// backward writes the reverse code of one instruction.
func (pr *prog) backward(in *ir.Instr) error {
	g := pr.a(in.Out)
	n := pr.n(in.Out)
	if t, ok := unaryOps[in.Op]; ok {
		pr.accumulate(pr.a(in.In[0]), 1, n, subst(t[1], "G", g+"[i]", "X", pr.v(in.In[0])+"[i]", "Y", pr.v(in.Out)+"[i]"))
		return nil
	}
	if t, ok := binaryOps[in.Op]; ok {
		a, b := in.In[0], in.In[1]
		kv := []string{"G", g + "[i]", "A", pr.v(a) + "[" + idx(pr.st(a)) + "]", "B", pr.v(b) + "[" + idx(pr.st(b)) + "]", "Y", pr.v(in.Out) + "[i]"}
		pr.accumulate(pr.a(a), pr.st(a), n, subst(t[1], kv...))
		pr.accumulate(pr.a(b), pr.st(b), n, subst(t[2], kv...))
		return nil
	}
	if name, ok := generatedLPDFs[in.Op]; ok {
		return pr.lpdfBackward(in, name)
	}
	switch in.Op {
	case ir.OpLogMix:
		t, a, b := in.In[0], in.In[1], in.In[2]
		pr.w("\tfor (long long i = 0; i < %d; i++) {\n", n)
		pr.w("\t\tdouble y = %s[i], e = %s[i], gi = %s[i], ti = %s[%s], ea, eb;\n", pr.v(in.Out), pr.v(in.Scratch), g, pr.v(t), idx(pr.st(t)))
		pr.w("\t\tif (y == -GB_INF || gi == 0) continue;\n")
		pr.w("\t\tif (%s[%s] >= %s[%s]) { double d = ti + (1 - ti) * e; ea = 1 / d; eb = e / d; }\n", pr.v(a), idx(pr.st(a)), pr.v(b), idx(pr.st(b)))
		pr.w("\t\telse { double d = ti * e + 1 - ti; ea = e / d; eb = 1 / d; }\n")
		if d := pr.a(t); d != "" {
			pr.w("\t\t%s[%s] += gi * (ea - eb);\n", d, idx(pr.st(t)))
		}
		if d := pr.a(a); d != "" {
			pr.w("\t\t%s[%s] += gi * ti * ea;\n", d, idx(pr.st(a)))
		}
		if d := pr.a(b); d != "" {
			pr.w("\t\t%s[%s] += gi * (1 - ti) * eb;\n", d, idx(pr.st(b)))
		}
		pr.w("\t}\n")
	case ir.OpSum, ir.OpLowerLogJ, ir.OpUpperLogJ:
		pr.accumulate(pr.a(in.In[0]), 1, pr.n(in.In[0]), g+"[0]")
	case ir.OpOrderedLogJ, ir.OpPosOrderedLogJ:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_ordered_logj_reverse(%s[0], %s, %d, %d);\n", g, d, pr.n(in.In[0]), positive(in.Op))
		}
	case ir.OpDot:
		a, b := in.In[0], in.In[1]
		pr.accumulate(pr.a(a), 1, pr.n(a), g+"[0] * "+pr.v(b)+"[i]")
		pr.accumulate(pr.a(b), 1, pr.n(b), g+"[0] * "+pr.v(a)+"[i]")
	case ir.OpLogSumExp:
		pr.w("\t{ double y = %s[0], gy = %s[0]; if (!(y == GB_INF || y == -GB_INF || y != y)) {\n", pr.v(in.Out), g)
		pr.w("\t\tdouble s = 0; for (long long i = 0; i < %d; i++) s += %s[i];\n", pr.n(in.In[0]), pr.v(in.Scratch))
		pr.w("\t\tdouble r = gy / s; for (long long i = 0; i < %d; i++) %s[i] += r * %s[i]; } }\n", pr.n(in.In[0]), pr.a(in.In[0]), pr.v(in.Scratch))
	case ir.OpAddN:
		for _, a := range in.In {
			if d := pr.a(a); d != "" {
				pr.w("\t%s[0] += %s[0];\n", d, g)
			}
		}
	case ir.OpGather:
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[TB%d_%d[i]] += %s[i];\n", n, pr.a(in.In[0]), pr.id, in.Table, g)
	case ir.OpGatherRow:
		k := pr.p.Values[in.In[0]].Shape[1]
		pr.w("\tfor (long long i = 0; i < %d; i++) for (long long j = 0; j < %d; j++) %s[TB%d_%d[i]*%d+j] += %s[i*%d+j];\n",
			n/max(k, 1), k, pr.a(in.In[0]), pr.id, in.Table, k, g, k)
	case ir.OpConcat:
		off := 0
		for _, a := range in.In {
			if d := pr.a(a); d != "" {
				pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] += %s[%d+i];\n", pr.n(a), d, g, off)
			}
			off += pr.n(a)
		}
	case ir.OpSlice:
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[%d+i] += %s[i];\n", n, pr.a(in.In[0]), in.Ints[0], g)
	case ir.OpFill:
		pr.accumulate(pr.a(in.In[0]), 0, n, g+"[i]")
	case ir.OpMatVec:
		k := pr.n(in.In[1])
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tfor (long long i = 0; i < %d; i++) for (long long l = 0; l < %d; l++) %s[i*%d+l] += %s[i] * %s[l];\n", n, k, d, k, g, pr.v(in.In[1]))
		}
		if d := pr.a(in.In[1]); d != "" {
			// Σ_i A_il g_i per l, accumulated in the order of ir's
			// column-wise data path.
			pr.w("\tfor (long long l = 0; l < %d; l++) { double s = 0; for (long long i = 0; i < %d; i++) s += %s[i*%d+l] * %s[i]; %s[l] += s; }\n",
				k, n, pr.v(in.In[0]), k, g, d)
		}
	case ir.OpCholesky:
		m := pr.p.Values[in.Out].Shape[0]
		pr.w("\tgb_cholesky_reverse(%s, %s, %s, %s, %d);\n", pr.v(in.Out), g, pr.a(in.In[0]), pr.v(in.Scratch), m)
	case ir.OpCovExpQuad:
		m := pr.p.Values[in.In[0]].Shape[0]
		d := pr.n(in.In[0]) / m
		gx := pr.a(in.In[0])
		if gx == "" {
			gx = "0"
		}
		pr.w("\t{ double da, dr; gb_cov_exp_quad_reverse(%s, %s, %s, %s, %s[0], %s[0], %d, %d, &da, &dr);\n",
			pr.v(in.In[0]), pr.v(in.Out), g, gx, pr.v(in.In[1]), pr.v(in.In[2]), m, d)
		if d := pr.a(in.In[1]); d != "" {
			pr.w("\t%s[0] += da;\n", d)
		}
		if d := pr.a(in.In[2]); d != "" {
			pr.w("\t%s[0] += dr;\n", d)
		}
		pr.w("\t(void)da; (void)dr; }\n")
	case ir.OpAddDiag:
		m := pr.p.Values[in.Out].Shape[0]
		pr.accumulate(pr.a(in.In[0]), 1, n, g+"[i]")
		if d := pr.a(in.In[1]); d != "" {
			pr.w("\tfor (long long i = 0; i < %d; i++) %s[%s] += %s[i*%d+i];\n", m, d, idx(pr.st(in.In[1])), g, m)
		}
	case ir.OpScan:
		return pr.scanBackward(in)
	case ir.OpLogMatMulExp:
		return pr.logMatMulExp(in, true)
	case ir.OpCholCorrFwd:
		pr.w("\tgb_cholcorr_reverse(%s, %d, %s, %s, %s, 0, 1.0);\n", pr.v(in.In[0]), pr.n(in.In[0]), g, pr.a(in.In[0]), pr.v(in.Scratch))
	case ir.OpCholCorrLogJ:
		x := in.In[0]
		pr.w("\tfor (long long i = 0; i < %d; i++) %s[i] -= 2 * %s[0] * tanh(%s[i]);\n", pr.n(x), pr.a(x), g, pr.v(x))
		pr.w("\tgb_cholcorr_reverse(%s, %d, 0, %s, %s, 1, %s[0]);\n", pr.v(x), pr.n(x), pr.a(x), pr.v(in.Scratch), g)
	case ir.OpLKJCorrCholLPDF:
		k := pr.p.Values[in.In[0]].Shape[0]
		gl := pr.a(in.In[0])
		if gl == "" {
			gl = "0"
		}
		deta := pr.a(in.In[1])
		want := 0
		if deta != "" {
			want = 1
		}
		pr.w("\t{ double deta = gb_lkj_reverse(%s, %s[0], %d, %s[0], %s, %d);", pr.v(in.In[0]), pr.v(in.In[1]), k, g, gl, want)
		if deta != "" {
			pr.w(" %s[0] += deta;", deta)
		}
		pr.w(" (void)deta; }\n")
	case ir.OpCategoricalLogitLPMF:
		return pr.categorical(in, true)
	case ir.OpLinearRecurrence:
		x0, a, b := in.In[0], in.In[1], in.In[2]
		ga, wa := pr.adjOr(a)
		gb, wb := pr.adjOr(b)
		// An adjoint's length is 0 when it is not wanted.
		pr.w("\t{ double c = gb_linear_recurrence_reverse(%s[0], %s, %d, %s, %s, %d, %d, %s, %d, %s, %d);",
			pr.v(x0), pr.v(in.Out), n, g, pr.v(b), pr.st(b), pr.st(a), ga, wa*pr.n(a), gb, wb*pr.n(b))
		if d := pr.a(x0); d != "" {
			pr.w(" %s[0] += c;", d)
		}
		pr.w(" (void)c; }\n")
	case ir.OpMatMul:
		sa := pr.p.Values[in.In[0]].Shape
		rows, k := sa[0], sa[1]
		m := pr.n(in.In[1]) / k
		A, B := pr.v(in.In[0]), pr.v(in.In[1])
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tfor (long long i = 0; i < %d; i++) for (long long l = 0; l < %d; l++) { double s = 0; for (long long j = 0; j < %d; j++) s += %s[i*%d+j] * %s[l*%d+j]; %s[i*%d+l] += s; }\n",
				rows, k, m, g, m, B, m, d, k)
		}
		if d := pr.a(in.In[1]); d != "" {
			pr.w("\tfor (long long i = 0; i < %d; i++) for (long long l = 0; l < %d; l++) for (long long j = 0; j < %d; j++) %s[l*%d+j] += %s[i*%d+l] * %s[i*%d+j];\n",
				rows, k, m, d, m, A, k, g, m)
		}
	case ir.OpTriSolve:
		nn := pr.p.Values[in.In[0]].Shape[0]
		m := pr.n(in.In[1]) / nn
		gb, gl := pr.a(in.In[1]), pr.a(in.In[0])
		if gb == "" {
			gb = "0"
		}
		if gl == "" {
			gl = "0"
		}
		pr.w("\tgb_tri_solve_reverse(%s, %s, %s, %s, %d, %s, %s, %d, %d);\n", pr.v(in.In[0]), pr.v(in.Out), g, pr.v(in.Scratch), nn*m, gb, gl, nn, m)
	case ir.OpMulLowerTTr:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_mul_lower_self_transpose_reverse(%s, %s, %s, %d);\n", pr.v(in.In[0]), g, d, pr.p.Values[in.Out].Shape[0])
		}
	case ir.OpLowerFwd, ir.OpUpperFwd:
		sign := ""
		if in.Op == ir.OpUpperFwd {
			sign = "-"
		}
		pr.accumulate(pr.a(in.In[0]), 1, n, sign+g+"[i] * "+pr.v(in.Scratch)+"[i]")
		pr.accumulate(pr.a(in.In[1]), pr.st(in.In[1]), n, g+"[i]")
	case ir.OpIntervalFwd:
		x, lb, ub := in.In[0], in.In[1], in.In[2]
		pr.w("\tfor (long long i = 0; i < %d; i++) { double s, sc, gi = %s[i]; gb_logistic_pair(%s[i], &s, &sc);", n, g, pr.v(x))
		if d := pr.a(x); d != "" {
			pr.w(" %s[i] += gi * (%s[%s] - %s[%s]) * s * sc;", d, pr.v(ub), idx(pr.st(ub)), pr.v(lb), idx(pr.st(lb)))
		}
		if d := pr.a(lb); d != "" {
			pr.w(" %s[%s] += gi * sc;", d, idx(pr.st(lb)))
		}
		if d := pr.a(ub); d != "" {
			pr.w(" %s[%s] += gi * s;", d, idx(pr.st(ub)))
		}
		pr.w(" }\n")
	case ir.OpIntervalLogJ:
		x, lb, ub := in.In[0], in.In[1], in.In[2]
		pr.w("\tfor (long long i = 0; i < %d; i++) { double gi = %s[0], d = gi / (%s[%s] - %s[%s]);", pr.n(x), g, pr.v(ub), idx(pr.st(ub)), pr.v(lb), idx(pr.st(lb)))
		if d := pr.a(x); d != "" {
			pr.w(" %s[i] += gi * (1 - 2 * gb_logistic(%s[i]));", d, pr.v(x))
		}
		if d := pr.a(lb); d != "" {
			pr.w(" %s[%s] -= d;", d, idx(pr.st(lb)))
		}
		if d := pr.a(ub); d != "" {
			pr.w(" %s[%s] += d;", d, idx(pr.st(ub)))
		}
		pr.w(" (void)d; }\n")
	case ir.OpOrderedFwd, ir.OpPosOrderedFwd:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_ordered_reverse(%s, %s, %d, %s, %d);\n", pr.v(in.In[0]), g, n, d, positive(in.Op))
		}
	case ir.OpSimplexFwd:
		km1 := pr.n(in.In[0])
		pr.w("\tgb_simplex_reverse(%s, %d, %s, %s, %s);\n", pr.v(in.In[0]), km1, pr.v(in.Out), g, pr.a(in.In[0]))
	case ir.OpSimplexLogJ:
		km1 := pr.n(in.In[0])
		pr.w("\tgb_simplex_logj_reverse(%s, %d, %s[0], %s);\n", pr.v(in.In[0]), km1, g, pr.a(in.In[0]))
	case ir.OpDirichletLPDF:
		return pr.dirichlet(in, true)
	case ir.OpMultiNormalCholLPDF:
		return pr.multiNormal(in, true)
	default:
		return fmt.Errorf("%w: %s", ErrUnsupported, in.Op)
	}
	return nil
}
