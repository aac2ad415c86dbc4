// Package plotting draws the diagnostic and posterior figures a Bayesian
// expects — trace, posterior density, pair, forest, rank, autocorrelation,
// energy, ESS evolution, predictive checks, ELBO history, plain
// distributions and curves with their uncertainty bands — as a Figure
// that shows itself inline in a notebook.
//
// One call makes one figure; its arguments after the posterior are the
// variables to show, by name, and options, in any order:
//
//	fit := m.Sample(ppl.NUTS(), ppl.Chains(4))
//	plotting.Trace(fit, "mu", "tau")                  // last expression of a cell: inline PNG
//	plotting.Pair(fit, "mu", "tau", "theta")          // theta expands to theta[0] … theta[7]
//	plotting.Pair(fit, "tau", "theta[0]", plotting.Log("tau")) // the funnel on the log scale
//	plotting.Posterior(fit, "mu", plotting.Ref(0), plotting.ROPE(-1, 1))
//	plotting.Forest(fit, "theta", plotting.Prob(0.9))
//	fig := plotting.Rank(fit, plotting.Chains(1, 2), plotting.Size(1000, 600))
//	fig.Save("rank.svg")                               // format from the extension: .png .svg .pdf
//	plotting.PPC(y, m.PosteriorPredictive(fit))        // observed data against replications
//	plotting.ELBO(m.ADVI())                            // a variational fit's ELBO history
//	plotting.Band(months, [][][]float64{ctl, trt}, plotting.Labels("control", "treated"),
//		plotting.Axes("months", "survival"))              // curves: median and 94% band per group
//
// The posterior argument is a *posterior.Posterior, a posterior.Posterior,
// or any value with a method Posterior() *posterior.Posterior. A variable
// name selects every scalar of that variable ("theta" is theta[0] …
// theta[7]); a column name ("theta[2]") selects one scalar. With no names,
// a plot shows every recorded variable, up to a limit it notes in the
// figure's text. Options are the functions of type Option (Size,
// FontScale, DPI, Format, Chains, Title, Prob, Median, Ref, ROPE, Histogram, Bins, MaxLag,
// Labels, MaxDraws, Log, Axes) or a *Settings, where nil means the defaults. Chains
// are numbered from 1, as the legends number them.
//
// # Size, text and format for a whole notebook
//
// Sizes are CSS pixels, the size a notebook shows a figure at. A PNG
// holds twice the pixels each way (192 DPI) and its bundle's metadata has
// the notebook show it at its size, so text stays sharp on a high-density
// screen or a projector at 150% zoom. One call at the top of a notebook
// sets the size, text scale, format and DPI of every later figure; a
// figure's own options still win:
//
//	plotting.SetDefaults(plotting.Defaults{Width: 1000, FontScale: 1.4})
//
// PNG is the default format rather than SVG: Notebook 6 does not show
// SVG from a notebook it does not trust, SVG text is drawn in whatever
// font the browser has, and a trace or pair plot of thousands of draws is
// a heavy SVG.
//
// # Errors
//
// A plotting call never returns an error value: bad input (an unknown
// variable, an empty posterior, one chain for Rank, an option of the wrong
// kind) gives a Figure that carries the error. Its Err method returns the
// error; PNG, SVG, Render and Save return it; its notebook display and
// String are the error message, which names what is wrong and says what
// to do. A cell therefore always gets a Figure in one value.
//
// # Display
//
// A Figure implements display.Bundler: as the last expression of a cell
// it shows as one image in the figure's format — PNG by default, SVG with
// Format("svg") — with its String as the text form. (It deliberately has
// no SVG() string method: the kernel would then add an SVG to every
// bundle, and notebooks prefer SVG over PNG. Being a display.PNGer too,
// an SVG figure's bundle also carries a PNG, which notebooks ignore in
// favour of the SVG.) PNG() ([]byte, error) is display.PNGer; SVG()
// (string, error), Render(format) and Save(path) produce any format
// whatever the setting.
//
// # Inspection
//
// Panels describes what a figure draws — each panel's title, axis labels
// and elements (lines, points, bars, bands, rules, ticks with their labels
// and point counts) — so tests and screen readers can check a figure
// without looking at pixels.
package plotting
