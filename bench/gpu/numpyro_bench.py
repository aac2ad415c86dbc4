#!/usr/bin/env python3
"""NumPyro side of the GPU benchmark (bench/gpu).

The Go command bench/gpu writes the simulated logistic-regression data and
runs gobayes' samplers; this script then runs NumPyro on the same device for
the same problems:

    python3 bench/gpu/numpyro_bench.py --data DIR --out FILE \
        [--cases eight_schools,logistic,rwmh] [--quick]

Each run prints one line "RESULT {json}" to stdout and appends the same JSON
object to FILE (JSON lines). The keys follow bench/gpu/main.go's result
(case, method, backend, chains, warmup, draws, wall_s, grads_per_chain,
min_ess_bulk_kept, ess_per_s, max_rhat, max_err_sd, means, draws_per_s,
error) plus NumPyro-specific ones:

  first_run_s    wall time of the first call: tracing, XLA compilation, run
  second_run_s   the same jitted sampler called again with a new key (warm);
                 wall_s is this figure
  grad_evals     leapfrog steps (= gradient evaluations) summed over all
                 chains, warm-up included (num_steps of every iteration)
  grad_evals_sampling   the same for the sampling phase only
  grad_evals_lockstep   sum over iterations of the largest num_steps of any
                 chain: what a vectorized (lockstep) run actually computes
  min_ess_bulk   rank-normalized split-chain ESS (Stan's bulk ESS), computed
                 with numpyro.diagnostics.effective_sample_size; the minimum
                 over all parameters (deterministic ones included)
  min_ess_plain  numpyro.diagnostics.effective_sample_size on the raw draws
  max_rhat       numpyro.diagnostics.split_gelman_rubin on the raw draws
  ess_per_s      min_ess_bulk / second_run_s
  ess_per_grad   min_ess_bulk / grad_evals
  ess_per_grad_sampling  min_ess_bulk / grad_evals_sampling

NUTS is timed by jitting one function that builds numpyro's MCMC
(chain_method="vectorized") and runs warm-up and sampling inside the trace,
so the second call re-uses the compiled program exactly (no re-tracing,
no re-initialisation outside the timed region).
"""

import argparse
import json
import math
import os
import sys
import time
import traceback

import numpy as np

T0 = time.perf_counter()

# ---------------------------------------------------------------------------
# Small helpers (pure Python / NumPy)
# ---------------------------------------------------------------------------


def log(msg):
    """Progress line on stderr with the time since start."""
    print("[numpyro_bench %7.1fs] %s" % (time.perf_counter() - T0, msg), file=sys.stderr, flush=True)


def clean_json(v):
    """Makes v JSON-safe: NumPy scalars to Python, NaN and inf to None."""
    if isinstance(v, dict):
        return {str(k): clean_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [clean_json(x) for x in v]
    if isinstance(v, np.ndarray):
        return clean_json(v.tolist())
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


class Emitter:
    """Prints RESULT lines and appends them to the --out file."""

    def __init__(self, path, common):
        self.path = path
        self.common = common
        self.results = []
        if path:
            d = os.path.dirname(os.path.abspath(path))
            os.makedirs(d, exist_ok=True)

    def emit(self, rec):
        full = dict(rec)
        for k, v in self.common.items():
            full.setdefault(k, v)
        full = clean_json(full)
        line = json.dumps(full, sort_keys=False)
        print("RESULT " + line, flush=True)
        if self.path:
            with open(self.path, "a") as f:
                f.write(line + "\n")
        self.results.append(full)


def load_logistic(data_dir, default_n=100_000, default_d=50, seed=1):
    """Reads DIR/logistic_X.f64, logistic_y.f64 and logistic.json as written
    by bench/gpu (little-endian float64, X row-major N x D). When any file is
    missing it simulates data of the same kind here (as
    posteriordb.SimulatedLogistic: X ~ N(0,1), beta_true ~ N(0,1)*2/sqrt(D),
    y ~ Bernoulli(logistic(X beta_true))), with a NumPy generator, so the
    draws differ from Go's. Returns X, y, source."""
    px = os.path.join(data_dir, "logistic_X.f64") if data_dir else ""
    py = os.path.join(data_dir, "logistic_y.f64") if data_dir else ""
    pm = os.path.join(data_dir, "logistic.json") if data_dir else ""
    if data_dir and all(os.path.isfile(p) for p in (px, py, pm)):
        with open(pm) as f:
            meta = json.load(f)
        n, d = int(meta["N"]), int(meta["D"])
        X = np.fromfile(px, dtype="<f8")
        y = np.fromfile(py, dtype="<f8")
        if X.size != n * d:
            raise ValueError("%s holds %d float64, want N*D = %d*%d = %d" % (px, X.size, n, d, n * d))
        if y.size != n:
            raise ValueError("%s holds %d float64, want N = %d" % (py, y.size, n))
        bad = np.count_nonzero((y != 0.0) & (y != 1.0))
        if bad:
            raise ValueError("%s: %d values are neither 0 nor 1" % (py, bad))
        return X.reshape(n, d).astype(np.float64), y.astype(np.float64), "go"
    rng = np.random.default_rng(seed)
    n, d = default_n, default_d
    beta = rng.standard_normal(d) * 2.0 / math.sqrt(d)
    X = rng.standard_normal((n, d))
    eta = X @ beta
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-eta))).astype(np.float64)
    return X, y, "simulated-here"


