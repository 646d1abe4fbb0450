package pdftext

import (
	"math"

	"golang.org/x/text/unicode/norm"
)

// matrix is a PDF transformation matrix [a b c d e f]:
// x' = a·x + c·y + e, y' = b·x + d·y + f.
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul returns m × n: apply m first, then n.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2],
		m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2],
		m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4],
		m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

func (m matrix) applyDelta(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y, m[1]*x + m[3]*y
}

// invert returns the inverse of m; ok is false for a singular matrix.
func (m matrix) invert() (matrix, bool) {
	det := m[0]*m[3] - m[1]*m[2]
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return identity, false
	}
	a, b, c, d := m[3]/det, -m[1]/det, -m[2]/det, m[0]/det
	return matrix{a, b, c, d, -(m[4]*a + m[5]*c), -(m[4]*b + m[5]*d)}, true
}

func abs(x float64) float64 { return math.Abs(x) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// decomposeBase returns r without its diacritics ("Ł" stays "Ł").
func decomposeBase(r rune) string {
	d := norm.NFD.String(string(r))
	for _, c := range d {
		return string(c)
	}
	return ""
}
