# interp: the yaegi symbol tables and documentation index of the packages
# cells can import (interp/symbols, list in cmd/gensymbols/main.go).

.PHONY: generate generate-interp
generate: generate-interp

generate-interp:
	$(GO) generate ./interp/symbols
