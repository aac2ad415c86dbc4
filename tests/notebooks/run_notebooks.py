"""Executes the tutorial notebooks (notebooks/0[1-9]*.ipynb) top to bottom
in a fresh gobayes kernel, as `jupyter nbconvert --execute` does, and checks
the outputs that matter in each: no cell errs or writes to stderr, the
summary tables have the expected rows, the diagnostics say what the
tutorial says they say, and every plot cell shows a PNG.

    /usr/bin/python3 tests/notebooks/run_notebooks.py [--save] [NAME ...]

The kernelspec is installed from bin/gobayes (GOBAYES_BIN overrides it)
into a temporary prefix, so the user's Jupyter setup plays no part. NAME
picks notebooks whose file name contains it. --save writes each executed
notebook back over its source (how the committed outputs are refreshed).
Prints one line per notebook and ends with "N passed, M failed".

The saved outputs are what a fresh run gives: every number a notebook
prints from its seeds (summaries, divergences, step sizes, figure
captions) is compared with the fresh run's, and a difference fails the
notebook; only wall-clock figures (a number followed by a unit of time,
the per-second columns) are left out. A notebook saved at another size
(08 at its full 10⁶ rows, recorded in its metadata) is compared only when
run at that size.
"""
import argparse
import base64
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("GOBAYES_BIN") or os.path.join(ROOT, "bin", "gobayes")
KERNEL = "gobayes"
# A notebook must run well under a minute; this bounds one cell
# (GOBAYES_CELL_TIMEOUT raises it for a full-size run of notebook 08).
CELL_TIMEOUT = int(os.environ.get("GOBAYES_CELL_TIMEOUT", "120"))
# Notebook 08 simulates 10⁶ rows; the tests run it at this many unless
# GOBAYES_TUTORIAL_ROWS says otherwise (the notebook reads the variable).
# --save leaves 08's saved full-size run alone unless the size is given.
ROWS_GIVEN = "GOBAYES_TUTORIAL_ROWS" in os.environ
os.environ.setdefault("GOBAYES_TUTORIAL_ROWS", "5000")


class Check(Exception):
    """A check of a notebook's outputs that failed."""


def cell(nb, tag):
    for c in nb.cells:
        if c.cell_type == "code" and tag in c.metadata.get("tags", []):
            return c
    raise Check("no cell tagged %r" % tag)


def stdout(nb, tag):
    return "".join(o.text for o in cell(nb, tag).outputs if o.output_type == "stream" and o.name == "stdout")


def result(nb, tag, mime="text/plain"):
    """The execute_result of the tagged cell in the given MIME type."""
    for o in cell(nb, tag).outputs:
        if o.output_type == "execute_result" and mime in o.data:
            return o.data[mime]
    raise Check("cell %r has no %s result" % (tag, mime))


def png(nb, tag):
    """The PNG the tagged cell shows, checked to be a real PNG image."""
    for o in cell(nb, tag).outputs:
        if o.output_type in ("execute_result", "display_data") and "image/png" in o.data:
            data = base64.b64decode(o.data["image/png"])
            if not data.startswith(b"\x89PNG\r\n\x1a\n") or len(data) < 2000:
                raise Check("cell %r: the image/png output is not a plausible PNG (%d bytes)" % (tag, len(data)))
            return data
    raise Check("cell %r shows no PNG (outputs: %s)" % (tag, [o.output_type for o in cell(nb, tag).outputs]))


def summary_rows(text):
    """The row names of a summary table in its text form."""
    rows = []
    for line in text.splitlines()[2:]:
        if not line or line.startswith(("warning:", "…")):
            break
        rows.append(line.split()[0])
    return rows


def summary_column(text, row, column):
    """One number of a summary table in its text form, by row and column name."""
    lines = text.splitlines()
    header = lines[1].split()
    for line in lines[2:]:
        f = line.split()
        if f and f[0] == row:
            return float(f[1 + header.index(column)])
    raise Check("summary has no row %r:\n%s" % (row, text))


def number(text, pattern, tag):
    m = re.search(pattern, text)
    if not m:
        raise Check("cell %r: output %r does not match %r" % (tag, text, pattern))
    return float(m.group(1))


