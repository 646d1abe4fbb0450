package api

import (
	"unicode/utf8"

	"planreview/scan/codebasis"
)

// checkJurisdiction validates an optional jurisdictionId: an Open Civic
// Data division id (ocd-division/country:us/state:ca/county:marin) of at
// most 200 characters.
func checkJurisdiction(param string, v *string) error {
	if v == nil {
		return nil
	}
	if n := utf8.RuneCountInString(*v); n > codebasis.MaxJurisdictionIDLen {
		return invalidParam(param, "%s is %d characters; at most %d are allowed.", param, n, codebasis.MaxJurisdictionIDLen)
	}
	if !codebasis.ValidJurisdictionID(*v) {
		return invalidParam(param, "%s must be an Open Civic Data division id such as ocd-division/country:us/state:ca/county:marin.", param)
	}
	return nil
}
