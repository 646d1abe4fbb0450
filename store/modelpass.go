package store

// ModelPass is the record of a scan's model review pass: "done" (the model
// answered for at least one sheet) or "skipped" (it answered for none;
// Reason says why). A skipped pass never fails the scan.
type ModelPass struct {
	Status        string  `json:"status"`
	Model         string  `json:"model"`
	Sheets        int     `json:"sheets"`        // sheets with text, each asked once
	SheetsSkipped int     `json:"sheetsSkipped"` // the model failed, timed out or was not reached in time
	Findings      int     `json:"findings"`      // verified findings added (before coverage withholds any)
	Dropped       int     `json:"dropped"`       // findings refused: quote not on the sheet, duplicate of a rule finding, malformed
	Reason        string  `json:"reason,omitempty"`
	Seconds       float64 `json:"seconds"`
}
