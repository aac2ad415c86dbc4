package ppl

type predictive struct{}