def _ndtri(p):
    """Inverse standard normal CDF of an array (SciPy, which JAX depends on;
    JAX's own as a fallback)."""
    try:
        from scipy.special import ndtri
        return ndtri(p)
    except ImportError:
        import jax.scipy.special as jss
        return np.asarray(jss.ndtri(p))


def rank_normalized_split(x):
    """x: draws of one scalar, shape [chain, draw]. Returns Stan's
    rank-normalized split chains, shape [2*chain, draw//2]: the first and
    last halves of every chain become chains, all draws are ranked jointly
    and mapped to normal scores Phi^-1((r - 3/8) / (S + 1/4))."""
    x = np.asarray(x, dtype=np.float64)
    assert x.ndim == 2 and x.shape[1] >= 4
    half = x.shape[1] // 2
    xs = np.concatenate([x[:, :half], x[:, x.shape[1] - half:]], axis=0)
    flat = xs.ravel()
    s = flat.size
    order = np.argsort(flat, kind="stable")
    ranks = np.empty(s, dtype=np.float64)
    ranks[order] = np.arange(1, s + 1, dtype=np.float64)
    # average ranks over ties (rare for continuous draws, but a stuck chain
    # or a discrete value would otherwise get arbitrary ranks)
    sorted_vals = flat[order]
    if s > 1 and np.any(sorted_vals[1:] == sorted_vals[:-1]):
        starts = np.concatenate([[True], sorted_vals[1:] != sorted_vals[:-1]])
        group = np.cumsum(starts) - 1
        first = np.flatnonzero(starts)
        counts = np.diff(np.append(first, s))
        avg = first + (counts + 1) / 2.0  # 1-based mean rank of each group
        ranks[order] = avg[group]
    z = _ndtri((ranks - 0.375) / (s + 0.25))
    return z.reshape(xs.shape)


def flatten_draws(samples, names=None):
    """samples: dict name -> array [chain, draw, ...]. Returns a list of
    (column name, [chain, draw] array); vector sites become name[1], name[2],
    ... (1-based, as posteriordb names them; gobayes names them 0-based and
    maps posteriordb's names when it loads a case)."""
    cols = []
    for name in (names or sorted(samples)):
        a = np.asarray(samples[name], dtype=np.float64)
        c, n = a.shape[:2]
        rest = a.shape[2:]
        if not rest:
            cols.append((name, a))
            continue
        flat = a.reshape(c, n, -1)
        for j in range(flat.shape[2]):
            if len(rest) == 1:
                label = "%s[%d]" % (name, j + 1)
            else:
                idx = np.unravel_index(j, rest)
                label = "%s[%s]" % (name, ",".join(str(i + 1) for i in idx))
            cols.append((label, flat[:, :, j]))
    return cols


