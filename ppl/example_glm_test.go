package ppl_test

import (
	"fmt"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/datasets"
	"github.com/gobayes/gobayes/table"
)

// A Poisson regression with an exposure offset, a label column and a
// varying intercept, from a CSV file: the listing shows the priors GLM
// chose, and one is replaced by name.
func ExampleGLM() {
	t, err := table.ReadCSV(datasets.Path("junctions.csv"))
	if err != nil {
		fmt.Println(err)
		return
	}
	m := ppl.GLM("accidents ~ traffic + layout + (1 | district)", t,
		ppl.Family("poisson"), ppl.Offset("log_years"))
	m.SetPrior("traffic", "Normal(0, 0.5)")
	fmt.Print(m)

	// A mistake names the place in the formula and the table's columns.
	func() {
		defer func() { fmt.Println(recover()) }()
		ppl.GLM("accidents ~ trafic", t)
	}()
	// Output:
	// model accidents_glm
	//   GLM accidents ~ traffic + layout + (1 | district), family poisson (log link); priors scaled to the data unless set (SetPrior)
	//   traffic_data[300] = data  (data container)
	//   layout_idx[300] = data  (data container)
	//   district_idx[300] = data  (data container)
	//   log_years_data[300] = data  (data container)
	//   Intercept ~ Normal(0.467, 6.4)  (parameter)
	//   traffic ~ Normal(0, 0.5)  (parameter)
	//   layout[layout_level=2] ~ Normal(0, 5.5)  (parameter)
	//   1|district_sigma ~ HalfNormal(1)  (parameter)
	//   1|district_offset[district=15] ~ Normal(0, 1)  (parameter)
	//   accidents[300] ~ PoissonLog(Add(Add(Add(…, …), Index(1|district, district_idx)), log_years_data))  (observed)
	//   1|district[district=15] = Mul(1|district_sigma, 1|district_offset)  (deterministic)
	// ppl: GLM: formula "accidents ~ trafic", column 13: no column "trafic" in table junctions.csv (its columns: junction, district, layout, traffic, years, log_years, accidents); name one of them
	//     accidents ~ trafic
	//                 ^
}
