package cgen

// Library is the device library every generated source starts with.
func Library() string { return deviceLibrary + translatedLibrary + generatedLibrary }

// Kernels is the kernel source every generated source ends with.
func Kernels() string { return kernels }

// Lit spells a float64 as a C literal, as the generated sources do.
func Lit(x float64) string { return lit(x) }
