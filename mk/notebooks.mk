# notebooks: the tutorial notebooks (notebooks/02-… onwards) executed top to
# bottom in a fresh gobayes kernel, their outputs checked (tests/notebooks).

TEST_TARGETS += test-notebooks

.PHONY: test-notebooks refresh-notebooks

# Ends with "N passed, M failed".
test-notebooks: build
	$(PY) tests/notebooks/run_notebooks.py

# Re-executes the tutorial notebooks and saves them with their outputs.
refresh-notebooks: build
	$(PY) tests/notebooks/run_notebooks.py --save