def expect(cond, msg):
    if not cond:
        raise Check(msg)


def check_plots(nb):
    """Every cell tagged plot-… shows a PNG."""
    for c in nb.cells:
        for t in c.metadata.get("tags", []):
            if t.startswith("plot-"):
                png(nb, t)


def check_eight_schools(nb):
    named = result(nb, "named-fit")
    expect("theta[Phillips Andover]" in named and "warning:" not in named, "the named fit:\n" + named)
    cmp = result(nb, "loo-compare")
    diffs = [float(x) for x in re.findall(r"^\S+\s+\d+\s+-?[\d.]+\s+[\d.]+\s+([\d.]+)", cmp, re.M)]
    expect(len(diffs) == 2 and diffs[0] == 0 and diffs[1] < 1, "the comparison's elpd_diff column:\n" + cmp)
    png(nb, "plot-compare")
    svg = result(nb, "centred-graph", "image/svg+xml")
    expect(svg.startswith("<svg") and svg.count('class="node ') == 4 and "plate" in svg,
           "the model graph is not an SVG of 4 nodes with a plate:\n" + svg[:300])
    maths = result(nb, "centred-latex", "text/markdown")
    expect(maths.count("$$") == 8 and "$$\\theta \\sim \\operatorname{Normal}" in maths and "&" not in maths,
           "the model's LaTeX:\n" + maths)
    theta = ["theta[%d]" % i for i in range(8)]
    text = result(nb, "centred-fit")
    expect(summary_rows(text) == ["mu", "tau"] + theta,
           "centred summary rows %s, want mu, tau, theta[0..7]" % summary_rows(text))
    expect("divergent" in text, "the centred summary does not warn of divergences:\n" + text)
    html = result(nb, "centred-fit", "text/html")
    expect("<table" in html and "theta[7]" in html, "the centred fit's HTML is not the summary table")
    centred = number(stdout(nb, "centred-divergences"), r"(\d+) of \d+ draws divergent", "centred-divergences")
    expect(centred > 0, "the centred fit has no divergences; the tutorial explains them")
    nc = result(nb, "noncentred-fit")
    rows = summary_rows(nc)
    for r in ["mu", "tau"] + theta:
        expect(r in rows, "non-centred summary lacks %s: %s" % (r, rows))
    ncdiv = number(stdout(nb, "noncentred-divergences"), r"(\d+) of \d+ draws divergent", "noncentred-divergences")
    expect(ncdiv < centred, "non-centred divergences %d, centred %d: the tutorial says fewer" % (ncdiv, centred))
    # Both fits should agree on mu within a few MCSE-scale units; the
    # data's pooled mean is about 7.7 (Rubin 1981; Gelman et al. BDA3 §5.5)
    # and the posterior mean of mu is about 4.4 under these priors (Stan's
    # case study), so a sane fit lands between 2 and 7.
    mu = summary_column(nc, "mu", "mean")
    expect(2 < mu < 7, "non-centred posterior mean of mu %.2f outside (2, 7)" % mu)
    # tau redefined with a half-normal prior: the listing shows it, theta
    # still reads it, and the refit's tau is the new prior's.
    listing = result(nb, "redefine-prior")
    expect("tau ~ HalfNormal(5)" in listing and "HalfCauchy" not in listing and "theta[8] = " in listing,
           "the model after tau's cell ran again:\n" + listing)
    refit = result(nb, "redefined-fit")
    expect(summary_rows(refit) == ["mu", "tau"], "the refit's summary rows: %s" % summary_rows(refit))
    expect(summary_column(refit, "tau", "hdi_97%") < summary_column(nc, "tau", "hdi_97%"),
           "tau's upper interval under the half-normal prior is not below the half-Cauchy's:\n" + refit)
    csv = stdout(nb, "stan-csv")
    expect(csv.count(".csv") >= 4, "the Stan CSV cell does not list 4 files:\n" + csv)
    back = stdout(nb, "stan-csv-back")
    expect("4 chains" in back, "reading the Stan CSV back does not give 4 chains:\n" + back)


