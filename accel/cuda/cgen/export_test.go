package cgen

// Library is the device library every generated source starts with.
func Library() string { return deviceLibrary + translatedLibrary + generatedLibrary }

// Kernels is the kernel source every generated source ends with.
func Kernels() string { return kernels }
