package display

// Active reports whether a process-wide Publisher is set, that is whether
// rich output of the package-level functions reaches a notebook rather
// than standard output.
func Active() bool { return currentPublisher() != nil }
