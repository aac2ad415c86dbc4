package infer_test

import (
	"context"
	"fmt"

	"github.com/gobayes/gobayes/ppl/infer"
)

// normal2 is a hand-written model: x ~ Normal(3, 2), recording x.
type normal2 struct{}

func (normal2) Name() string              { return "normal" }
func (normal2) Dim() int                  { return 1 }
func (normal2) Vars() []infer.Var         { return []infer.Var{{Name: "x"}} }
func (normal2) NewDensity() infer.Density { return normal2{} }
func (normal2) LogDensityGrad(x, g []float64) float64 {
	z := (x[0] - 3) / 2
	g[0] = -z / 2
	return -0.5 * z * z
}
func (normal2) Constrained(x, out []float64) { out[0] = x[0] }
func (normal2) NonFinite([]float64) []string { return nil }

// Run samples any infer.Model: 4 chains of NUTS by default, reproducible
// from the seed.
func ExampleRun() {
	p, err := infer.Run(context.Background(), normal2{}, infer.Config{Seed: 7})
	if err != nil {
		panic(err)
	}
	r := p.Summary("x").Rows[0]
	fmt.Printf("%d chains × %d draws: mean %.0f, sd %.0f\n", len(p.Chains), p.Draws(), r.Mean, r.SD)
	// Output:
	// 4 chains × 1000 draws: mean 3, sd 2
}
