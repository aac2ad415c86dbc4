# Runs the posteriordb cases with rstan (Debian's r-cran-rstan) and prints one
# JSON object per case: compile time, sampling wall time (warm-up included),
# min bulk ESS, ESS/s, gradient evaluations and time per gradient.
#
#   Rscript bench/stan/run_stan.R POSTERIORDB_DIR OUT.jsonl [case ...]
#
# Compiled models are cached as CACHE_DIR/CASE.rds (env STAN_CACHE, default
# /tmp/gobayes-stan-cache) with their compile time, so a rerun samples only;
# the compile time reported is the one measured when the cache was filled.
# With STAN_COMPILE_ONLY=1 it fills the cache and samples nothing.
#
# Settings match gobayes's defaults: 4 chains, 1000 warm-up, 1000 draws,
# adapt_delta 0.8, max tree depth 10, chains run on both cores.
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE)))
source(file.path(here, "common.R"))

args <- commandArgs(trailingOnly = TRUE)
db <- args[1]
out <- args[2]
cases <- if (length(args) > 2) args[3:length(args)] else sub("\\.stan$", "", list.files(file.path(here, "models"), "\\.stan$"))
seed <- as.integer(Sys.getenv("BENCH_SEED", "1"))
# Per-case settings come from the Go driver (internal/posteriordb.CaseSettings)
# through STAN_ADAPT_DELTA and STAN_METRIC, so both tools run a case alike.
adapt_delta <- as.numeric(Sys.getenv("STAN_ADAPT_DELTA", "0.8"))
metric <- Sys.getenv("STAN_METRIC", "diag_e")
init_r <- as.numeric(Sys.getenv("STAN_INIT_R", "2"))
draws <- as.integer(Sys.getenv("STAN_DRAWS", "1000"))

for (case in cases) {
  data <- fromJSON(file.path(db, case, "data.json"), simplifyVector = TRUE)
  compiled <- cached_model(case, file.path(here, "models"))
  sm <- compiled$model
  compile_s <- compiled$compile_s
  if (Sys.getenv("STAN_COMPILE_ONLY") == "1") {
    cat(sprintf("compiled %s in %.1f s\n", case, compile_s))
    next
  }
  ctrl <- list(adapt_delta = adapt_delta, max_treedepth = 10, metric = metric)
  t0 <- Sys.time()
  fit <- suppressWarnings(sampling(sm, data = data, chains = 4, iter = 1000 + draws, warmup = 1000, init_r = init_r,
                                   cores = 2, seed = seed, refresh = 0, control = ctrl))
  wall_s <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
  arr <- as.array(fit)
  pars <- setdiff(dimnames(arr)$parameters, "lp__")
  ess <- sapply(pars, function(p) ess_bulk(arr[, , p]))
  sp <- get_sampler_params(fit, inc_warmup = TRUE)
  leapfrogs <- sum(sapply(sp, function(s) sum(s[, "n_leapfrog__"])))
  divergent <- sum(sapply(get_sampler_params(fit, inc_warmup = FALSE), function(s) sum(s[, "divergent__"])))
  chain_s <- sum(get_elapsed_time(fit))
  res <- list(case = case, tool = "stan", compile_s = compile_s, wall_s = wall_s,
              min_ess_bulk = min(ess), ess_per_s = min(ess) / wall_s, gradients = leapfrogs,
              us_per_gradient = 1e6 * chain_s / leapfrogs, divergent = divergent,
              adapt_delta = adapt_delta, metric = metric)
  line <- toJSON(res, auto_unbox = TRUE, digits = 6)
  cat(line, "\n", sep = "")
  cat(line, "\n", sep = "", file = out, append = TRUE)
}
