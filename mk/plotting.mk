# plotting: documentation images and benchmarks.
.PHONY: docs-images bench-plotting

# Renders every plot type for the eight-schools posterior (centred and
# non-centred) into docs/img/*.png (plotting's TestDocImages, which
# without -docimages only checks that every image renders).
docs-images:
	$(GO) test -count=1 -v -run '^TestDocImages$$' ./plotting -docimages

# Render time and bytes of every plot for 4 chains × 1000 draws of 10
# variables, as PNG and SVG.
bench-plotting:
	$(GO) test -run '^$$' -bench . -benchtime 5x ./plotting
