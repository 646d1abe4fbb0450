package scan

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestPipelineLoadingReviewsAlike: a pipeline whose rule packs load while
// the file is read reviews as one built with them loaded.
func TestPipelineLoadingReviewsAlike(t *testing.T) {
	inputs := generatedSet(t)
	loaded, err := NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	want, err := loaded.Review(context.Background(), inputs, quietProgress{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewPipelineLoading([]string{"ibc-2021", "irc-2021"}, "", 2000).Review(context.Background(), inputs, quietProgress{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got.Findings {
		got.Findings[i].ID = want.Findings[min(i, len(want.Findings)-1)].ID
	}
	if len(got.Findings) == 0 || !reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.CodeBasis, want.CodeBasis) {
		t.Errorf("findings or code basis differ: %d findings, want %d", len(got.Findings), len(want.Findings))
	}
}

// TestPipelineLoadingBadCode: an adopted code with no rule pack fails the
// review with a RulesError naming it.
func TestPipelineLoadingBadCode(t *testing.T) {
	inputs := generatedSet(t)
	_, err := NewPipelineLoading([]string{"ibc-1997"}, "", 2000).Review(context.Background(), inputs, quietProgress{})
	var re *RulesError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), `"ibc-1997" has no rule pack`) {
		t.Fatalf("error %v, want a RulesError naming ibc-1997", err)
	}
}
