package ppl_test

import (
	"fmt"

	"github.com/gobayes/gobayes/ppl"
)

// A regression's likelihood split in 3 shards: the data rows and X·beta
// are sliced into three programs evaluated in parallel; the AR-style mean
// computed by a Scan cannot be split by rows, so its variable stays whole.
func ExampleShards() {
	x := [][]float64{{1, 0.5}, {1, -0.3}, {1, 1.2}, {1, 0.1}, {1, -1.1}, {1, 0.7}, {1, 0.4}}
	y := []float64{1.1, 0.2, 2.0, 0.9, -0.8, 1.5, 1.0}
	m := ppl.NewModel("regression", ppl.Shards(3))
	beta := m.Normal("beta", 0, 1, ppl.Size(2))
	sigma := m.HalfNormal("sigma", 1)
	m.Normal("y", ppl.MatVec(x, beta), sigma).Observe(y)
	rho := m.Normal("rho", 0, 0.5)
	ar := ppl.Scan(len(y), []any{0.0}, []any{y}, func(c, row []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		next := ppl.Add(ppl.Mul(rho, c[0]), row[0])
		return []ppl.Expr{next}, next
	})
	m.Normal("z", ar, 1).Observe(y)
	c, err := m.Compile()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.ShardPlan())
	// Output:
	// 3 shards in 3 blocks
	// y: 7 rows (volume 21), sharded
	// z: 7 rows (volume 0), whole: mu: Scan[7] is computed over all rows at once (by Scan), which does not split by rows
}
