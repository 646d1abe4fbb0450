package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
)

// maxBodyBytes is the contract's limit on JSON request bodies.
const maxBodyBytes = 1 << 20

// readBody reads the whole request body, refusing more than maxBodyBytes.
func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "invalid_request", "Could not read the request body.")
	}
	if len(body) > maxBodyBytes {
		return nil, errorf(http.StatusBadRequest, "invalid_request", "The request body exceeds 1 MiB.")
	}
	return body, nil
}

// decodeJSON decodes a JSON object body into dst, rejecting unknown fields
// (names are case-sensitive), wrong types, text that is not valid UTF-8 and
// trailing data with the contract's codes.
func decodeJSON(r *http.Request, dst any) error {
	body, err := readBody(r)
	if err != nil {
		return err
	}
	return decodeJSONBytes(body, dst)
}

func decodeJSONBytes(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return errorf(http.StatusBadRequest, "invalid_json", "The request body must be a JSON object.")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errorf(http.StatusBadRequest, "invalid_json", "The request body has data after its JSON object.")
	}
	return checkStrict(body, reflect.TypeOf(dst))
}

func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return invalidParam(typeErr.Field, "%s must be of type %s.", typeErr.Field, jsonTypeName(typeErr.Type.Kind().String()))
	case errors.As(err, &typeErr):
		return errorf(http.StatusBadRequest, "invalid_request", "The request body must be a JSON object.")
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errorf(http.StatusBadRequest, "invalid_json", "The request body is not valid JSON.")
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		field = strings.Trim(field, `"`)
		return invalidParam(field, "Unknown field %q.", field)
	}
	return errorf(http.StatusBadRequest, "invalid_json", "The request body is not valid JSON.")
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "int", "int64", "float64":
		return "number"
	case "bool":
		return "boolean"
	case "slice":
		return "array"
	default:
		return kind
	}
}
