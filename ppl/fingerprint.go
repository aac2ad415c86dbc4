package ppl

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"

	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// A posterior carries its model's fingerprint (posterior.Fingerprint): a
// hash of what the model is — every variable's name, family, parameters,
// bounds and observed data, the deterministic quantities and the terms.
// PosteriorPredictive and LogLik refuse a posterior whose fingerprint is
// another one: another model whose columns happen to have the same names
// (the same model over other data, or with another prior), or this model
// before a cell redefined it (its draws are of the model as it was). The
// values of data containers are left out, as they are what SetData and
// WithData change for prediction; their names are in. OtherModel lets a
// call take such a posterior all the same.

// fingerprint is the model's fingerprint as it is now.
func (m *Model) fingerprint() string {
	if m.print != "" && m.printAt == m.version {
		return m.print
	}
	f := printer{h: sha256.New(), seen: map[*graph.Node]int{}}
	g := &m.g
	f.int(len(g.RVs))
	for _, r := range g.RVs {
		f.rv(r)
	}
	f.int(len(g.Dets))
	for _, d := range g.Dets {
		f.str(d.Det)
		f.node(d.Args[0])
	}
	f.int(len(g.Terms))
	for _, t := range g.Terms {
		f.str(t.Name)
		f.node(t.Value)
	}
	m.print, m.printAt = hex.EncodeToString(f.h.Sum(nil)[:12]), m.version
	return m.print
}

// printer writes a model into a hash; seen numbers the nodes written, so
// a shared node is written once and referred to after.
type printer struct {
	h    hash.Hash
	seen map[*graph.Node]int
	buf  [8]byte
}

func (f *printer) int(i int) {
	binary.LittleEndian.PutUint64(f.buf[:], uint64(int64(i)))
	f.h.Write(f.buf[:])
}

func (f *printer) float(x float64) {
	binary.LittleEndian.PutUint64(f.buf[:], math.Float64bits(x))
	f.h.Write(f.buf[:])
}

func (f *printer) str(s string) {
	f.int(len(s))
	f.h.Write([]byte(s))
}

// floats writes xs as float would one by one, 512 values a Write: a
// model's data can be 10⁸ values, and hashing them runs once per version
// of the model.
func (f *printer) floats(xs []float64) {
	f.int(len(xs))
	var chunk [512 * 8]byte
	for len(xs) > 0 {
		n := min(len(xs), 512)
		for i, x := range xs[:n] {
			binary.LittleEndian.PutUint64(chunk[8*i:], math.Float64bits(x))
		}
		f.h.Write(chunk[:8*n])
		xs = xs[n:]
	}
}

func (f *printer) ints(xs []int) {
	f.int(len(xs))
	for _, x := range xs {
		f.int(x)
	}
}

func (f *printer) rv(r *graph.RV) {
	f.str(r.Name)
	if r.Fam != nil {
		f.str(r.Fam.Name)
	}
	f.nodes(r.Params)
	if r.Mix != nil {
		f.str("mixture")
		f.node(r.Mix.Weights)
		for _, c := range r.Mix.Comps {
			f.str(c.Fam.Name)
			f.nodes(c.Params)
		}
	}
	f.node(r.Lower)
	f.node(r.Upper)
	f.int(int(r.Order))
	if r.Truncated {
		f.str("truncated")
	}
	if r.Censor != nil {
		f.str("censored")
		f.floats(r.Censor.Lower)
		f.floats(r.Censor.Upper)
	}
	switch {
	case r.Observed && r.DataOf != nil:
		f.str("observed: " + r.DataOf.Container)
	case r.Observed:
		f.str("observed")
		f.floats(r.Data)
		f.ints(r.Value.Dims)
	default:
		// A parameter's shape is its columns'.
		f.ints(r.Value.Dims)
	}
}

func (f *printer) nodes(ns []*graph.Node) {
	f.int(len(ns))
	for _, n := range ns {
		f.node(n)
	}
}

// node writes what n computes. Shapes are written for data only: an
// expression's shape follows from its arguments', and those over a data
// container change with SetData.
func (f *printer) node(n *graph.Node) {
	if n == nil {
		f.int(-1)
		return
	}
	if i, ok := f.seen[n]; ok {
		f.int(-2)
		f.int(i)
		return
	}
	f.seen[n] = len(f.seen)
	f.int(int(n.Kind))
	switch {
	case n.Kind == graph.KRV:
		f.str(n.RV.Name)
		return
	case n.Container != "":
		f.str("data " + n.Container)
		return
	case n.Kind == graph.KConst:
		f.floats(n.Data)
		f.ints(n.Dims)
		return
	}
	f.int(int(n.Op))
	f.str(n.Fn)
	f.str(n.Det)
	f.ints(n.Ints)
	if n.TableOf != nil {
		f.str("indices " + n.TableOf.Container) // a container's: SetData may swap them
	} else {
		f.ints(n.Table)
	}
	f.int(n.Input)
	if n.Kind == graph.KReshape && n.Fn == "Reshape" {
		f.ints(n.Dims)
	}
	f.nodes(n.Args)
	if s := n.Scan; s != nil {
		f.int(s.Steps)
		f.int(s.NCarry)
		f.int(s.NSeq)
		f.nodes(s.CarryPh)
		f.nodes(s.SeqPh)
		f.nodes(s.Next)
		f.node(s.Emit)
		f.nodes(s.Statics)
	}
}

// fromModel reports whether a posterior of fingerprint fp was drawn from
// this model: as it is, or as it was before SetData gave it new data
// (observed data that new rows left without values included).
func (m *Model) fromModel(fp string) bool {
	f := m.fingerprint()
	for range len(m.newData) + 1 {
		if f == fp {
			return true
		}
		var ok bool
		if f, ok = m.newData[f]; !ok {
			return false
		}
	}
	return false
}
