package ppl

import (
	"context"
	"strings"
	"testing"
)

// setTestHooks gives the program's session, that of the models a test
// makes with NewModel, the hooks h, and returns the previous ones (tests
// that sample do not run in parallel).
func setTestHooks(h Hooks) Hooks {
	prev := program.hooks
	program.hooks = h
	return prev
}

// TestSessionsApart: two sessions in one process (two notebooks of one
// kernel process, as interp makes them) each see their own hooks and their
// own last run; the program's session (a Go program's models) sees
// neither. With process-wide hooks and LastRun, the second session's run
// replaced the first one's last run, and the last hooks installed got
// every run's progress.
func TestSessionsApart(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	h1, h2 := &testHooks{ctx: context.Background()}, &testHooks{ctx: cancelled}
	s1, s2 := NewSession(h1), NewSession(h2)
	before := LastRun()
	model := func(s *Session, name string) *Model {
		m := s.Adopt(NewModel(name))
		mu := m.Normal("mu", 0, 1)
		m.Normal("y", mu, 1, Observed([]float64{0.5, 1.5}))
		return m
	}
	m1, m2 := model(s1, "one"), model(s2, "two")
	if s2.Adopt(m1) != m1 || m1.session() != s1 {
		t.Fatal("Adopt moved a model that belongs to a session")
	}
	f1 := m1.Sample(Seed(1), Chains(1), Warmup(50), Draws(50))
	f2 := m2.Sample(Seed(1), Chains(1), Warmup(50), Draws(50))
	if s1.LastRun() != f1 || s2.LastRun() != f2 || f1 == f2 {
		t.Errorf("LastRun: session one %p (its run %p), session two %p (its run %p)", s1.LastRun(), f1, s2.LastRun(), f2)
	}
	if LastRun() != before {
		t.Errorf("the program's LastRun changed to %p by the sessions' runs", LastRun())
	}
	// Each run reported to its own session's hooks only, and watched its
	// context: the second session's is cancelled, the first's not.
	if strings.Join(h1.models, ",") != "one" || strings.Join(h2.models, ",") != "two" {
		t.Errorf("progress went to: session one %q, session two %q", h1.models, h2.models)
	}
	if f1.Interrupted || !f2.Interrupted {
		t.Errorf("interrupted: session one %v (context live), session two %v (context cancelled)", f1.Interrupted, f2.Interrupted)
	}
	// Definitions too: the same name defined again in the same cell run
	// is refused in the session whose context says it is one run.
	m1.Normal("z", 0, 1)
	if err := caught(func() { m1.Normal("z", 0, 1) }); err == nil || !strings.Contains(err.Error(), "in one run of the cell") {
		t.Errorf("session one: defined twice in one cell: %v", err)
	}
}
