package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"planreview/api"
	"planreview/store"
	"planreview/store/blob"
)

// adminOps are the operator's commands. *api.Admin runs them on an open
// database; socketAdmin sends them to a running server.
type adminOps interface {
	IssueKey(ctx context.Context, partner string) (api.IssuedKey, error)
	ListKeys(ctx context.Context, partner string) ([]api.KeyInfo, error)
	RevokeKey(ctx context.Context, keyID string) (api.KeyInfo, error)
	RotateKey(ctx context.Context, keyID string, grace time.Duration) (api.RotatedKey, error)
	SetPartner(ctx context.Context, name string, set api.PartnerSettings) (api.PartnerInfo, error)
	ListPartners(ctx context.Context) ([]api.PartnerInfo, error)
	ShowPartner(ctx context.Context, name string) (api.PartnerDetail, error)
	Backup(ctx context.Context, w io.Writer) (int64, error)
	lawsOps
	webhookOps
}

// withAdmin runs fn against the running server's admin socket if one
// answers, else against the database opened directly. bbolt's file lock
// means a second process cannot open the database while serve runs.
func (a *app) withAdmin(cmd *cobra.Command, fn func(adminOps) error) error {
	cfg, err := a.config(cmd)
	if err != nil {
		return err
	}
	socket := cfg.AdminSocket()
	if conn, err := net.DialTimeout("unix", socket, time.Second); err == nil {
		conn.Close()
		return fn(newSocketAdmin(socket))
	}
	if err := cfg.ensureDataDir(); err != nil {
		return err
	}
	db, err := store.Open(cfg.DBPath(), store.Options{LockTimeout: 3 * time.Second})
	if errors.Is(err, store.ErrDatabaseLocked) {
		return fmt.Errorf("%w and its admin socket %s does not answer; is the server starting or stopping?", err, socket)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	blobs, err := blob.Open(cfg.FilesDir())
	if err != nil {
		return err
	}
	return fn(&api.Admin{Store: db, Laws: db, Webhooks: db, Blobs: blobs, SigningKeyPath: cfg.SecretPath(), Version: version})
}

// socketAdmin speaks the admin API (api.AdminHandler) over the socket.
type socketAdmin struct {
	client *http.Client
}

func newSocketAdmin(path string) *socketAdmin {
	return &socketAdmin{client: &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		},
	}}}
}

func (s *socketAdmin) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://admin"+path, rd)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("admin socket: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error string }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		if resp.StatusCode == http.StatusBadRequest {
			return &api.AdminError{Msg: e.Error}
		}
		return &socketStatusError{status: resp.StatusCode, msg: e.Error}
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func (s *socketAdmin) IssueKey(ctx context.Context, partner string) (k api.IssuedKey, err error) {
	err = s.call(ctx, http.MethodPost, "/v1/keys", map[string]string{"partner": partner}, &k)
	return k, err
}

func (s *socketAdmin) ListKeys(ctx context.Context, partner string) (keys []api.KeyInfo, err error) {
	err = s.call(ctx, http.MethodGet, "/v1/keys?partner="+url.QueryEscape(partner), nil, &keys)
	return keys, err
}

func (s *socketAdmin) RevokeKey(ctx context.Context, keyID string) (k api.KeyInfo, err error) {
	err = s.call(ctx, http.MethodPost, "/v1/keys/"+url.PathEscape(keyID)+"/revoke", nil, &k)
	return k, err
}

func (s *socketAdmin) RotateKey(ctx context.Context, keyID string, grace time.Duration) (k api.RotatedKey, err error) {
	body := map[string]int64{"graceSeconds": int64(grace / time.Second)}
	err = s.call(ctx, http.MethodPost, "/v1/keys/"+url.PathEscape(keyID)+"/rotate", body, &k)
	return k, err
}

func (s *socketAdmin) SetPartner(ctx context.Context, name string, set api.PartnerSettings) (p api.PartnerInfo, err error) {
	err = s.call(ctx, http.MethodPut, "/v1/partners/"+url.PathEscape(name), set, &p)
	return p, err
}

func (s *socketAdmin) ListPartners(ctx context.Context) (ps []api.PartnerInfo, err error) {
	err = s.call(ctx, http.MethodGet, "/v1/partners", nil, &ps)
	return ps, err
}

func (s *socketAdmin) ShowPartner(ctx context.Context, name string) (p api.PartnerDetail, err error) {
	err = s.call(ctx, http.MethodGet, "/v1/partners/"+url.PathEscape(name), nil, &p)
	return p, err
}

func (s *socketAdmin) Backup(ctx context.Context, w io.Writer) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://admin/v1/backup", nil)
	if err != nil {
		return 0, err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("admin socket: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("server: backup failed (status %d)", resp.StatusCode)
	}
	return io.Copy(w, resp.Body)
}
