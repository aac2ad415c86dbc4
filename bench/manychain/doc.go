// Command manychain compares the many-chain samplers of package
// ppl/lockstep (ChEES-HMC, MEADS) with NUTS (package ppl/infer) on
// posteriordb cases: bulk ESS per gradient evaluation and per second, and
// the largest error of the posterior means against the reference in
// reference standard deviations.
//
//	go run ./bench/manychain                         # default cases
//	go run ./bench/manychain -cases kidiq-kidscore_momhs -chains 1024
//
// ESS is the smallest bulk ESS over the recorded scalars. For NUTS it is
// that of its 4 chains, per the gradients of those chains and per second
// of the run. For ChEES and MEADS it is that of the 16 kept chains, per
// the gradients of those 16 chains; per second it is scaled by
// chains/16, since every chain of the run is statistically the same as a
// kept one and the run's time paid for all of them.
package main