def summary_interval(text, row):
    return summary_column(text, row, "hdi_3%"), summary_column(text, row, "hdi_97%")


def check_regression(nb):
    normal, robust = result(nb, "normal-fit"), result(nb, "robust-fit")
    expect(summary_rows(normal) == ["alpha", "beta[0]", "beta[1]", "sigma"],
           "normal regression summary rows %s" % summary_rows(normal))
    expect(summary_rows(robust) == ["alpha", "beta[0]", "beta[1]", "sigma", "nu"],
           "Student-t regression summary rows %s" % summary_rows(robust))
    for text in (normal, robust):
        expect("warning:" not in text, "a regression fit has warnings:\n" + text)
    # The values the notebook simulates from (its data cell): alpha 1,
    # beta (2, -1), noise 0.5 * t_3; the robust fit's 94% HDIs cover them.
    for row, truth in [("alpha", 1.0), ("beta[0]", 2.0), ("beta[1]", -1.0), ("sigma", 0.5)]:
        lo, hi = summary_interval(robust, row)
        expect(lo < truth < hi, "Student-t fit: %s's 94%% HDI [%g, %g] misses the true %g" % (row, lo, hi, truth))
    loo = stdout(nb, "loo")
    elpd = [float(x) for x in re.findall(r"PSIS-LOO: elpd (-?[\d.]+)", loo)]
    expect(len(elpd) == 2 and elpd[1] > elpd[0], "LOO does not prefer the Student-t model:\n" + loo)
    expect("Pareto k" in loo, "the LOO lines do not report Pareto k:\n" + loo)
    # The same model written with LogDensity has the same mode.
    mode = result(nb, "map").split("\n", 1)
    hand = result(nb, "logdensity-map").split("\n", 1)
    expect("MAP" in mode[0] and "nu = " in mode[1], "MAP output:\n" + "\n".join(mode))
    expect(mode[1] == hand[1], "the LogDensity model's MAP differs:\n%s\nvs\n%s" % (mode[1], hand[1]))
    advi = result(nb, "advi")
    expect("ADVI" in advi and "nu" in summary_rows("\n".join(advi.splitlines()[1:])), "ADVI output:\n" + advi)


def check_time_series(nb):
    garch, hmm = result(nb, "garch-fit"), result(nb, "hmm-fit")
    expect(summary_rows(garch) == ["mu", "alpha0", "alpha1", "beta1", "persistence"],
           "GARCH summary rows %s" % summary_rows(garch))
    expect(summary_rows(hmm) == ["theta1[0]", "theta1[1]", "theta2[0]", "theta2[1]", "mu[0]", "mu[1]"],
           "HMM summary rows %s" % summary_rows(hmm))
    for text in (garch, hmm):
        expect("warning:" not in text, "a time-series fit has warnings:\n" + text)
    # The bound beta1 < 1 - alpha1 holds in every draw, so in the HDI too.
    expect(summary_column(garch, "persistence", "hdi_97%") < 1, "persistence reaches 1:\n" + garch)
    # The values the notebook simulates from (its data cells) lie in the 94% HDIs.
    for text, truths in [(garch, [("mu", 0.1), ("alpha0", 0.2), ("alpha1", 0.3), ("beta1", 0.5)]),
                         (hmm, [("mu[0]", 3), ("mu[1]", 10), ("theta1[0]", 0.9), ("theta2[1]", 0.8)])]:
        for row, truth in truths:
            lo, hi = summary_interval(text, row)
            expect(lo < truth < hi, "%s's 94%% HDI [%g, %g] misses the true %g" % (row, lo, hi, truth))


