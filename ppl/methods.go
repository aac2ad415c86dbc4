package ppl

// The methods of Expr, on its two kinds (expressions and random
// variables): each calls the function of its name with the receiver
// first, so that mu.Add(tau.Mul(z)) is Add(mu, Mul(tau, z)).

func (n *node) Add(b any) Expr       { return Add(n, b) }
func (n *node) Sub(b any) Expr       { return Sub(n, b) }
func (n *node) Mul(b any) Expr       { return Mul(n, b) }
func (n *node) Div(b any) Expr       { return Div(n, b) }
func (n *node) Pow(b any) Expr       { return Pow(n, b) }
func (n *node) Neg() Expr            { return Neg(n) }
func (n *node) Exp() Expr            { return Exp(n) }
func (n *node) Log() Expr            { return Log(n) }
func (n *node) Sqrt() Expr           { return Sqrt(n) }
func (n *node) Square() Expr         { return Square(n) }
func (n *node) Logistic() Expr       { return Logistic(n) }
func (n *node) Sum() Expr            { return Sum(n) }
func (n *node) Dot(b any) Expr       { return Dot(n, b) }
func (n *node) Index(idx []int) Expr { return Index(n, idx) }
func (n *node) At(i int) Expr        { return At(n, i) }
func (n *node) Take(idx any) Expr    { return Take(n, idx) }

func (r *RV) Add(b any) Expr       { return Add(r, b) }
func (r *RV) Sub(b any) Expr       { return Sub(r, b) }
func (r *RV) Mul(b any) Expr       { return Mul(r, b) }
func (r *RV) Div(b any) Expr       { return Div(r, b) }
func (r *RV) Pow(b any) Expr       { return Pow(r, b) }
func (r *RV) Neg() Expr            { return Neg(r) }
func (r *RV) Exp() Expr            { return Exp(r) }
func (r *RV) Log() Expr            { return Log(r) }
func (r *RV) Sqrt() Expr           { return Sqrt(r) }
func (r *RV) Square() Expr         { return Square(r) }
func (r *RV) Logistic() Expr       { return Logistic(r) }
func (r *RV) Sum() Expr            { return Sum(r) }
func (r *RV) Dot(b any) Expr       { return Dot(r, b) }
func (r *RV) Index(idx []int) Expr { return Index(r, idx) }
func (r *RV) At(i int) Expr        { return At(r, i) }
func (r *RV) Take(idx any) Expr    { return Take(r, idx) }
