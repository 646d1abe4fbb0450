//go:build !linux

package backup

import "os"

// syncTree makes every file written under dir durable: an fsync per file
// where the system has no syncfs(2).
func syncTree(_ string, files []string) error {
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