def check_many_chains(nb):
    theta = ["theta[%d]" % i for i in range(8)]
    fits = {}
    for tag, sampler in [("chees-fit", "ChEES"), ("meads-fit", "MEADS")]:
        text = result(nb, tag)
        expect(sampler + ", 16 kept of 1024 chains" in text.splitlines()[0], "%s caption: %s" % (tag, text.splitlines()[0]))
        expect(summary_rows(text) == ["mu", "tau"] + theta, "%s summary rows %s" % (tag, summary_rows(text)))
        fits[sampler] = text
    # Two samplers of one posterior agree within their Monte Carlo errors
    # (5 combined MCSEs: a false alarm about once in 10^6 runs).
    for row in ["mu", "tau", "theta[0]"]:
        a, b = (summary_column(fits[s], row, "mean") for s in ("ChEES", "MEADS"))
        ea, eb = (summary_column(fits[s], row, "mcse_mean") for s in ("ChEES", "MEADS"))
        expect(abs(a - b) < 5 * (ea * ea + eb * eb) ** 0.5,
               "ChEES and MEADS disagree on %s: %g ± %g vs %g ± %g" % (row, a, ea, b, eb))
    expect("wall time: NUTS" in stdout(nb, "plot-forest-samplers"), "no wall-time line")


def check_csv_glm(nb):
    listing = result(nb, "glm-model")
    for want in ("GLM accidents ~ traffic + layout + (1 | district), family poisson (log link)",
                 "traffic ~ Normal(0,", "layout[layout_level=2] ~ Normal(0,", "1|district_sigma ~ HalfNormal(1)",
                 "log_years_data[300] = data", "accidents[300] ~ PoissonLog("):
        expect(want in listing, "the GLM's listing lacks %r:\n%s" % (want, listing))
    expect("traffic: Normal(0, 0.691) → Normal(0, 0.5)" in stdout(nb, "set-prior"), "SetPrior did not say what changed")
    err = [o for o in cell(nb, "formula-error").outputs if o.output_type == "error"]
    expect(err and 'no column "trafic"' in err[0].evalue and "junction, district, layout, traffic" in err[0].evalue,
           "the formula's typo is not named with the table's columns")
    fit = result(nb, "glm-fit")
    rows = summary_rows(fit)
    expect(rows[:5] == ["Intercept", "traffic", "layout[roundabout]", "layout[tjunction]", "1|district_sigma"] and len(rows) == 20,
           "GLM summary rows %s" % rows)
    expect("warning:" not in fit, "the GLM fit has warnings:\n" + fit)
    # The data were simulated with traffic 0.1, roundabout -0.6 and a district sd of 0.4.
    for row, truth in [("traffic", 0.1), ("layout[roundabout]", -0.6), ("1|district_sigma", 0.4)]:
        lo, hi = summary_interval(fit, row)
        expect(lo < truth < hi, "GLM fit: %s's 94%% HDI [%g, %g] misses the true %g" % (row, lo, hi, truth))
    png(nb, "plot-forest")
    pred = stdout(nb, "predict")
    rates = dict(re.findall(r"^(P\d) .*expect ([\d.]+) accidents a year", pred, re.M))
    expect(sorted(rates) == ["P1", "P2", "P3", "P4"], "predictions for the four planned junctions:\n" + pred)
    expect(float(rates["P2"]) < float(rates["P1"]) < float(rates["P4"]), "the roundabout (P2) should expect fewer accidents than the crossroads (P1), the busy P4 most:\n" + pred)
    groups = stdout(nb, "export")
    for g in ("posterior", "posterior_predictive", "predictions", "predictions_constant_data", "observed_data"):
        expect(g in groups.split("groups written:")[-1].replace(",", " ").split(), "the export lacks %s: %s" % (g, groups))


