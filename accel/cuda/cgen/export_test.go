package cgen

// Library is the device library every generated source starts with.
func Library() string { return deviceLibrary + generatedLibrary }
