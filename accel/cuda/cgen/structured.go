package cgen

import "github.com/gobayes/gobayes/accel/ir"

// logMatMulExp writes log(exp(A)·exp(B)) with ir's scratch of weights
// exp(A_il + B_lj - out_ij) at ((i·m)+j)·k + l, by the device functions
// translated from ir's logMatMulExp and its reverse.
func (pr *prog) logMatMulExp(in *ir.Instr, reverse bool) error {
	bs := pr.p.Values[in.In[1]].Shape
	k, m := bs[0], bs[1]
	n := pr.n(in.In[0]) / k
	A, B, W := pr.v(in.In[0]), pr.v(in.In[1]), pr.v(in.Scratch)
	if !reverse {
		pr.w("\tgb_log_mat_mul_exp(%s, %s, %s, %s, %d, %d, %d);\n", A, B, pr.v(in.Out), W, n, k, m)
		return nil
	}
	ga, gb := pr.a(in.In[0]), pr.a(in.In[1])
	if ga == "" {
		ga = "0"
	}
	if gb == "" {
		gb = "0"
	}
	pr.w("\tgb_log_mat_mul_exp_reverse(%s, %s, %s, %s, %d, %d, %d);\n", pr.a(in.Out), W, ga, gb, n, k, m)
	return nil
}

// categorical writes categorical_logit_lpmf(y, logits): logits [K] shared
// or [N×K] one row per event, by the device functions translated from
// ir's categoricalLogitLPMF and its reverse.
func (pr *prog) categorical(in *ir.Instr, reverse bool) error {
	y, lg := in.In[0], in.In[1]
	sh := pr.p.Values[lg].Shape
	k := sh[len(sh)-1]
	rows := 1
	if len(sh) == 2 {
		rows = sh[0]
	}
	n := max(pr.n(y), rows)
	rs := 0
	if rows > 1 {
		rs = k
	}
	Y, L := pr.v(y), pr.v(lg)
	pw := isPointwise(in)
	if !reverse {
		out := pr.v(in.Out)
		if pw {
			pr.w("\tgb_categorical_logit_lpmf(%s, %d, %s, %d, %d, %d, %s, 1);\n", Y, pr.st(y), L, n, k, rs, out)
		} else {
			pr.w("\t%s[0] = gb_categorical_logit_lpmf(%s, %d, %s, %d, %d, %d, %s, 0);\n", out, Y, pr.st(y), L, n, k, rs, out)
		}
		return nil
	}
	adj := pr.a(lg)
	if adj == "" {
		return nil
	}
	gs := 0
	if pw {
		gs = 1
	}
	pr.w("\tgb_categorical_logit_reverse(%s, %d, %s, %d, %d, %d, %s, %d, %s);\n", Y, pr.st(y), L, n, k, rs, pr.a(in.Out), gs, adj)
	return nil
}
