// Package install writes the gobayes kernelspec, the directory Jupyter
// reads to know how to start the kernel: kernel.json (the absolute path of
// the gobayes binary, interrupt_mode "message") and the two logos.
//
// Use it from the gobayes binary:
//
//	dir, err := install.Kernelspec(install.UserDir(), exe) // ~/.local/share/jupyter/kernels/gobayes
//	dir, err := install.Kernelspec(install.PrefixDir("/usr/local"), exe)
//
// The logos are drawn by Logo and written to logo-32x32.png and
// logo-64x64.png by `go generate`; a test fails when the committed files
// are stale.
package install
