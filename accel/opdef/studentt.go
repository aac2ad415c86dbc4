package opdef

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// StudentT: with z = (y-μ)/σ, r = (ν+1)/(ν+z²) and l = log(1 + z²/ν),
// log p = lgamma((ν+1)/2) - lgamma(ν/2) - ½ log(νπ) - log σ - (ν+1)/2 · l;
// ∂y = -rz/σ, ∂μ = rz/σ, ∂σ = (rz² - 1)/σ, and
// ∂ν = ½ψ((ν+1)/2) - ½ψ(ν/2) - 1/(2ν) - ½l + rz²/(2ν).
// Forward keeps l for ∂ν (Keep).
var StudentT = define(&Dist{
	Family: "StudentT", Op: "StudentTLPDF", Name: "student_t_lpdf", CName: "student_t",
	Doc: "is Student's t with nu > 0 degrees of freedom, location mu and scale sigma > 0. " +
		"The mean exists for nu > 1, the variance sigma²·nu/(nu-2) for nu > 2.",
	Args: []Arg{
		{Name: "y", Grad: "-r * z * inv(sigma)"},
		{Name: "nu", Support: "Positive",
			Grad: "0.5*digamma(0.5*(nu+1)) - 0.5*digamma(0.5*nu) - 0.5*inv(nu) - 0.5*l + 0.5*r*z*z*inv(nu)"},
		{Name: "mu", Support: "Real", Grad: "r * z * inv(sigma)"},
		{Name: "sigma", Support: "Positive", Grad: "(r*z*z - 1) * inv(sigma)"},
	},
	Support: "Real",
	Valid:   "nu > 0 && sigma > 0",
	Let:     []Let{{"z", "(y - mu) * inv(sigma)"}, {"r", "(nu + 1) / (nu + z*z)"}, {"l", "log1p(z * z * inv(nu))"}},
	Keep:    []string{"l"},
	Value:   "lgamma(0.5*(nu+1)) - lgamma(0.5*nu) - 0.5*(log(nu)+lnPi) - log(sigma) - 0.5*(nu+1)*l",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.StudentsT{Nu: p[0], Mu: p[1], Sigma: p[2], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 {
		if p[0] <= 1 {
			return math.NaN()
		}
		return p[1]
	},
	Var: func(p []float64) float64 { return studentTVar(p[0], p[2]) },
	// With z = (y-μ)/σ and w = ν + z², the mass beyond |z| is
	// ½ I_{ν/w}(ν/2, ½) (incbeta.go, given 1 - ν/w = z²/w without
	// cancellation), its log lt: log F = lt below 0, log1p(-e^lt) above
	// (e^lt ≤ ½ there); the CCDF is the CDF at -z. ∂log F/∂z = p(z)/F = r
	// with p the standard t density; ∂ν of lt is ½ dLogIncBetaA plus
	// ∂log I/∂x · ∂x/∂ν, x = ν/w, which simplifies to
	// x^(ν/2-1) |z| w^(-3/2) / (B(ν/2, ½) I) (0 at z = 0, where F = ½
	// whatever ν).
	LCDF: &Tail{
		Valid: "nu > 0 && sigma > 0",
		Let:   studentTTail("z < 0", "(y - mu) * inv(sigma)"),
		Keep:  []string{"lt"},
		Value: "s",
		Grads: []string{"r * inv(sigma)", "where(z < 0, dlt, -exp(lt - s) * dlt)", "-r * inv(sigma)", "-r * z * inv(sigma)"},
	},
	LCCDF: &Tail{
		Valid: "nu > 0 && sigma > 0",
		Let:   studentTTail("z > 0", "(y - mu) * inv(sigma)"),
		Keep:  []string{"lt"},
		Value: "s",
		Grads: []string{"-r * inv(sigma)", "where(z > 0, dlt, -exp(lt - s) * dlt)", "r * inv(sigma)", "r * z * inv(sigma)"},
	},
})

// studentTTail is the lets of Student's t's log CDF (far "z < 0") or log
// CCDF (far "z > 0") at the standardised bound z: lt the log of the mass
// beyond |z|, s the tail's log, r = p(z)/e^s and dlt = ∂lt/∂ν.
func studentTTail(far, z string) []Let {
	return []Let{
		{"z", z},
		{"w", "nu + z*z"},
		{"lt", "logIncBeta(0.5*nu, 0.5, nu / w, z*z / w) - ln2"},
		{"s", "where(" + far + ", lt, log1mexp(lt))"},
		{"r", "exp(lgamma(0.5*(nu+1)) - lgamma(0.5*nu) - 0.5*(log(nu)+lnPi) - 0.5*(nu+1)*log1p(z*z*inv(nu)) - s)"},
		{"dlt", "0.5*dLogIncBetaA(0.5*nu, 0.5, nu / w, z*z / w) + " +
			"exp((0.5*nu - 1)*log(nu / w) + log(abs(z)) - 1.5*log(w) - lbeta(0.5*nu, 0.5) - lt - ln2)"},
	}
}

// HalfStudentT: |X| for X Student's t(ν, 0, σ): the formulas of StudentT
// with μ = 0, plus log 2, on y ≥ 0.
var HalfStudentT = define(&Dist{
	Family: "HalfStudentT", Op: "HalfStudentTLPDF", Name: "half_student_t_lpdf", CName: "half_student_t",
	Doc: "is |X| for X Student's t with nu > 0 degrees of freedom, location 0 and scale sigma > 0: positive.",
	Args: []Arg{
		{Name: "y", Grad: "-r * z * inv(sigma)"},
		{Name: "nu", Support: "Positive",
			Grad: "0.5*digamma(0.5*(nu+1)) - 0.5*digamma(0.5*nu) - 0.5*inv(nu) - 0.5*l + 0.5*r*z*z*inv(nu)"},
		{Name: "sigma", Support: "Positive", Grad: "(r*z*z - 1) * inv(sigma)"},
	},
	Support: "Positive",
	Valid:   "nu > 0 && sigma > 0 && y >= 0",
	Let:     []Let{{"z", "y * inv(sigma)"}, {"r", "(nu + 1) / (nu + z*z)"}, {"l", "log1p(z * z * inv(nu))"}},
	Keep:    []string{"l"},
	Value:   "ln2 + lgamma(0.5*(nu+1)) - lgamma(0.5*nu) - 0.5*(log(nu)+lnPi) - log(sigma) - 0.5*(nu+1)*l",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return math.Abs(distuv.StudentsT{Nu: p[0], Sigma: p[1], Src: rng}.Rand())
	},
	Mean: func(p []float64) float64 { return halfStudentTMean(p[0], p[1]) },
	Var: func(p []float64) float64 {
		m := halfStudentTMean(p[0], p[1])
		return studentTVar(p[0], p[1]) - m*m
	},
	// With z = y/σ and w = ν + z², 1 - F = P(|T| > z) = I_{ν/w}(ν/2, ½)
	// and F = I_{z²/w}(½, ν/2), both direct; ∂log F/∂z = 2p(z)/F = r (p
	// the t density), and ∂ν as for Student's t: ½ dLogIncBeta in the
	// shape ν/2 plus ∂log I/∂x · ∂x/∂ν, x^(ν/2-1) z w^(-3/2)/(B(ν/2, ½) I)
	// for 1 - F, its negative with I = F for F.
	LCDF: &Tail{
		Valid: "nu > 0 && sigma > 0 && y > 0",
		Let: []Let{{"z", "y * inv(sigma)"}, {"w", "nu + z*z"},
			{"lf", "logIncBeta(0.5, 0.5*nu, z*z / w, nu / w)"},
			{"r", "exp(ln2 + lgamma(0.5*(nu+1)) - lgamma(0.5*nu) - 0.5*(log(nu)+lnPi) - 0.5*(nu+1)*log1p(z*z*inv(nu)) - lf)"}},
		Keep:  []string{"lf"},
		Value: "lf",
		Grads: []string{"r * inv(sigma)",
			"0.5*dLogIncBetaB(0.5, 0.5*nu, z*z / w, nu / w) - " +
				"exp((0.5*nu - 1)*log(nu / w) + log(z) - 1.5*log(w) - lbeta(0.5*nu, 0.5) - lf)",
			"-r * z * inv(sigma)"},
	},
	LCCDF: &Tail{
		Valid: "nu > 0 && sigma > 0",
		Let: []Let{{"z", "where(y > 0, y * inv(sigma), 0)"}, {"w", "nu + z*z"},
			{"lc", "logIncBeta(0.5*nu, 0.5, nu / w, z*z / w)"},
			{"r", "exp(ln2 + lgamma(0.5*(nu+1)) - lgamma(0.5*nu) - 0.5*(log(nu)+lnPi) - 0.5*(nu+1)*log1p(z*z*inv(nu)) - lc)"}},
		Keep:  []string{"lc"},
		Value: "lc",
		Grads: []string{"where(y > 0, -r * inv(sigma), 0)",
			"0.5*dLogIncBetaA(0.5*nu, 0.5, nu / w, z*z / w) + " +
				"exp((0.5*nu - 1)*log(nu / w) + log(z) - 1.5*log(w) - lbeta(0.5*nu, 0.5) - lc)",
			"where(y > 0, r * z * inv(sigma), 0)"},
	},
})

// studentTVar is the variance of a t with ν degrees of freedom and scale σ.
func studentTVar(nu, sigma float64) float64 {
	switch {
	case nu <= 1:
		return math.NaN()
	case nu <= 2:
		return math.Inf(1)
	}
	return sigma * sigma * nu / (nu - 2)
}

// halfStudentTMean is E|X| = 2σ √ν Γ((ν+1)/2) / (√π Γ(ν/2) (ν-1)), ν > 1.
func halfStudentTMean(nu, sigma float64) float64 {
	if nu <= 1 {
		return math.Inf(1)
	}
	a, _ := math.Lgamma((nu + 1) / 2)
	b, _ := math.Lgamma(nu / 2)
	return 2 * sigma * math.Sqrt(nu/math.Pi) * math.Exp(a-b) / (nu - 1)
}
