// Command gobayes is the gobayes Jupyter kernel.
//
//	gobayes install [--user | --prefix DIR]   write the kernelspec (default --user)
//	gobayes kernel -f CONNECTION_FILE         run the kernel (Jupyter starts this)
//	gobayes version                           print the version
//	gobayes worker                            the interpreter's child process (started by the kernel)
//
// After `gobayes install`, pick "Go (gobayes)" in Jupyter or run
// `jupyter console --kernel gobayes`.
//
// For diagnosing the kernel process's memory and CPU, start it with
// GOBAYES_PROFILE_DIR=DIR in its environment: each SIGUSR1 to it then
// writes a heap profile and the runtime's metrics into DIR, and with
// GOBAYES_PROFILE_CPU=1 as well the CPU profile since the previous signal
// (profile.go). Unset, nothing is installed.
package main
