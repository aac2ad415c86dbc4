// Command gobayes is the gobayes Jupyter kernel.
//
//	gobayes install [--user | --prefix DIR]   write the kernelspec (default --user)
//	gobayes kernel -f CONNECTION_FILE         run the kernel (Jupyter starts this)
//	gobayes version                           print the version
//	gobayes worker                            the interpreter's child process (started by the kernel)
//
// After `gobayes install`, pick "Go (gobayes)" in Jupyter or run
// `jupyter console --kernel gobayes`.
package main
