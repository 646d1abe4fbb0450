package apikey_test

import (
	"testing"

	"planreview/api/apikey"
)

// BenchmarkCheck is the shape and checksum test every partner request's
// key passes before any storage lookup.
func BenchmarkCheck(b *testing.B) {
	key, err := apikey.Generate()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if apikey.Check(key) != nil {
			b.Fatal("valid key refused")
		}
	}
}

// BenchmarkCheckJunk: a malformed key must be refused cheaply (it is what
// key-guessing traffic costs the server).
func BenchmarkCheckJunk(b *testing.B) {
	key, err := apikey.Generate()
	if err != nil {
		b.Fatal(err)
	}
	junk := key[:len(key)-1] + "!"
	b.ReportAllocs()
	for b.Loop() {
		if apikey.Check(junk) == nil {
			b.Fatal("junk key accepted")
		}
	}
}

// BenchmarkHash is the stored form computed for every authenticated request.
func BenchmarkHash(b *testing.B) {
	key, err := apikey.Generate()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = apikey.Hash(key)
	}
}

func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := apikey.Generate(); err != nil {
			b.Fatal(err)
		}
	}
}