def find_reference(case):
    """reference.json of a posteriordb case, looked for where gobayes looks
    ($GOBAYES_POSTERIORDB, ../shared/posteriordb beside the repository) and
    in shared/ inside it. Returns the parsed JSON or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    dirs = []
    if os.environ.get("GOBAYES_POSTERIORDB"):
        dirs.append(os.environ["GOBAYES_POSTERIORDB"])
    dirs += [os.path.join(root, "..", "shared", "posteriordb"), os.path.join(root, "shared", "posteriordb")]
    for d in dirs:
        p = os.path.join(d, case, "reference.json")
        if os.path.isfile(p):
            try:
                with open(p) as f:
                    return json.load(f)
            except (OSError, ValueError):
                return None
    return None


# The mixture of bench/rwmh and bench/gpu.
MIX_LOC = (-2.0, 0.0, 3.2, 2.5)
MIX_SCALE = (1.2, 1.0, 5.0, 2.8)
MIX_WEIGHT = (0.2, 0.3, 0.1, 0.4)


def mixture_moments():
    mean = sum(w * m for w, m in zip(MIX_WEIGHT, MIX_LOC))
    second = sum(w * (s * s + m * m) for w, m, s in zip(MIX_WEIGHT, MIX_LOC, MIX_SCALE))
    return mean, second - mean * mean


# ---------------------------------------------------------------------------
# JAX / NumPyro parts (imported in main, after x64 is switched on)
# ---------------------------------------------------------------------------

jax = jnp = numpyro = dist = MCMC = NUTS = None
diagnostics = logsumexp = None


def import_jax():
    global jax, jnp, numpyro, dist, MCMC, NUTS, diagnostics, logsumexp
    import jax as _jax
    _jax.config.update("jax_enable_x64", True)
    import jax.numpy as _jnp
    from jax.scipy.special import logsumexp as _logsumexp
    import numpyro as _numpyro
    import numpyro.distributions as _dist
    import numpyro.diagnostics as _diag
    from numpyro.infer import MCMC as _MCMC, NUTS as _NUTS
    jax, jnp, numpyro, dist, MCMC, NUTS, diagnostics = _jax, _jnp, _numpyro, _dist, _MCMC, _NUTS, _diag
    logsumexp = _logsumexp


def eight_schools_model(y, sigma):
    # posteriordb eight_schools_noncentered
    mu = numpyro.sample("mu", dist.Normal(0.0, 5.0))
    tau = numpyro.sample("tau", dist.HalfCauchy(5.0))
    with numpyro.plate("J", y.shape[0]):
        theta_trans = numpyro.sample("theta_trans", dist.Normal(0.0, 1.0))
        theta = numpyro.deterministic("theta", mu + tau * theta_trans)
        numpyro.sample("y", dist.Normal(theta, sigma), obs=y)


def logistic_model(X, y):
    d = X.shape[1]
    beta = numpyro.sample("beta", dist.Normal(jnp.zeros(d), 1.0).to_event(1))
    with numpyro.plate("N", X.shape[0]):
        numpyro.sample("obs", dist.Bernoulli(logits=X @ beta), obs=y)


def make_nuts(model, chains, warmup, draws, target_accept, split_warmup=True):
    """One jitted function (rng_key, *data) -> samples and step counts. With
    split_warmup, warm-up runs through MCMC.warmup(collect_warmup=True) so
    that its num_steps are seen; otherwise a plain MCMC.run (warm-up steps
    then unknown)."""

    def run(rng_key, *data):
        kernel = NUTS(model, target_accept_prob=target_accept)
        mcmc = MCMC(kernel, num_warmup=warmup, num_samples=draws, num_chains=chains,
                    chain_method="vectorized", progress_bar=False)
        warm_steps = None
        if split_warmup:
            k_warm, k_draw = jax.random.split(rng_key)
            mcmc.warmup(k_warm, *data, extra_fields=("num_steps",), collect_warmup=True)
            warm_steps = mcmc.get_extra_fields(group_by_chain=True)["num_steps"]
        else:
            k_draw = rng_key
        mcmc.run(k_draw, *data, extra_fields=("num_steps", "diverging"))
        extra = mcmc.get_extra_fields(group_by_chain=True)
        return mcmc.get_samples(group_by_chain=True), extra["num_steps"], extra["diverging"], warm_steps

    return jax.jit(run)


def timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    out = jax.block_until_ready(out)
    return out, time.perf_counter() - t


def run_nuts(label, model, data, chains, warmup, draws, target_accept, seed):
    """Runs the jitted sampler twice (compile + warm). Returns a dict of
    measurements and the host samples of the warm run."""
    info = {}
    fn = make_nuts(model, chains, warmup, draws, target_accept, split_warmup=True)
    log("%s: first run (trace + compile + %d chains x %d+%d)" % (label, chains, warmup, draws))
    try:
        out, t1 = timed(fn, jax.random.key(seed), *data)
    except Exception:
        traceback.print_exc()
        log("%s: MCMC.warmup + MCMC.run inside jit failed; retrying with a single MCMC.run "
            "(warm-up gradient counts will be missing)" % label)
        fn = make_nuts(model, chains, warmup, draws, target_accept, split_warmup=False)
        out, t1 = timed(fn, jax.random.key(seed), *data)
    log("%s: first run %.2f s" % (label, t1))
    del out
    log("%s: second run (new key)" % label)
    out, t2 = timed(fn, jax.random.key(seed + 1000), *data)
    log("%s: second run %.2f s" % (label, t2))
    samples, steps, diverging, warm_steps = out
    samples = {k: np.asarray(v) for k, v in samples.items()}
    steps = np.asarray(steps).astype(np.int64)
    diverging = np.asarray(diverging).astype(bool)
    info["first_run_s"] = t1
    info["second_run_s"] = t2
    info["wall_s"] = t2
    g_samp = int(steps.sum())
    lock = int(steps.max(axis=0).sum())
    info["grad_evals_sampling"] = g_samp
    if warm_steps is not None:
        warm_steps = np.asarray(warm_steps).astype(np.int64)
        info["grad_evals"] = int(warm_steps.sum()) + g_samp
        info["grad_evals_warmup"] = int(warm_steps.sum())
        info["grad_evals_lockstep"] = int(warm_steps.max(axis=0).sum()) + lock
        info["grads_include_warmup"] = True
    else:
        info["grad_evals"] = g_samp
        info["grad_evals_lockstep"] = lock
        info["grads_include_warmup"] = False
    info["grads_per_chain"] = int(round(info["grad_evals"] / chains))
    info["divergences"] = int(diverging.sum())
    info["mean_tree_steps_sampling"] = float(steps.mean())
    return info, samples


def diagnose(samples, names=None):
    """Min bulk ESS, min plain ESS and max split R-hat over all columns, and
    the columns' means."""
    ess_bulk, ess_plain, rhat, means = [], [], [], {}
    for label, x in flatten_draws(samples, names):
        means[label] = float(x.mean())
        z = rank_normalized_split(x)
        ess_bulk.append(float(np.asarray(diagnostics.effective_sample_size(z))))
        ess_plain.append(float(np.asarray(diagnostics.effective_sample_size(x))))
        rhat.append(float(np.asarray(diagnostics.split_gelman_rubin(x))))
    nanmin = lambda v: float(np.nanmin(v)) if np.any(np.isfinite(v)) else float("nan")
    nanmax = lambda v: float(np.nanmax(v)) if np.any(np.isfinite(v)) else float("nan")
    return {
        "min_ess_bulk": nanmin(ess_bulk),
        "min_ess_plain": nanmin(ess_plain),
        "max_rhat": nanmax(rhat),
        "n_columns": len(means),
    }, means