def check_glm(nb):
    logit = result(nb, "logit-fit")
    expect(summary_rows(logit) == ["alpha", "beta[0]", "beta[1]"], "logistic summary rows %s" % summary_rows(logit))
    expect("warning:" not in logit, "the logistic fit has warnings:\n" + logit)
    # The notebook simulates alpha -0.5, beta (1.5, -1).
    for row, truth in [("alpha", -0.5), ("beta[1]", -1.0)]:
        lo, hi = summary_interval(logit, row)
        expect(lo < truth < hi, "logistic fit: %s's 94%% HDI [%g, %g] misses the true %g" % (row, lo, hi, truth))
    listing = result(nb, "logit-model")
    expect("X[300,2] = data" in listing and "(observed: y)" in listing, "the model listing does not show the containers:\n" + listing)
    acc = stdout(nb, "logit-accuracy")
    expect("predictions for [100] test rows" in acc, "WithData did not predict the 100 test rows:\n" + acc)
    held = number(acc, r"held-out accuracy: ([\d.]+)", "logit-accuracy")
    expect(0.7 < held <= 1, "held-out accuracy %g" % held)
    after = result(nb, "poisson-setdata")
    expect("events[3] ~" in after and "no data of this shape" in after, "after SetData the listing should show events[3] without data:\n" + after)
    pred = stdout(nb, "poisson-predict")
    rows = re.findall(r"expect +([\d.]+) events .*gives +([\d.]+)\)", pred)
    expect(len(rows) == 3, "three new regions predicted:\n" + pred)
    for got, rate in rows:
        expect(abs(float(got) - float(rate)) < 0.1 * float(rate) + 0.05, "predictive mean %s far from the fitted rate %s" % (got, rate))
    refuse = stdout(nb, "poisson-refuse")
    expect("events" in refuse and "SetData" in refuse, "Sample after a new shape is not refused:\n" + refuse)
    png(nb, "plot-poisson-ppc")


def check_survival(nb):
    fit = result(nb, "survival-fit")
    expect(summary_rows(fit) == ["a", "b", "k"], "survival summary rows %s" % summary_rows(fit))
    expect("warning:" not in fit, "the censored fit has warnings:\n" + fit)
    # The notebook simulates a = log 12, b = log 1.8, k = 1.5.
    for row, truth in [("a", 2.4849), ("b", 0.5878), ("k", 1.5)]:
        lo, hi = summary_interval(fit, row)
        expect(lo < truth < hi, "censored fit: %s's 94%% HDI [%g, %g] misses the true %g" % (row, lo, hi, truth))
    maths = result(nb, "survival-model", "text/markdown")
    expect("\\text{censored}" in maths, "the model's LaTeX does not say months are censored:\n" + maths)
    med = stdout(nb, "survival-naive")
    rows = dict((m[0], (float(m[1]), float(m[2]))) for m in re.findall(r"(weibull_\w+) +median survival, control: +[\d.]+ months \(94% interval +([\d.]+) to +([\d.]+)\)", med))
    truth = number(med, r"truth +median survival, control: +([\d.]+)", "survival-naive")
    expect(set(rows) == {"weibull_censored", "weibull_naive"}, "median survival lines:\n" + med)
    expect(rows["weibull_censored"][0] < truth < rows["weibull_censored"][1], "the censored model's interval misses the truth:\n" + med)
    expect(rows["weibull_naive"][1] < truth, "the naive model's interval should lie below the truth:\n" + med)
    png(nb, "plot-survival")
    png(nb, "plot-time-ratio")
    mix = result(nb, "mixture-fit")
    expect(summary_rows(mix) == ["w", "mu[0]", "mu[1]", "sd[0]", "sd[1]"], "mixture summary rows %s" % summary_rows(mix))
    cp = stdout(nb, "changepoint-day")
    day = number(cp, r"most probably changed on day (\d+)", "changepoint-day")
    expect(abs(day - 25) <= 2, "the changepoint's most probable day:\n" + cp)
    expect(summary_rows(result(nb, "changepoint-fit")) == ["early", "late"], "changepoint summary rows")
    png(nb, "changepoint-day")
    probs = [float(x) for x in re.findall(r"P\(guess\) = ([\d.]+)", stdout(nb, "mixture-membership"))]
    expect(len(probs) == 5 and probs == sorted(probs, reverse=True) and probs[0] > 0.95 and probs[-1] < 0.05,
           "membership probabilities %s" % probs)


