package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkStrict refuses what encoding/json lets through in a body it decoded
// into a value of type t: a field name that matches only when case is
// ignored ({"Name": …} for name), and text that is not valid Unicode
// (invalid UTF-8 or an unpaired surrogate escape, which the decoder turns
// into U+FFFD without a word). Both are 400 invalid_request naming the
// field, so nothing reaches storage other than what the client sent.
func checkStrict(body []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	w := strictWalker{dec: dec, body: body}
	return w.value(t, "")
}

type strictWalker struct {
	dec  *json.Decoder
	body []byte
}

// token reads the next token and reports whether it is a string the
// decoder had to repair.
func (w *strictWalker) token() (json.Token, bool, error) {
	start := w.dec.InputOffset()
	tok, err := w.dec.Token()
	if err != nil {
		return nil, false, err
	}
	s, ok := tok.(string)
	if !ok || !strings.ContainsRune(s, utf8.RuneError) {
		return tok, false, nil
	}
	raw := w.body[start:w.dec.InputOffset()]
	return tok, strings.Count(s, string(utf8.RuneError)) > explicitReplacements(raw), nil
}

// value walks one JSON value expected to decode into t (nil: anything).
func (w *strictWalker) value(t reflect.Type, path string) error {
	tok, repaired, err := w.token()
	if err != nil {
		return nil // the decoder accepted the body; nothing more to find
	}
	if repaired {
		return invalidUTF8(path)
	}
	t = strictTarget(t)
	switch tok {
	case json.Delim('{'):
		for w.dec.More() {
			keyTok, repaired, err := w.token()
			if err != nil {
				return nil
			}
			key, _ := keyTok.(string)
			field := joinParam(path, key)
			if repaired {
				return invalidUTF8(field)
			}
			ft, known := fieldType(t, key)
			if !known {
				return invalidParam(field, "Unknown field %q; field names are case-sensitive.", field)
			}
			if err := w.value(ft, field); err != nil {
				return err
			}
		}
		_, _ = w.dec.Token() // }
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		_, _ = w.dec.Token() // ]
	}
	return nil
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// strictTarget is t without pointers; nil when names below it are not
// struct fields (interfaces, types that decode themselves).
func strictTarget(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	return t
}

// fieldType is the type a key decodes into: a struct's field whose JSON
// name is exactly key, or a map's element.
func fieldType(t reflect.Type, key string) (reflect.Type, bool) {
	if t == nil {
		return nil, true
	}
	switch t.Kind() {
	case reflect.Map:
		return t.Elem(), true
	case reflect.Struct:
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" {
				// An embedded struct's fields are the outer object's.
				if ft, known := fieldType(strictTarget(f.Type), key); known && strictTarget(f.Type) != nil {
					return ft, true
				}
				continue
			}
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if name == key {
				return f.Type, true
			}
		}
		return nil, false
	}
	return nil, true
}

// explicitReplacements counts the U+FFFD a raw JSON string literal asks
// for itself, as the character or as \ufffd; any more in its decoded text
// were put there by the decoder.
func explicitReplacements(raw []byte) int {
	n := bytes.Count(raw, []byte(string(utf8.RuneError)))
	for i := 0; i < len(raw)-1; i++ {
		if raw[i] != '\\' {
			continue
		}
		if raw[i+1] == 'u' && i+6 <= len(raw) && strings.EqualFold(string(raw[i+2:i+6]), "fffd") {
			n++
		}
		i++ // skip the escaped character
	}
	return n
}

func invalidUTF8(field string) *Error {
	if field == "" {
		return errorf(http.StatusBadRequest, "invalid_request", "The request body is not valid UTF-8 text.")
	}
	return invalidParam(field, "%s is not valid UTF-8 text (invalid bytes or an unpaired surrogate escape).", field)
}

func joinParam(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
