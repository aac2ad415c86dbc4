# plotting: documentation images and benchmarks.
.PHONY: docs-images bench-plotting

# Renders every plot type for the eight-schools posterior (centred and
# non-centred) into docs/img/*.png.
docs-images:
	$(GO) run ./plotting/internal/docimages -out docs/img

# Render time and bytes of every plot for 4 chains × 1000 draws of 10
# variables, as PNG and SVG.
bench-plotting:
	$(GO) test -run '^$$' -bench . -benchtime 5x ./plotting
