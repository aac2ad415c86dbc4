# mpi: the rank program of the "mpi" backend (accel/mpi, cmd/gobayes-mpi),
# linked with Debian's Open MPI through cgo under the build tag mpi. The
# default build stays pure Go; `make test` installs Open MPI (about 60 MB,
# 20–40 s of apt on CI) and runs the MPI tests with 2 and 3 ranks.

# iproute2: ip brings up the loopback of the network namespace a local job
# runs in (accel/mpi isolated).
DEB_EXTRA += openmpi-bin libopenmpi-dev pkgconf iproute2
MPI_WORKER := $(CURDIR)/bin/gobayes-mpi

.PHONY: mpi test-mpi
TEST_TARGETS += test-mpi

# Builds the rank program beside bin/gobayes, where the kernel looks for it.
mpi:
	@mkdir -p bin
	$(GO) build -tags mpi -o $(MPI_WORKER) ./cmd/gobayes-mpi

# GOBAYES_REQUIRE_MPI: a missing mpirun or rank program fails the tests
# instead of skipping them.
test-mpi: mpi
	$(GO) vet -tags mpi ./accel/mpi/... ./cmd/gobayes-mpi
	GOBAYES_REQUIRE_MPI=1 $(GO) test -count=1 ./accel/mpi/...
	GOBAYES_REQUIRE_MPI=1 $(GO) test -count=1 -run MPI ./ppl

# The notebooks and `make run` start MPI jobs from cells: the rank program
# must be beside bin/gobayes.
run test-notebooks test-browser test-jupyter: mpi