def nuts_record(case, chains, warmup, draws, target_accept, info, diag):
    r = {"case": case, "method": "NUTS", "chains": chains, "warmup": warmup, "draws": draws,
         "target_accept": target_accept, "chain_method": "vectorized"}
    r.update(info)
    r.update(diag)
    r["min_ess_bulk_kept"] = diag["min_ess_bulk"]
    r["ess_per_s"] = diag["min_ess_bulk"] / info["second_run_s"] if info["second_run_s"] > 0 else None
    r["ess_per_grad"] = diag["min_ess_bulk"] / info["grad_evals"] if info["grad_evals"] > 0 else None
    g = info["grad_evals_sampling"]
    r["ess_per_grad_sampling"] = diag["min_ess_bulk"] / g if g > 0 else None
    return r


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

ES_NAME = "eight_schools-eight_schools_noncentered"
ES_Y = [28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0]
ES_SIGMA = [15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0]
ES_TARGET_ACCEPT = 0.95  # internal/posteriordb/settings.go for this case


def case_eight_schools(em, quick, seed):
    warmup = draws = 200 if quick else 1000
    y = jnp.asarray(np.array(ES_Y))
    sigma = jnp.asarray(np.array(ES_SIGMA))
    ref = find_reference(ES_NAME)
    ok = False
    for chains in ((4, 128) if quick else (4, 1024)):
        label = "eight_schools NUTS %d chains" % chains
        try:
            info, samples = run_nuts(label, eight_schools_model, (y, sigma), chains, warmup, draws,
                                     ES_TARGET_ACCEPT, seed)
            log("%s: diagnostics" % label)
            diag, means = diagnose(samples, ["mu", "tau", "theta", "theta_trans"])
            r = nuts_record("eight_schools", chains, warmup, draws, ES_TARGET_ACCEPT, info, diag)
            r["means"] = {k: v for k, v in means.items() if k in ("mu", "tau") or k.startswith("theta[")}
            if ref is not None:
                errs = []
                for k in r["means"]:
                    p = ref.get("parameters", {}).get(k)
                    if p and p.get("sd"):
                        errs.append(abs(r["means"][k] - p["mean"]) / p["sd"])
                if errs:
                    r["max_err_sd"] = max(errs)
            else:
                r["max_err_sd_note"] = "reference.json of %s not found" % ES_NAME
            em.emit(r)
            ok = True
        except Exception as e:
            traceback.print_exc()
            em.emit({"case": "eight_schools", "method": "NUTS", "chains": chains, "warmup": warmup,
                     "draws": draws, "error": "%s: %s" % (type(e).__name__, e)})
    return ok