def check_big_data(nb):
    rows = int(os.environ["GOBAYES_TUTORIAL_ROWS"])
    expect(("%d rows × 100 predictors" % rows) in stdout(nb, "data"), "the data cell: " + stdout(nb, "data"))
    # The model reads the data from the .npy files the data cell wrote.
    opened = stdout(nb, "open-files")
    expect(("X.npy: a matrix of %d rows × 100 columns" % rows) in opened and ("y.npy: %d outcomes" % rows) in opened,
           "the files opened: " + opened)
    expect("sharded" in stdout(nb, "plan"), "the shard plan: " + stdout(nb, "plan"))
    local, job = result(nb, "fit-local"), result(nb, "fit-mpi")
    for fit in (local, job):
        expect(summary_rows(fit) == ["alpha", "beta[0]", "beta[1]", "beta[2]"], "summary rows %s" % summary_rows(fit))
    expect("on mpi (Open MPI" in job and "2 ranks" in job and "blocks of rows over 2 ranks" in job,
           "the MPI fit's caption does not say where it ran:\n" + job.splitlines()[0])
    expect(" on mpi" not in local, "the local fit claims MPI")
    cmp = stdout(nb, "compare")
    worst = number(cmp, r"largest difference of the two runs' means: ([\d.]+) posterior sd", "compare")
    expect(worst < 0.35, "the two runs' means differ by %g posterior sd" % worst)
    covered = number(cmp, r"94% intervals covering the true coefficient: (\d+) of 100", "compare")
    expect(covered >= 82, "only %d of 100 intervals cover the true coefficient" % covered)
    png(nb, "plot-forest")


CHECKS = {
    "09-csv-glm-predictions": check_csv_glm,
    "08-big-data-mpi": check_big_data,
    "07-survival-and-mixtures": check_survival,
    "06-glm-data-containers": check_glm,
    "05-many-chains": check_many_chains,
    "04-time-series-scan": check_time_series,
    "02-eight-schools": check_eight_schools,
    "03-regression-and-checks": check_regression,
}


# A wall-clock figure: a number followed by a unit of time.
TIMING = re.compile(r"\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\s?(?:s|ms|µs|us|ns|min|h)\b")
NUMBER = re.compile(r"^(?:-?[\d.]+(?:e[-+]?\d+)?\*?|—)$")


def seeded_lines(text):
    """The lines of an output with its wall-clock figures masked: numbers
    with a unit of time, and a table's last column when its header is a
    rate (ess_bulk/s). Whitespace is collapsed, since a masked figure's
    width moves the columns."""
    out, rate_column = [], False
    for line in text.split("\n"):
        toks = line.split()
        if toks and toks[-1].endswith("/s") and not any(ch.isdigit() for ch in toks[-1]):
            rate_column, toks = True, toks[:-1]
        elif rate_column and toks and NUMBER.match(toks[-1]) and not line.startswith("warning:"):
            toks = toks[:-1]
        else:
            rate_column = rate_column and bool(toks) and not line.startswith("warning:")
        out.append(TIMING.sub("<time>", " ".join(toks)))
    return out


def outputs_text(c):
    """What a code cell printed as text: its streams and the text/plain of
    its results and displays."""
    parts = []
    for o in c.outputs:
        # A stream arrives in chunks that differ from run to run: join them.
        if o.output_type == "stream":
            if parts and parts[-1][0] == o.name:
                parts[-1][1] += o.text
            else:
                parts.append([o.name, o.text])
        elif o.output_type in ("execute_result", "display_data"):
            parts.append(["", o.data.get("text/plain", "")])
        elif o.output_type == "error":
            parts.append(["", "%s: %s" % (o.ename, o.evalue)])
    return "\n".join(text.rstrip("\n") for _, text in parts)


def differences(saved, fresh, limit=3):
    """Where a fresh run's text outputs differ from the saved ones, cell by
    cell: the first differing line of at most limit cells."""
    found = []
    for i, (s, f) in enumerate(zip(saved, fresh)):
        a, b = seeded_lines(s), seeded_lines(f)
        if a == b:
            continue
        for x, y in zip(a + [""] * len(b), b + [""] * len(a)):
            if x != y:
                found.append("cell %d saved %r, a fresh run %r" % (i, x, y))
                break
        if len(found) == limit:
            break
    return found


def size_setting(name):
    """The size a notebook runs at, where it reads one from the environment."""
    return {"tutorial_rows": int(os.environ["GOBAYES_TUTORIAL_ROWS"])} if name.startswith("08-") else {}


