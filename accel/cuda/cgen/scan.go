package cgen

import (
	"fmt"

	"github.com/gobayes/gobayes/accel/ir"
)

// at is the C pointer to a body value inside the step frame at base (or
// in the body's constant array).
func (bp *prog) at(id ir.ID, base string) string {
	v := &bp.p.Values[id]
	if v.Kind == ir.Const {
		return fmt.Sprintf("(KB%d+%d)", bp.id, v.Off)
	}
	return fmt.Sprintf("(%s+%d)", base, v.Off)
}

// scanForward runs the body T times over its step frames in the scratch
// (ir's layout: T step frames, one adjoint frame, the carried adjoints),
// copying carries, sequence rows and statics in and the emitted value out.
func (pr *prog) scanForward(in *ir.Instr) error {
	t, c, s := in.Ints[0], in.Ints[1], in.Ints[2]
	bp := pr.body[in.Body]
	body := in.Body
	n := body.Size
	ev := body.Outputs[c].ID
	e := body.Values[ev].Len
	pr.w("\t{ double *w = %s; for (long long k = 0; k < %d; k++) { double *step = w + k*%d;\n", pr.v(in.Scratch), t, n)
	for i, a := range in.In {
		dv := body.Inputs[i]
		l := body.Values[dv].Len
		dst := bp.at(dv, "step")
		switch {
		case i < c:
			prev := bp.at(body.Outputs[i].ID, "(w + (k-1)*"+fmt.Sprint(n)+")")
			pr.w("\t\tif (k == 0) for (long long j = 0; j < %d; j++) %s[j] = %s[j];\n", l, dst, pr.v(a))
			pr.w("\t\telse for (long long j = 0; j < %d; j++) %s[j] = %s[j];\n", l, dst, prev)
		case i < c+s:
			pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[j] = %s[k*%d+j];\n", l, dst, pr.v(a), l)
		default:
			pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[j] = %s[j];\n", l, dst, pr.v(a))
		}
	}
	pr.w("\t\tgb_fwd_%d(step, K);\n", bp.id)
	pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[k*%d+j] = %s[j];\n\t} }\n", e, pr.v(in.Out), e, bp.at(ev, "step"))
	return nil
}

// scanBackward walks the steps backwards through the body's reverse
// sweep, carrying the carries' adjoints from step to step.
func (pr *prog) scanBackward(in *ir.Instr) error {
	t, c, s := in.Ints[0], in.Ints[1], in.Ints[2]
	bp := pr.body[in.Body]
	body := in.Body
	n := body.Size
	ev := body.Values[body.Outputs[c].ID]
	carry := 0
	for _, id := range body.Inputs[:c] {
		carry += body.Values[id].Len
	}
	pr.w("\t{ double *w = %s, *ab = w + %d, *ca = w + %d;\n", pr.v(in.Scratch), t*n, (t+1)*n)
	pr.w("\tfor (long long j = 0; j < %d; j++) ca[j] = 0;\n", carry)
	pr.w("\tfor (long long k = %d; k >= 0; k--) { double *step = w + k*%d;\n", t-1, n)
	pr.w("\t\tfor (long long j = 0; j < %d; j++) ab[j] = 0;\n", n)
	off := 0
	for i := range c {
		ov := body.Values[body.Outputs[i].ID]
		pr.w("\t\tfor (long long j = 0; j < %d; j++) ab[%d+j] += ca[%d+j];\n", ov.Len, ov.Off, off)
		off += ov.Len
	}
	pr.w("\t\tfor (long long j = 0; j < %d; j++) ab[%d+j] += %s[k*%d+j];\n", ev.Len, ev.Off, pr.a(in.Out), ev.Len)
	pr.w("\t\tgb_bwd_%d(step, ab, K);\n", bp.id)
	off = 0
	for i, a := range in.In {
		dv := body.Values[body.Inputs[i]]
		switch {
		case i < c:
			pr.w("\t\tfor (long long j = 0; j < %d; j++) ca[%d+j] = ab[%d+j];\n", dv.Len, off, dv.Off)
			off += dv.Len
		case pr.a(a) == "":
		case i < c+s:
			pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[k*%d+j] += ab[%d+j];\n", dv.Len, pr.a(a), dv.Len, dv.Off)
		default:
			pr.w("\t\tfor (long long j = 0; j < %d; j++) %s[j] += ab[%d+j];\n", dv.Len, pr.a(a), dv.Off)
		}
	}
	pr.w("\t}\n")
	off = 0
	for _, a := range in.In[:c] {
		l := pr.n(a)
		if d := pr.a(a); d != "" {
			pr.w("\tfor (long long j = 0; j < %d; j++) %s[j] += ca[%d+j];\n", l, d, off)
		}
		off += l
	}
	pr.w("\t}\n")
	return nil
}
