# browser: the tutorial notebooks in Jupyter Notebook 6 in headless Chromium
# (tests/browser): Run All, then no error, every image and summary table
# shown; a live progress table, the toolbar's interrupt, a slider widget
# redrawing a plot (Debian's jupyter-js-widgets front-end) and Tab completion;
# screenshots in tests/browser/screenshots (SCREENSHOTS overrides it).
# Debian's chromium and nodejs come from DEB_PACKAGES; playwright-core from
# npm, pinned by tests/browser/package-lock.json, never downloads a browser.

BROWSER_TESTS := tests/browser
# npm ci rewrites node_modules/.package-lock.json: it stands for the install.
BROWSER_MODULES := $(BROWSER_TESTS)/node_modules/.package-lock.json

TEST_TARGETS += test-browser

.PHONY: test-browser

# Ends with "N passed, M failed". A word in NOTEBOOKS picks notebooks (or
# "interactions"): make test-browser NOTEBOOKS=02
test-browser: build $(BROWSER_MODULES)
	$(BROWSER_TESTS)/run.sh $(NOTEBOOKS)

$(BROWSER_MODULES): $(BROWSER_TESTS)/package.json $(BROWSER_TESTS)/package-lock.json
	@command -v npm >/dev/null || { echo "test-browser: npm is missing; make deps installs Debian's nodejs and npm"; exit 1; }
	cd $(BROWSER_TESTS) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
