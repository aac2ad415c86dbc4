# Runs one posteriordb case with rstan (Debian's r-cran-rstan) over seeds
# 1..N in one R process and writes a CSV row per seed, the columns that
# `go run ./bench/seeds -csv` writes for gobayes:
#
#   Rscript bench/seeds/stan_seeds.R POSTERIORDB_DIR CASE N OUT.csv [FIRST]
#
# runs seeds FIRST..N (FIRST defaults to 1; with FIRST > 1 the rows are
# appended to OUT.csv without a header, to extend a table).
# 4 chains, 1000 warm-up, 1000 draws, max tree depth 10, init uniform(-2, 2);
# adapt_delta from STAN_ADAPT_DELTA (default 0.95, the centred eight schools'
# setting in internal/posteriordb.CaseSettings). Gradients are the sum of
# n_leapfrog over all iterations, warm-up included; step size and tree depth
# are the means over chains and draws. The compiled model is cached as
# bench/stan/run_stan.R caches it (STAN_CACHE, default /tmp/gobayes-stan-cache).
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE)))
source(file.path(here, "..", "stan", "common.R"))

args <- commandArgs(trailingOnly = TRUE)
db <- args[1]
case <- args[2]
nseeds <- as.integer(args[3])
out <- args[4]
first <- if (length(args) > 4) as.integer(args[5]) else 1L
adapt_delta <- as.numeric(Sys.getenv("STAN_ADAPT_DELTA", "0.95"))

data <- fromJSON(file.path(db, case, "data.json"), simplifyVector = TRUE)
sm <- cached_model(case, file.path(here, "..", "stan", "models"))$model

if (first == 1L) cat("tool,seed,min_ess_bulk,gradients,ess_per_1e4_grad,divergent,step_size,tree_depth,accept_stat,dense_chains\n", file = out)
for (seed in first:nseeds) {
  fit <- suppressWarnings(sampling(sm, data = data, chains = 4, iter = 2000, warmup = 1000, init_r = 2,
                                   cores = 1, seed = seed, refresh = 0,
                                   control = list(adapt_delta = adapt_delta, max_treedepth = 10)))
  arr <- as.array(fit)
  pars <- setdiff(dimnames(arr)$parameters, "lp__")
  ess <- min(sapply(pars, function(p) ess_bulk(arr[, , p])))
  all <- get_sampler_params(fit, inc_warmup = TRUE)
  post <- get_sampler_params(fit, inc_warmup = FALSE)
  grads <- sum(sapply(all, function(s) sum(s[, "n_leapfrog__"])))
  div <- sum(sapply(post, function(s) sum(s[, "divergent__"])))
  eps <- mean(sapply(post, function(s) s[1, "stepsize__"]))
  depth <- mean(sapply(post, function(s) mean(s[, "treedepth__"])))
  acc <- mean(sapply(post, function(s) mean(s[, "accept_stat__"])))
  row <- sprintf("stan,%d,%.2f,%.0f,%.4f,%d,%.5f,%.3f,%.4f,0\n", seed, ess, grads, 1e4 * ess / grads, div, eps, depth, acc)
  cat(row)
  cat(row, file = out, append = TRUE)
}
