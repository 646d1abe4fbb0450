//go:build !linux

package metrics

// collectProcess has nothing to read outside Linux (no /proc): the
// appliance runs on Linux; elsewhere (a developer's machine) the process_*
// series are simply absent.
func collectProcess(*scrape) {}
