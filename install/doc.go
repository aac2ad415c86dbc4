// Package install writes the gobayes kernelspec, the directory Jupyter
// reads to know how to start the kernel: kernel.json (the absolute path of
// the gobayes binary, interrupt_mode "message") and the two logos.
//
// Use it from the gobayes binary:
//
//	dir, err := install.Kernelspec(install.UserDir(), exe) // ~/.local/share/jupyter/kernels/gobayes
//	dir, err := install.Kernelspec(install.PrefixDir("/usr/local"), exe)
//
// KernelspecEnv also writes kernel.json's "env", which Jupyter adds to the
// kernel's environment: a shared server (JupyterHub) sets each kernel's
// memory limit there, as `gobayes install --memory-limit 4GiB` does
// (GOBAYES_MEMORY_LIMIT; without it a kernel's interpreter may use half of
// the memory it can see: the machine's, or its container's or
// JupyterHub's MEM_LIMIT where that is less).
//
// The logos are drawn by Logo and written to logo-32x32.png and
// logo-64x64.png by `go generate`; a test fails when the committed files
// are stale.
package install
