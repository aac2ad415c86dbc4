data { int<lower=1> N; int<lower=1> K; vector[N] y; }
parameters { simplex[K] theta1; simplex[K] theta2; positive_ordered[K] mu; }
model {
  vector[K] log_theta[K];
  vector[K] acc;
  vector[K] gamma[N];
  log_theta[1] = log(theta1);
  log_theta[2] = log(theta2);
  target += normal_lpdf(mu[1] | 3, 1);
  target += normal_lpdf(mu[2] | 10, 1);
  for (k in 1:K) gamma[1, k] = normal_lpdf(y[1] | mu[k], 1);
  for (t in 2:N) {
    for (k in 1:K) {
      for (j in 1:K) acc[j] = gamma[t - 1, j] + log_theta[j, k] + normal_lpdf(y[t] | mu[k], 1);
      gamma[t, k] = log_sum_exp(acc);
    }
  }
  target += log_sum_exp(gamma[N]);
}
