// Command bare is the baseline for bench/api.sh: a bare net/http server
// that answers GET /api/v1/jobs/{id} with a JSON body shaped and sized like
// planreview's job view, encoded per request, with no auth, rate limit,
// database or logging; and PUT /sink, which reads and drops a body. It
// prints "listening ADDR" once it accepts.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

type stage struct {
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	StartedAt  *time.Time `json:"startedAt"`
	FinishedAt *time.Time `json:"finishedAt"`
}

type pipeline struct {
	CurrentStage   string     `json:"currentStage"`
	Stages         []stage    `json:"stages,omitempty"`
	Progress       float64    `json:"progress"`
	PagesTotal     int        `json:"pagesTotal"`
	PagesProcessed int        `json:"pagesProcessed"`
	StartedAt      *time.Time `json:"startedAt"`
	FinishedAt     *time.Time `json:"finishedAt"`
	Error          any        `json:"error"`
}

type version struct {
	VersionID string    `json:"versionId"`
	Number    int       `json:"number"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
}

type job struct {
	JobID            string          `json:"jobId"`
	VersionID        string          `json:"versionId"`
	Name             string          `json:"name"`
	Description      *string         `json:"description"`
	ExternalID       *string         `json:"externalId"`
	ApplicationDate  string          `json:"applicationDate"`
	Status           string          `json:"status"`
	Pipeline         pipeline        `json:"pipeline"`
	FindingCounts    map[string]int  `json:"findingCounts"`
	LocalLawCoverage json.RawMessage `json:"localLawCoverage"`
	Versions         []version       `json:"versions"`
	CreatedAt        time.Time       `json:"createdAt"`
	UpdatedAt        time.Time       `json:"updatedAt"`
}

func main() {
	addr := flag.String("listen", "127.0.0.1:0", "loopback address to listen on")
	lifetime := flag.Duration("lifetime", 15*time.Minute, "exit after this long, whatever happens")
	flag.Parse()
	time.AfterFunc(*lifetime, func() { os.Exit(0) })

	now := time.Now().UTC()
	desc, ext := "Bench job", "EXT-1"
	stages := []stage{}
	for _, name := range []string{"preparing", "extracting", "classifying", "reviewing", "annotating"} {
		stages = append(stages, stage{Name: name, Status: "pending"})
	}
	j := job{
		JobID: "job_01M7YA0000000000000000000", VersionID: "ver_01M7YA0000000000000000001",
		Name: "bench job", Description: &desc, ExternalID: &ext, ApplicationDate: now.Format(time.DateOnly),
		Status: "created", Pipeline: pipeline{CurrentStage: "not_started", Stages: stages},
		FindingCounts:    map[string]int{"critical": 0, "high": 0, "medium": 0, "low": 0, "info": 0},
		LocalLawCoverage: json.RawMessage("null"),
		Versions:         []version{{VersionID: "ver_01M7YA0000000000000000001", Number: 1, Status: "created", CreatedAt: now}},
		CreatedAt:        now, UpdatedAt: now,
	}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/jobs/{jobId}", func(w http.ResponseWriter, r *http.Request) {
		v := j
		v.JobID = r.PathValue("jobId")
		body, err := json.Marshal(v)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})

	// The network half of an upload: read the body and drop it (no disk,
	// no hash), to tell the transfer's cost from planreview's.
	mux.HandleFunc("PUT /sink", func(w http.ResponseWriter, r *http.Request) {
		n, err := io.CopyBuffer(io.Discard, r.Body, make([]byte, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"size\":%d}\n", n)
	})

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(os.Stdout, "listening", ln.Addr())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
