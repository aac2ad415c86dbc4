// Command manychain compares the many-chain samplers of package
// ppl/lockstep (ChEES-HMC, MEADS) with NUTS (package ppl/infer) on the
// posteriordb cases: bulk ESS per gradient evaluation, per wall second and
// per CPU second, the largest error of the posterior means against the
// reference in reference standard deviations, and the largest R-hat. It
// prints a Markdown table (the one in bench/README.md) with the date and
// the load average, then the geometric mean of ChEES's and MEADS's ratios
// to NUTS.
//
//	go run ./bench/manychain -chains 128            # every case
//	go run ./bench/manychain -cases kidiq-kidscore_momhs,arK-arK -chains 1024
//
// Every method runs a case with posteriordb.CaseSettings, as cmd/validate
// does (NUTS's dense metric and target acceptance; ChEES's target
// acceptance; the initial radius for all), and MEADS thinned by 40 as in
// cmd/validate. ESS is the smallest bulk ESS over the scalars with a
// reference. For NUTS it is that of its 4 chains, per the gradients of
// those chains and per second of the run. For ChEES and MEADS it is that
// of the 16 kept chains, per the gradients of those 16 chains; per second
// it is scaled by chains/16, since every chain of the run is statistically
// the same as a kept one and the run's time paid for all of them.
package main
