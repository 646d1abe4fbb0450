package rules

import "testing"

func TestSmokeLoad(t *testing.T) {
	e, err := Load(Packs(), []string{"ibc-2021", "irc-2021"})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(len(e.Rules()), e.CodeBasis())
}
