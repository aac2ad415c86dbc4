"""What a statistician sees of the modelling API through a real client:
dims and coordinates in the summary, the comparison table of two models
as HTML, draws as arrays and the InferenceData export."""
import json
import os
import tempfile

from kernel_client import KernelCase

MODEL = '''import (
    "github.com/gobayes/gobayes/ppl"
    "github.com/gobayes/gobayes/ppl/diag"
)
'''

SCHOOLS = '''y := []float64{28, 8, -3, 7, -1, 1, 18, 12}
sigma := []float64{15, 10, 16, 11, 9, 11, 10, 18}
build := func(name string, pooled bool) *ppl.Model {
    m := ppl.NewModel(name)
    m.Coords("school", "A", "B", "C", "D", "E", "F", "G", "H")
    mu := m.Normal("mu", 0, 5)
    if pooled {
        m.Normal("y", mu, sigma, ppl.Dims("school")).Observe(y)
        return m
    }
    tau := m.HalfNormal("tau", 5)
    z := m.Normal("z", 0, 1, ppl.Size(8), ppl.Dims("school"))
    theta := m.Deterministic("theta", mu.Add(tau.Mul(z)), ppl.Dims("school"))
    m.Normal("y", theta, sigma, ppl.Dims("school")).Observe(y)
    return m
}
hier, pooled := build("hierarchical", false), build("pooled", true)
fitH := hier.Sample(ppl.Seed(1), ppl.Chains(2), ppl.Warmup(300), ppl.Draws(300), ppl.LiveProgress(false))
fitP := pooled.Sample(ppl.Seed(1), ppl.Chains(2), ppl.Warmup(300), ppl.Draws(300), ppl.LiveProgress(false))
'''


class Modelling(KernelCase):
    def setUp(self):
        super().setUp()
        self.assertOK(self.run_cell(MODEL))
        self.assertOK(self.run_cell(SCHOOLS, timeout=120))

    def test_summary_labels_by_coordinate(self):
        cell = self.run_cell("fitH")
        self.assertOK(cell)
        html = cell.of("execute_result")[0]["data"]["text/html"]
        self.assertIn(">theta[A]<", html, cell)
        self.assertIn(">z[H]<", html, cell)

    def test_comparison_table(self):
        cell = self.run_cell('cmp, err := diag.Compare([]string{"hierarchical", "pooled"}, '
                             '[]*diag.ModelCheck{hier.LogLik(fitH).LOO(), pooled.LogLik(fitP).LOO()})\n'
                             'if err != nil {\n    panic(err)\n}\ncmp')
        self.assertOK(cell)
        data = cell.of("execute_result")[0]["data"]
        for want in ("elpd_diff", "weight", "dse", "hierarchical", "pooled"):
            self.assertIn(want, data["text/html"], cell)
            self.assertIn(want, data["text/plain"], cell)

    def test_arrays_and_zarr(self):
        cell = self.run_cell('a := fitH.Array("theta")\nlen(a.Mean())')
        self.assertOK(cell)
        self.assertEqual(cell.result(), "8", cell)
        store = os.path.join(tempfile.mkdtemp(prefix="gobayes-idata-"), "fit.zarr")
        cell = self.run_cell('hier.InferenceData(fitH).WriteZarr(%s)' % json.dumps(store))
        self.assertOK(cell)
        for group in ("posterior", "sample_stats", "log_likelihood", "posterior_predictive", "observed_data"):
            self.assertTrue(os.path.exists(os.path.join(store, group, ".zgroup")), group)
        import xarray as xr
        post = xr.open_zarr(store, group="posterior", consolidated=True)
        self.assertEqual(list(post["theta"].dims), ["chain", "draw", "school"])
        self.assertEqual(list(post["school"].values), list("ABCDEFGH"))

    def test_formula_and_error_column(self):
        cell = self.run_cell('theta2 := hier.Let("theta2", "mu + tau * z")\ntheta2.Shape()')
        self.assertOK(cell)
        self.assertEqual(cell.result(), "[8]", cell)
        cell = self.run_cell('hier.Let("bad", "mu + tau * * z")')
        self.assertEqual(cell.status, "error", cell)
        err = cell.of("error")[0]
        text = err["evalue"] + "\n".join(err["traceback"])
        self.assertIn("column 12", text, cell)
        self.assertIn("expected a number", text, cell)
        # The model is as it was: it samples.
        self.assertOK(self.run_cell("hier.Err()"))

    def test_data_container_prediction(self):
        cell = self.run_cell(
            'reg := ppl.NewModel("reg")\n'
            'xc := reg.Data("x", []float64{0, 1, 2, 3, 4, 5})\n'
            'yc := reg.Data("y", []float64{0.1, 1.1, 1.9, 3.2, 3.9, 5.1})\n'
            'slope := reg.Normal("slope", 0, 5)\n'
            'noise := reg.HalfNormal("noise", 1)\n'
            'reg.Normal("obs", reg.Let("mean", "slope * x"), noise, ppl.Observed(yc))\n'
            'regFit := reg.Sample(ppl.Seed(2), ppl.LiveProgress(false))\n'
            'pred := reg.PosteriorPredictive(regFit, ppl.WithData("x", []float64{10, 20}))\n'
            'pred.Array("mean").Mean()[1] / pred.Array("mean").Mean()[0]', timeout=120)
        self.assertOK(cell)
        self.assertAlmostEqual(float(cell.result()), 2.0, places=9, msg=cell)

    def test_changed_cell_run_again(self):
        """A notebook user changes a prior in a cell above and runs it again:
        the model below follows, with no NewModel and no rerun of the other
        cells; a change that cannot be made in place is refused with the
        variable's name and the model samples as before."""
        self.assertOK(self.run_cell('rm := ppl.NewModel("rerun")\n'
                                    'loc := rm.Normal("loc", 0, 1)'))
        self.assertOK(self.run_cell('rm.Normal("obs", loc, 1, ppl.Observed([]float64{10, 11, 12}))'))
        cell = self.run_cell('rm.Normal("loc", 0, 100)\n'
                             'rfit := rm.Sample(ppl.Seed(3), ppl.LiveProgress(false))\n'
                             'rfit.Array("loc").Mean()[0]', timeout=120)
        self.assertOK(cell)
        # Normal(0, 100) prior and three observations of sd 1 around 11:
        # the posterior mean is 11·3/(3 + 1e-4), far from Normal(0, 1)'s 8.25.
        self.assertAlmostEqual(float(cell.result()), 11.0, delta=0.2, msg=cell)
        cell = self.run_cell('rm.Normal("loc", 0, 100, ppl.Size(2))')
        self.assertEqual(cell.status, "error", cell)
        err = cell.of("error")[0]
        text = err["evalue"] + "\n".join(err["traceback"])
        for want in ("loc", "obs", "NewModel"):
            self.assertIn(want, text, cell)
        self.assertOK(self.run_cell("rm.Err()"))