def case_logistic(em, data_dir, quick, seed):
    warmup = draws = 200 if quick else 1000
    chains = 4
    target = 0.8
    try:
        log("logistic: loading data from %s" % data_dir)
        Xh, yh, source = load_logistic(data_dir)
        n, d = Xh.shape
        log("logistic: N=%d D=%d (%s); moving to the device" % (n, d, source))
        X = jax.device_put(jnp.asarray(Xh))
        y = jax.device_put(jnp.asarray(yh))
        jax.block_until_ready((X, y))
        del Xh, yh
        label = "logistic NUTS %d chains" % chains
        info, samples = run_nuts(label, logistic_model, (X, y), chains, warmup, draws, target, seed)
        log("%s: diagnostics" % label)
        diag, means = diagnose(samples, ["beta"])
        r = nuts_record("logistic", chains, warmup, draws, target, info, diag)
        r["N"], r["D"], r["data"] = n, d, source
        r["means"] = {k: means[k] for k in list(means)[:4]}
        em.emit(r)
        return True
    except Exception as e:
        traceback.print_exc()
        em.emit({"case": "logistic", "method": "NUTS", "chains": chains, "warmup": warmup, "draws": draws,
                 "error": "%s: %s" % (type(e).__name__, e)})
        return False


def mixture_logpdf(x):
    terms = []
    for w, m, s in zip(MIX_WEIGHT, MIX_LOC, MIX_SCALE):
        c = math.log(w) - math.log(s) - 0.5 * math.log(2.0 * math.pi)
        u = (x - m) / s
        terms.append(c - 0.5 * u * u)
    return logsumexp(jnp.stack(terms, axis=0), axis=0)


def make_rwmh(chains, steps, scale=0.1):
    """Random-walk Metropolis on the mixture, all chains in lockstep, no
    warm-up, every chain starting at 0. Keeps per-chain running sums of x,
    x^2 and accepts (float64) and returns their totals."""

    def run(key):
        x = jnp.zeros((chains,), dtype=jnp.float64)
        lp = mixture_logpdf(x)
        zero = jnp.zeros((chains,), dtype=jnp.float64)

        def body(i, carry):
            key, x, lp, s1, s2, nacc = carry
            key, k_norm, k_unif = jax.random.split(key, 3)
            prop = x + scale * jax.random.normal(k_norm, (chains,), dtype=jnp.float64)
            lp_prop = mixture_logpdf(prop)
            log_u = jnp.log(jax.random.uniform(k_unif, (chains,), dtype=jnp.float64))
            accept = log_u < lp_prop - lp
            x = jnp.where(accept, prop, x)
            lp = jnp.where(accept, lp_prop, lp)
            return key, x, lp, s1 + x, s2 + x * x, nacc + accept.astype(jnp.float64)

        _, x, _, s1, s2, nacc = jax.lax.fori_loop(0, steps, body, (key, x, lp, zero, zero, zero))
        return jnp.sum(s1), jnp.sum(s2), jnp.sum(nacc), jnp.mean(x)

    return jax.jit(run)


