package scan

import (
	"context"
	"reflect"
	"testing"
)

// TestNoChatIndex: a pipeline told nobody will chat (the review command)
// skips the index and nothing else: the same findings, code basis and
// sheets as a review that builds it.
func TestNoChatIndex(t *testing.T) {
	inputs := generatedSet(t)
	p, err := NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	full, err := p.Review(context.Background(), inputs, quietProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.ChatIndex) == 0 {
		t.Fatal("a review built no chat index")
	}
	p.NoChatIndex = true
	bare, err := p.Review(context.Background(), inputs, quietProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if bare.ChatIndex != nil {
		t.Errorf("NoChatIndex: chat index of %d bytes built", len(bare.ChatIndex))
	}
	// Finding ids are minted per review; the rest must agree.
	for i := range bare.Findings {
		bare.Findings[i].ID = full.Findings[min(i, len(full.Findings)-1)].ID
	}
	if !reflect.DeepEqual(bare.Findings, full.Findings) {
		t.Error("NoChatIndex changed the findings")
	}
	if !reflect.DeepEqual(bare.CodeBasis, full.CodeBasis) || !reflect.DeepEqual(bare.Sheets, full.Sheets) {
		t.Error("NoChatIndex changed the code basis or the sheets")
	}
}
