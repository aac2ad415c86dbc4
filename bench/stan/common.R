# Shared by bench/stan/run_stan.R and bench/seeds/stan_seeds.R: loads rstan
# and jsonlite, and cached_model compiles a case's model once, keeping it
# as CACHE_DIR/CASE.rds (env STAN_CACHE, default /tmp/gobayes-stan-cache)
# with its compile time, so that later runs only sample.
suppressMessages({
  library(rstan)
  library(jsonlite)
})
rstan_options(boost_lib = "/usr/include")
rstan_options(auto_write = FALSE)

# cached_model returns list(model, compile_s) for the case whose Stan
# program is MODELS/CASE.stan; compile_s is the time measured when the
# cache was filled.
cached_model <- function(case, models) {
  cache <- file.path(Sys.getenv("STAN_CACHE", "/tmp/gobayes-stan-cache"), paste0(case, ".rds"))
  if (file.exists(cache)) {
    return(readRDS(cache))
  }
  t0 <- Sys.time()
  sm <- stan_model(file.path(models, paste0(case, ".stan")), model_name = gsub("[^A-Za-z0-9]", "_", case))
  compiled <- list(model = sm, compile_s = as.numeric(difftime(Sys.time(), t0, units = "secs")))
  dir.create(dirname(cache), showWarnings = FALSE, recursive = TRUE)
  saveRDS(compiled, cache)
  compiled
}
