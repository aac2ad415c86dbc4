// Command validate runs the samplers on every reference posterior of
// ../shared/posteriordb and judges each run as the folder's README says:
// every scalar's mean within 4·sqrt(mcse_ref² + mcse_run²) of the
// reference, sd within 10%, the 5% and 95% quantiles within four combined
// standard errors, rank-normalised split R-hat below 1.01, and no
// divergences — except in the centred eight schools, where the funnel's
// divergences must be reported.
//
//	go run ./cmd/validate                  # all cases, NUTS, 4 chains
//	go run ./cmd/validate -cases 'kidiq|blr' -sampler nuts -seed 2
//	go run ./cmd/validate -json            # one JSON object per case (for bench/)
//
// The lockstep samplers run through package ppl/lockstep and are judged
// on the (at most) 16 chains their posterior keeps: -sampler chees with
// 1024 chains; -sampler meads with 256 chains and 41,000 iterations (1000
// warm-up, then every 40th of 40,000 kept), because R-hat over 16 chains
// needs about 100 effective draws per half chain and MEADS, at one
// gradient per iteration, gets them only from as many gradients per chain
// as NUTS spends (see meadsThin; -thin overrides it); -sampler rwmh with
// -chains (4 by default, 64 for the many-chain figures) and ten times the
// iterations (see rwmhFactor).
//
//	go run ./cmd/validate -sampler chees   # make validate SAMPLER=chees
//	go run ./cmd/validate -sampler meads   # make validate SAMPLER=meads
//
// It prints one line per case (worst standardised error, max R-hat, min
// ESS, settings that differ from the defaults) and ends with
// "N passed, M failed"; the exit status is 1 when a case fails.
package main
