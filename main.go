// Command planreview is an on-prem plan-review appliance: one binary that
// serves the partner API, stores jobs and files, and reviews plan PDFs.
package main

import (
	"os"

	"planreview/cmd"
)

func main() {
	os.Exit(cmd.Execute())
}
