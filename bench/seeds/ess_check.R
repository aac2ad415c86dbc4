# Computes rstan's minimum bulk ESS of draws that `go run ./bench/seeds
# -draws DIR` wrote, so gobayes's estimator can be checked against rstan's
# on the same draws:
#
#   Rscript bench/seeds/ess_check.R DIR
#
# prints "seed-N.csv <rstan min bulk ESS> <column>" per file.
suppressMessages(library(rstan))
dir <- commandArgs(trailingOnly = TRUE)[1]
for (f in list.files(dir, "^seed-[0-9]+\\.csv$")) {
  d <- read.csv(file.path(dir, f), check.names = FALSE)
  chains <- sort(unique(d$chain))
  ess <- sapply(setdiff(names(d), "chain"), function(col) {
    m <- sapply(chains, function(c) d[d$chain == c, col])
    ess_bulk(m)
  })
  cat(sprintf("%s %.2f %s\n", f, min(ess), names(ess)[which.min(ess)]))
}
