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
		pr.w("\tgb_log_mix(%s, %s, %s, %s, %s, %d, %d, %d, %d);\n", pr.v(t), pr.v(a), pr.v(b), pr.v(in.Scratch), out, n, pr.st(t), pr.st(a), pr.st(b))
	case ir.OpSum, ir.OpLowerLogJ, ir.OpUpperLogJ:
		pr.w("\t%s[0] = gb_sum(%s);\n", out, pr.vl(in.In[0]))
	case ir.OpDot:
		pr.w("\t%s[0] = gb_dot(%s, %s);\n", out, pr.vl(in.In[0]), pr.v(in.In[1]))
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
	case ir.OpGather, ir.OpGatherRow:
		pr.w("\tgb_gather_rows(%s, %s, %s, %d);\n", pr.v(in.In[0]), pr.table(in), out, pr.rowLen(in))
	case ir.OpConcat:
		off := 0
		for _, a := range in.In {
			pr.w("\tgb_copy(%s + %d, %d, %s);\n", out, off, pr.n(a), pr.vl(a))
			off += pr.n(a)
		}
	case ir.OpSlice:
		pr.w("\tgb_copy(%s, %d, %s + %d, %d);\n", out, n, pr.v(in.In[0]), in.Ints[0], n)
	case ir.OpFill:
		pr.w("\tgb_fill(%s, %d, %s[0]);\n", out, n, pr.v(in.In[0]))
	case ir.OpMatVec:
		pr.w("\tgb_matvec(%s, %s, %s, %d);\n", pr.v(in.In[0]), pr.vl(in.In[1]), out, n)
	case ir.OpCholesky:
		m := pr.p.Values[in.Out].Shape[0]
		pr.w("\tif (gb_cholesky(%s, %s, %d, 0.0) >= 0) gb_fill(%s, %d, GB_NAN);\n", pr.v(in.In[0]), out, m, out, n)
	case ir.OpCovExpQuad:
		m := pr.p.Values[in.In[0]].Shape[0]
		d := pr.n(in.In[0]) / m
		pr.w("\tgb_cov_exp_quad(%s, %s[0], %s[0], %s, %d, %d);\n", pr.v(in.In[0]), pr.v(in.In[1]), pr.v(in.In[2]), out, m, d)
	case ir.OpAddDiag:
		pr.w("\tgb_add_diag(%s, %s, %s, %d, %d);\n", pr.vl(in.In[0]), pr.v(in.In[1]), out, pr.p.Values[in.Out].Shape[0], pr.st(in.In[1]))
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
		pr.w("\tgb_matmul(%s, %s, %s, %d, %d);\n", pr.v(in.In[0]), pr.vl(in.In[1]), out, sa[0], sa[1])
	case ir.OpTriSolve:
		nn := pr.p.Values[in.In[0]].Shape[0]
		m := pr.n(in.In[1]) / nn
		pr.w("\tgb_tri_solve(%s, %s, %s, %d, %d);\n", pr.v(in.In[0]), pr.v(in.In[1]), out, nn, m)
	case ir.OpMulLowerTTr:
		pr.w("\tgb_mul_lower_self_transpose(%s, %s, %d);\n", pr.v(in.In[0]), out, pr.p.Values[in.Out].Shape[0])
	case ir.OpLowerFwd, ir.OpUpperFwd:
		b := in.In[1]
		pr.w("\tgb_bound_fwd(%s, %s, %s, %s, %d, %d, %s);\n", pr.v(in.In[0]), pr.v(b), pr.v(in.Scratch), out, n, pr.st(b), boundSign(in.Op))
	case ir.OpOrderedLogJ, ir.OpPosOrderedLogJ:
		pr.w("\t%s[0] = gb_ordered_logj(%s, %d, %d);\n", out, pr.v(in.In[0]), pr.n(in.In[0]), positive(in.Op))
	case ir.OpIntervalFwd:
		lb, ub := in.In[1], in.In[2]
		pr.w("\tgb_interval_forward(%s, %s, %s, %s, %d, %d, %d);\n", pr.v(in.In[0]), pr.v(lb), pr.v(ub), out, n, pr.st(lb), pr.st(ub))
	case ir.OpIntervalLogJ:
		lb, ub := in.In[1], in.In[2]
		pr.w("\t%s[0] = gb_interval_logj(%s, %s, %s, %d, %d);\n", out, pr.vl(in.In[0]), pr.v(lb), pr.v(ub), pr.st(lb), pr.st(ub))
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
		pr.w("\tgb_log_mix_reverse(%s, %s, %s, %s, %s, %d, %s, %s, %s, %s, %d, %d, %d);\n", pr.v(t), pr.v(a), pr.v(b), pr.v(in.Scratch), pr.v(in.Out), n, g,
			pr.adjLen(t), pr.adjLen(a), pr.adjLen(b), pr.st(t), pr.st(a), pr.st(b))
	case ir.OpSum, ir.OpLowerLogJ, ir.OpUpperLogJ:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_add_scalar(%s, %d, %s[0]);\n", d, pr.n(in.In[0]), g)
		}
	case ir.OpOrderedLogJ, ir.OpPosOrderedLogJ:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_ordered_logj_reverse(%s[0], %s, %d, %d);\n", g, d, pr.n(in.In[0]), positive(in.Op))
		}
	case ir.OpDot:
		a, b := in.In[0], in.In[1]
		if d := pr.a(a); d != "" {
			pr.w("\tgb_axpy(%s, %s[0], %s);\n", d, g, pr.vl(b))
		}
		if d := pr.a(b); d != "" {
			pr.w("\tgb_axpy(%s, %s[0], %s);\n", d, g, pr.vl(a))
		}
	case ir.OpLogSumExp:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_logsumexp_reverse(%s[0], %s[0], %s, %s);\n", pr.v(in.Out), g, pr.vl(in.Scratch), d)
		}
	case ir.OpAddN:
		for _, a := range in.In {
			if d := pr.a(a); d != "" {
				pr.w("\t%s[0] += %s[0];\n", d, g)
			}
		}
	case ir.OpGather, ir.OpGatherRow:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_gather_rows_reverse(%s, %s, %s, %d);\n", g, pr.table(in), d, pr.rowLen(in))
		}
	case ir.OpConcat:
		off := 0
		for _, a := range in.In {
			if d := pr.a(a); d != "" {
				pr.w("\tgb_add_strided(%s, %d, %s + %d, %d, 1);\n", d, pr.n(a), g, off, pr.n(a))
			}
			off += pr.n(a)
		}
	case ir.OpSlice:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_add_strided(%s + %d, %d, %s, %d, 1);\n", d, in.Ints[0], n, g, n)
		}
	case ir.OpFill:
		if d := pr.a(in.In[0]); d != "" {
			pr.w("\tgb_add_strided(%s, 1, %s, %d, 0);\n", d, g, n)
		}
	case ir.OpMatVec:
		pr.w("\tgb_matvec_reverse(%s, %s, %s, %d, %s, %s);\n", pr.v(in.In[0]), pr.vl(in.In[1]), g, n, pr.adjLen(in.In[0]), pr.adjLen(in.In[1]))
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
		pr.w("\tgb_add_diag_reverse(%s, %d, %s, %s, %d, %d);\n", g, n, pr.adjLen(in.In[0]), pr.adjLen(in.In[1]), pr.p.Values[in.Out].Shape[0], pr.st(in.In[1]))
	case ir.OpScan:
		return pr.scanBackward(in)
	case ir.OpLogMatMulExp:
		return pr.logMatMulExp(in, true)
	case ir.OpCholCorrFwd:
		pr.w("\tgb_cholcorr_reverse(%s, %d, %s, %s, %s, 0, 1.0);\n", pr.v(in.In[0]), pr.n(in.In[0]), g, pr.a(in.In[0]), pr.v(in.Scratch))
	case ir.OpCholCorrLogJ:
		x := in.In[0]
		pr.w("\tgb_cholcorr_logj_reverse(%s, %s, %s, %s[0]);\n", pr.vl(x), pr.a(x), pr.v(in.Scratch), g)
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
		pr.w("\t{ double c = gb_linear_recurrence_reverse(%s[0], %s, %d, %s, %s, %d, %d, %s, %s);",
			pr.v(x0), pr.v(in.Out), n, g, pr.v(b), pr.st(b), pr.st(a), pr.adjLen(a), pr.adjLen(b))
		if d := pr.a(x0); d != "" {
			pr.w(" %s[0] += c;", d)
		}
		pr.w(" (void)c; }\n")
	case ir.OpMatMul:
		sa := pr.p.Values[in.In[0]].Shape
		pr.w("\tgb_matmul_reverse(%s, %s, %s, %s, %s, %d, %d);\n", pr.v(in.In[0]), pr.vl(in.In[1]), g, pr.adjLen(in.In[0]), pr.adjLen(in.In[1]), sa[0], sa[1])
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
		b := in.In[1]
		pr.w("\tgb_bound_reverse(%s, %s, %d, %s, %s, %d, %s);\n", pr.v(in.Scratch), g, n, pr.adjLen(in.In[0]), pr.adjLen(b), pr.st(b), boundSign(in.Op))
	case ir.OpIntervalFwd:
		x, lb, ub := in.In[0], in.In[1], in.In[2]
		pr.w("\tgb_interval_reverse(%s, %s, %s, %s, %d, %s, %s, %s, %d, %d);\n", pr.v(x), pr.v(lb), pr.v(ub), g, n,
			pr.adjLen(x), pr.adjLen(lb), pr.adjLen(ub), pr.st(lb), pr.st(ub))
	case ir.OpIntervalLogJ:
		x, lb, ub := in.In[0], in.In[1], in.In[2]
		pr.w("\tgb_interval_logj_reverse(%s, %s, %s, %s[0], %s, %s, %s, %d, %d);\n", pr.vl(x), pr.v(lb), pr.v(ub), g,
			pr.adjLen(x), pr.adjLen(lb), pr.adjLen(ub), pr.st(lb), pr.st(ub))
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

// vl is value id's pointer and length, as a translated function takes a
// slice whose length it reads.
func (pr *prog) vl(id ir.ID) string { return fmt.Sprintf("%s, %d", pr.v(id), pr.n(id)) }

// adjLen is value id's adjoint and its length, or "0, 0" (an empty slice:
// no gradient wanted).
func (pr *prog) adjLen(id ir.ID) string {
	if d := pr.a(id); d != "" {
		return fmt.Sprintf("%s, %d", d, pr.n(id))
	}
	return "0, 0"
}

// table is a gather's index table and its length; rowLen the length of a
// gathered row (1 for gather).
func (pr *prog) table(in *ir.Instr) string {
	return fmt.Sprintf("TB%d_%d, %d", pr.id, in.Table, len(pr.p.Tables[in.Table]))
}

func (pr *prog) rowLen(in *ir.Instr) int {
	if in.Op == ir.OpGatherRow {
		return pr.p.Values[in.In[0]].Shape[1]
	}
	return 1
}

// boundSign is the sign argument of gb_bound_fwd and its reverse.
func boundSign(op ir.Op) string {
	if op == ir.OpUpperFwd {
		return "-1.0"
	}
	return "1.0"
}
