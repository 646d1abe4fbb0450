package backup

import "encoding/json"

func marshalManifest(m Manifest) ([]byte, error) {
	return json.MarshalIndent(m, "", " ")
}