def run(path, save):
    import nbformat
    from nbclient import NotebookClient

    name = os.path.splitext(os.path.basename(path))[0]
    nb = nbformat.read(path, as_version=4)
    saved = [outputs_text(c) for c in nb.cells if c.cell_type == "code"]
    saved_at = nb.metadata.get("gobayes", {})
    for c in nb.cells:
        if c.cell_type == "code":
            c.outputs = []
            c.execution_count = None
    work = tempfile.mkdtemp(prefix="gobayes-nb-")
    start = time.monotonic()
    try:
        NotebookClient(nb, kernel_name=KERNEL, timeout=CELL_TIMEOUT, allow_errors=True,
                       resources={"metadata": {"path": work}}).execute()
    except Exception as e:  # the kernel died or a cell timed out
        return name, time.monotonic() - start, "%s: %s" % (type(e).__name__, e)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    elapsed = time.monotonic() - start
    problems = []
    for i, c in enumerate(nb.cells):
        if c.cell_type != "code":
            continue
        if any(line.startswith("\t") for line in c.source.split("\n")):
            problems.append("cell %d indents with tabs: Notebook 6 draws each tab as an arrow; indent with 4 spaces" % i)
        expects_error = "raises-exception" in c.metadata.get("tags", [])
        if expects_error and not any(o.output_type == "error" for o in c.outputs):
            problems.append("cell %d is tagged raises-exception but shows no error" % i)
        for o in c.outputs:
            if o.output_type == "error" and not expects_error:
                problems.append("cell %d: %s: %s" % (i, o.ename, o.evalue))
            elif o.output_type == "stream" and o.name == "stderr":
                problems.append("cell %d wrote to stderr: %s" % (i, o.text.strip()))
    if not problems:
        try:
            check_plots(nb)
            if name in CHECKS:
                CHECKS[name](nb)
        except Check as e:
            problems.append(str(e))
    if not save and saved_at == size_setting(name):
        diff = differences(saved, [outputs_text(c) for c in nb.cells if c.cell_type == "code"])
        if diff:
            problems.append("the saved outputs are not what a fresh run gives (make refresh-notebooks): " + "; ".join(diff))
    if save and size_setting(name) and not ROWS_GIVEN:
        print("not saving %s: its saved outputs are a run at %s; set GOBAYES_TUTORIAL_ROWS to save one"
              % (name, saved_at or "an unrecorded size"))
    elif save:
        if size_setting(name):
            nb.metadata["gobayes"] = size_setting(name)
        else:
            nb.metadata.pop("gobayes", None)
        for c in nb.cells:
            c.metadata.pop("execution", None)
        nbformat.write(nb, path)
    return name, elapsed, "; ".join(problems)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true", help="write executed notebooks back over their sources")
    ap.add_argument("names", nargs="*", help="only notebooks whose file name contains one of these")
    args = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(ROOT, "notebooks", "0[1-9]*.ipynb")))
    if args.names:
        paths = [p for p in paths if any(n in os.path.basename(p) for n in args.names)]
    if not os.access(BIN, os.X_OK):
        print("tests/notebooks: %s is missing; run make build first" % BIN)
        print("0 passed, 1 failed")
        return 1
    if not paths:
        print("tests/notebooks: no notebooks matched")
        print("0 passed, 1 failed")
        return 1
    tmp = tempfile.mkdtemp(prefix="gobayes-notebooks.")
    try:
        subprocess.run([BIN, "install", "--prefix", os.path.join(tmp, "prefix")], check=True,
                       stdout=subprocess.DEVNULL)
        os.environ.update({
            "JUPYTER_PATH": os.path.join(tmp, "prefix", "share", "jupyter"),
            "JUPYTER_DATA_DIR": os.path.join(tmp, "data"),
            "JUPYTER_RUNTIME_DIR": os.path.join(tmp, "runtime"),
            "JUPYTER_CONFIG_DIR": os.path.join(tmp, "config"),
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        })
        passed = failed = 0
        for p in paths:
            name, secs, problem = run(p, args.save)
            if problem:
                failed += 1
                print("FAIL %s (%.1f s): %s" % (name, secs, problem))
            else:
                passed += 1
                print("ok   %s (%.1f s)" % (name, secs))
            sys.stdout.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
