package cmd

import (
	"log/slog"
	"time"

	"planreview/store"
	"planreview/store/blob"
)

// sweepBlobs removes, at start-up, what crashes and deletions left under
// files/: upload and write temp files older than the longest upload (URL
// lifetime plus the read timeout a PUT started at its last second may use),
// and blobs the database does not reference once data.orphan_grace has
// passed. It runs before the server listens, so no upload is in flight and
// no scan writes. Each removal is logged, then a summary; a failure to
// sweep is logged and start-up goes on.
func sweepBlobs(cfg Config, db *store.DB, blobs *blob.Store, log *slog.Logger, now time.Time) {
	hashes, err := db.UploadHashes()
	if err != nil {
		log.Warn("start-up sweep skipped: cannot list the files the database references", "error", err)
		return
	}
	policy := blob.SweepPolicy{
		Current: func(fileID string) (string, bool) {
			sum, ok := hashes[fileID]
			return sum, ok
		},
		TempBefore:   now.Add(-(cfg.Uploads.URLTTL + cfg.Server.ReadTimeout)),
		OrphanBefore: now.Add(-cfg.Data.OrphanGrace),
	}
	stats, err := blobs.Sweep(policy, func(s blob.Swept) {
		log.Info("start-up sweep removed a file", "path", "files/"+s.Path, "bytes", s.Bytes, "reason", s.Reason)
	})
	if err != nil {
		log.Warn("start-up sweep", "error", err)
	}
	log.Info("start-up sweep", "temp_files", stats.Temps, "unreferenced_blobs", stats.Unreferenced, "bytes", stats.Bytes)
}
