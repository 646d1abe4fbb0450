package api

import "net/http"

type pingResponse struct {
	OK        bool   `json:"ok"`
	PartnerID string `json:"partnerId"`
	Partner   string `json:"partner"`
	KeyID     string `json:"keyId"`
}

func (s *Server) ping(w http.ResponseWriter, r *http.Request) error {
	p := principalFrom(r.Context())
	writeJSON(w, http.StatusOK, pingResponse{OK: true, PartnerID: p.partner.ID, Partner: p.partner.Name, KeyID: p.key.ID})
	return nil
}
