package ppl

import (
	"maps"
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// InferenceData gathers what ArviZ's InferenceData holds for a fit of
// this model: the posterior (and its sample_stats), the posterior
// predictive, the pointwise log-likelihood per observed variable, prior
// and prior predictive draws (as many as fit has per chain, one chain),
// and the observed data. Save it with WriteZarr; in Python,
// az.from_zarr(path) or xarray.open_zarr(path, group="posterior") reads
// it. Seed applies to the predictive and prior draws.
func (m *Model) InferenceData(fit *posterior.Posterior, opts ...SampleOption) *posterior.InferenceData {
	c, err := m.Compile()
	orPanic(err)
	other := m.settings(opts).otherModel
	orPanic(checkFit(c, fit, "InferenceData", other))
	d := &posterior.InferenceData{
		Draws:  map[string]*posterior.Posterior{"posterior": fit},
		Data:   map[string][]posterior.DataArray{},
		Coords: maps.Clone(m.g.Coords), // SetData's NewCoords replace the model's later
	}
	obs := c.Observed()
	if len(obs) > 0 {
		names := make([]string, len(obs))
		for i, o := range obs {
			names[i] = o.Name
		}
		d.Draws["posterior_predictive"] = m.PosteriorPredictive(fit, opts...).Select(names...)
		var llOpts []SampleOption
		if other {
			llOpts = append(llOpts, OtherModel())
		}
		d.Draws["log_likelihood"] = m.annotate(splitLogLik(m.LogLik(fit, llOpts...), obs))
		for _, r := range m.g.RVs {
			if r.Observed {
				d.Data["observed_data"] = append(d.Data["observed_data"],
					posterior.DataArray{Name: r.Name, Shape: slices.Clone(r.Value.Dims), Dims: r.Dims, Values: r.Data})
			}
		}
	}
	for _, c := range m.g.Data {
		d.Data["constant_data"] = append(d.Data["constant_data"],
			posterior.DataArray{Name: c.Container, Shape: slices.Clone(c.Dims), Dims: m.g.DataDims[c.Container], Values: c.Data})
	}
	if n := fit.Draws(); n > 0 {
		prior := m.PriorPredictive(n, opts...)
		var params, predictive []string
		for _, v := range prior.Vars {
			if slices.ContainsFunc(obs, func(o infer.Var) bool { return o.Name == v.Name }) {
				predictive = append(predictive, v.Name)
			} else {
				params = append(params, v.Name)
			}
		}
		if len(params) > 0 {
			d.Draws["prior"] = prior.Select(params...)
		}
		if len(predictive) > 0 {
			d.Draws["prior_predictive"] = prior.Select(predictive...)
		}
	}
	return d
}

// splitLogLik gives LogLik's one variable log_lik (every observed
// element, in the order of the observed variables) as one variable per
// observed variable, of its shape, as ArviZ's log_likelihood group has it.
func splitLogLik(ll *posterior.Posterior, obs []infer.Var) *posterior.Posterior {
	out := &posterior.Posterior{Model: ll.Model, Sampler: ll.Sampler, Warmup: ll.Warmup, Seconds: ll.Seconds, Chains: ll.Chains}
	start := 0
	for _, o := range obs {
		out.Vars = append(out.Vars, posterior.Var{Name: o.Name, Shape: o.Shape, Start: start})
		out.Columns = append(out.Columns, infer.ColumnNames(o.Name, o.Shape)...)
		start += ir.ShapeLen(o.Shape)
	}
	return out
}

// Predictions adds to idata the out-of-sample draws at the model's
// current data — after SetData gave the containers new rows (and
// NewCoords their labels) — as ArviZ's predictions group: the observed
// variables and the quantities computed from the data, drawn from fit's
// posterior, with the containers' new values as predictions_constant_data
// and the new labels for both. The PyMC pattern, pm.set_data then
// sample_posterior_predictive(predictions=True):
//
//	idata := m.InferenceData(fit)
//	m.SetData("county_idx", idxNew, ppl.NewCoords("obs", labelsNew…))
//	m.Predictions(idata, fit, ppl.Seed(2))
//	idata.WriteZarr("fit.zarr")
//
// It returns the predictions, also found in idata.Draws["predictions"].
func (m *Model) Predictions(idata *posterior.InferenceData, fit *posterior.Posterior, opts ...SampleOption) *posterior.Posterior {
	if idata == nil {
		orPanic(&Error{Msg: "Predictions: no InferenceData given; make it first with m.InferenceData(fit)"})
	}
	pred := m.PosteriorPredictive(fit, opts...)
	if idata.Draws == nil {
		idata.Draws = map[string]*posterior.Posterior{}
	}
	if idata.Data == nil {
		idata.Data = map[string][]posterior.DataArray{}
	}
	idata.Draws["predictions"] = pred
	idata.Data["predictions_constant_data"] = nil
	for _, c := range m.g.Data {
		idata.Data["predictions_constant_data"] = append(idata.Data["predictions_constant_data"],
			posterior.DataArray{Name: c.Container, Shape: slices.Clone(c.Dims), Dims: m.g.DataDims[c.Container], Values: slices.Clone(c.Data)})
	}
	if idata.GroupCoords == nil {
		idata.GroupCoords = map[string]map[string][]string{}
	}
	idata.GroupCoords["predictions"] = maps.Clone(m.g.Coords)
	idata.GroupCoords["predictions_constant_data"] = maps.Clone(m.g.Coords)
	return pred
}
