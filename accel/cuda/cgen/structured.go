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
// or [N×K] one row per event.
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
		// Shared logits: one log-sum-exp; else one per event's row.
		shared, perRow := "gb_lse_plain("+L+", "+itoa(k)+")", ""
		if rs != 0 {
			shared, perRow = "0", "lse = gb_lse_plain(row, "+itoa(k)+");"
		}
		pr.w("\t{ double t = 0, lse = %s; for (long long i = 0; i < %d; i++) {\n", shared, n)
		pr.w("\t\tconst double *row = %s + i*%d; double e = -GB_INF; long long c = gb_category(%s[%s], %d);\n", L, rs, Y, idx(pr.st(y)), k)
		pr.w("\t\tif (c >= 0) { %s e = row[c] - lse; }\n", perRow)
		pr.w("\t\tif (e != e) e = -GB_INF;\n")
		if pw {
			pr.w("\t\t%s[i] = e;\n", out)
		}
		pr.w("\t\tt += e; }\n")
		if !pw {
			pr.w("\t%s[0] = t;\n", out)
		}
		pr.w("\t(void)lse; }\n")
		return nil
	}
	adj := pr.a(lg)
	if adj == "" {
		return nil
	}
	g := pr.a(in.Out) + "[0]"
	if pw {
		g = pr.a(in.Out) + "[i]"
	}
	if rs == 0 {
		pr.w("\t{ double lse = gb_lse_plain(%s, %d); if (!(gb_isinf(lse) || lse != lse)) { double gsum = 0;\n", L, k)
		pr.w("\t\tfor (long long i = 0; i < %d; i++) { long long c = gb_category(%s[%s], %d); if (c >= 0) { double gi = %s; %s[c] += gi; gsum += gi; } }\n", n, Y, idx(pr.st(y)), k, g, adj)
		pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[j] -= gsum * exp(%s[j] - lse); } }\n", k, adj, L)
		return nil
	}
	pr.w("\tfor (long long i = 0; i < %d; i++) { long long c = gb_category(%s[%s], %d); if (c < 0) continue;\n", n, Y, idx(pr.st(y)), k)
	pr.w("\t\tconst double *row = %s + i*%d; double *ar = %s + i*%d, lse = gb_lse_plain(row, %d); if (gb_isinf(lse) || lse != lse) continue;\n", L, k, adj, k, k)
	pr.w("\t\tdouble gi = %s; ar[c] += gi; for (long long j = 0; j < %d; j++) ar[j] -= gi * exp(row[j] - lse); }\n", g, k)
	return nil
}
