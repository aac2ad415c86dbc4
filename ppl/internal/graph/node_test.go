package graph

import "testing"

// TestNodeString checks the descriptions errors quote.
func TestNodeString(t *testing.T) {
	mu := &RV{Name: "mu"}
	mu.Value = &Node{Kind: KRV, RV: mu}
	for _, tc := range []struct {
		n    *Node
		want string
	}{
		{mu.Value, "mu"},
		{Scalar(2.5), "2.5"},
		{Const([]float64{1, 2, 3, 4}, []int{2, 2}), "data[2 2]"},
		{&Node{Kind: KReshape, Det: "theta", Args: []*Node{mu.Value}}, "theta"},
		{&Node{Kind: KInput, Input: 1}, "scan argument 1"},
		{&Node{Kind: KOp, Fn: "Add", Dims: []int{8}, Args: []*Node{mu.Value, Scalar(1)}}, "Add[8]"},
	} {
		if got := tc.n.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
