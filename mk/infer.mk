# Inference: validation of the samplers on the reference posteriors.
# `make validate` runs every case of ../shared/posteriordb (SAMPLER=nuts,
# hmc or rwmh) and ends with "N passed, M failed".
SAMPLER ?= nuts
VALIDATE_FLAGS ?=

.PHONY: validate
validate:
	$(GO) run ./cmd/validate -sampler $(SAMPLER) $(VALIDATE_FLAGS)

# The full set takes about 2-3 minutes on 2 idle cores (much longer on a
# loaded machine), within CI's 10 minutes: it runs in `make test`.
TEST_TARGETS += validate