def case_rwmh(em, quick, seed):
    chains = 100_000 if quick else 1_000_000
    steps = 200 if quick else 1000
    true_mean, true_var = mixture_moments()
    try:
        fn = make_rwmh(chains, steps)
        log("rwmh: first run (compile + %d chains x %d steps)" % (chains, steps))
        _, t1 = timed(fn, jax.random.key(seed))
        log("rwmh: first run %.2f s; second run" % t1)
        out, t2 = timed(fn, jax.random.key(seed + 1000))
        log("rwmh: second run %.2f s" % t2)
        s1, s2, nacc, final_mean = (float(np.asarray(v)) for v in out)
        total = float(chains) * float(steps)
        mean = s1 / total
        var = s2 / total - mean * mean
        print("rwmh_mixture: mean %.4f (true %.4f), variance %.4f (true %.4f), acceptance %.3f"
              % (mean, true_mean, var, true_var, nacc / total), flush=True)
        em.emit({
            "case": "rwmh_mixture", "method": "RWMH", "chains": chains, "warmup": 0, "draws": steps,
            "proposal_sd": 0.1, "first_run_s": t1, "second_run_s": t2, "wall_s": t2,
            "draws_per_s": total / t2 if t2 > 0 else None,
            "means": {"mean": mean, "variance": var},
            "true_mean": true_mean, "true_variance": true_var,
            "acceptance_rate": nacc / total, "final_mean": final_mean,
        })
        return True
    except Exception as e:
        traceback.print_exc()
        em.emit({"case": "rwmh_mixture", "method": "RWMH", "chains": chains, "warmup": 0, "draws": steps,
                 "error": "%s: %s" % (type(e).__name__, e)})
        return False


# ---------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="", help="folder with logistic_X.f64, logistic_y.f64, logistic.json")
    ap.add_argument("--out", default="", help="JSON-lines file the results are appended to")
    ap.add_argument("--cases", default="eight_schools,logistic,rwmh")
    ap.add_argument("--quick", action="store_true", help="fewer draws and chains (smoke run)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]

    common = {"backend": "numpyro"}
    em = Emitter(args.out, common)
    try:
        import_jax()
        devs = jax.devices()
        platform = devs[0].platform if devs else "none"
        common.update({
            "backend": "numpyro-" + ("gpu" if platform in ("gpu", "cuda") else platform),
            "device": str(devs[0]) if devs else "",
            "jax": jax.__version__, "numpyro": numpyro.__version__, "quick": bool(args.quick),
        })
        x64 = jnp.asarray(1.0).dtype == jnp.float64
        print("numpyro_bench: jax %s, numpyro %s, float64 default %s, devices %s"
              % (jax.__version__, numpyro.__version__, x64, devs), flush=True)
        if not x64:
            raise RuntimeError("jax_enable_x64 did not take effect")
        log("devices %s" % devs)
    except Exception as e:
        traceback.print_exc()
        for c in cases:
            em.emit({"case": "rwmh_mixture" if c == "rwmh" else c, "error": "import: %s: %s" % (type(e).__name__, e)})
        return 1

    ok = []
    for c in cases:
        log("case %s" % c)
        if c == "eight_schools":
            ok.append(case_eight_schools(em, args.quick, args.seed))
        elif c == "logistic":
            ok.append(case_logistic(em, args.data, args.quick, args.seed))
        elif c in ("rwmh", "rwmh_mixture"):
            ok.append(case_rwmh(em, args.quick, args.seed))
        else:
            em.emit({"case": c, "error": "unknown case (known: eight_schools, logistic, rwmh)"})
            ok.append(False)
    log("done")
    return 0 if any(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
