package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"planreview/api/signing"
	"planreview/chat"
	"planreview/embed"
	"planreview/embed/sheetimage"
	"planreview/scan/pdftext"
	"planreview/store"
	"planreview/ui"
)

// PageImages renders sheet images for the hosted screens (sheetimage.Renderer).
type PageImages interface {
	Page(ctx context.Context, pdfPath, sum string, page, size int) ([]byte, error)
	Tile(ctx context.Context, pdfPath, sum string, page, level, x, y int) ([]byte, error)
	WarmLevels(pdfPath, sum string, pages int)
}

type embedRequest struct {
	Screen *string       `json:"screen"`
	JobID  *string       `json:"jobId"`
	Role   *string       `json:"role"`
	Actor  *actorRequest `json:"actor"`
}

type embedLink struct {
	URL       string `json:"url"`
	ExpiresAt int64  `json:"expiresAt"`
	// FrameOrigins are the origins the operator allowed to frame the
	// screens (partners set --frame-origin): empty, browsers refuse.
	FrameOrigins []string `json:"frameOrigins"`
}

func (s *Server) embedTokens() *embed.Tokens {
	return &embed.Tokens{Signer: s.signer, Now: s.now}
}

// createEmbed is endpoint 12: a short-lived signed link to one hosted
// screen (and one job, for job and chat). A fresh link on every call.
func (s *Server) createEmbed(w http.ResponseWriter, r *http.Request) error {
	var req embedRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	screen := ""
	if req.Screen != nil {
		screen = *req.Screen
	}
	if screen != embed.ScreenLogin && screen != embed.ScreenJob && screen != embed.ScreenChat {
		return &Error{Status: http.StatusBadRequest, Code: "invalid_screen", Param: "screen",
			Message: "screen must be one of login, job, chat."}
	}
	partner := principalFrom(r.Context()).partner
	jobID := ""
	if screen != embed.ScreenLogin {
		if req.JobID == nil || *req.JobID == "" {
			return &Error{Status: http.StatusBadRequest, Code: "missing_job_id", Param: "jobId",
				Message: "jobId is required for the " + screen + " screen."}
		}
		jobID = *req.JobID
		if !store.ValidID(jobID, store.PrefixJob) {
			return errNotFound
		}
		if _, _, err := s.store.Job(partner.ID, jobID); err != nil {
			return err
		}
	}
	claims := embed.Claims{PartnerID: partner.ID, Screen: screen, JobID: jobID}
	switch {
	case req.Role == nil || *req.Role == embed.RoleViewer:
		if req.Actor != nil {
			// An actor on a read-only link would suggest it can act.
			return invalidParam("actor", "actor is only for links with role examiner.")
		}
	case *req.Role == embed.RoleExaminer:
		if screen == embed.ScreenChat {
			return invalidParam("role", "role examiner is for the job screen (and the job screens a login link opens).")
		}
		actor, err := validActor("actor", req.Actor)
		if err != nil {
			return err
		}
		claims.Role, claims.Actor = embed.RoleExaminer, &embed.Actor{ID: actor.ID, Name: actor.Name}
	default:
		return invalidParam("role", "role must be viewer or examiner.")
	}
	token, claims, err := s.embedTokens().MintClaims(claims, s.opts.EmbedLinkTTL)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, embedLink{URL: s.screenURL(screen, jobID, token), ExpiresAt: claims.ExpiresAt,
		FrameOrigins: append([]string{}, partner.FrameOrigins...)})
	return nil
}

func (s *Server) screenURL(screen, jobID, token string) string {
	if screen == embed.ScreenLogin {
		return s.opts.PublicURL + "/embed/login?t=" + token
	}
	return s.opts.PublicURL + "/embed/" + screen + "/" + jobID + "?t=" + token
}

var errLinkNotGranted = errorf(http.StatusForbidden, "signature_invalid",
	"This link does not grant that screen or job; request a new link.")

// embedClaims checks the request's token (header X-Embed-Token, which the
// screens' own scripts send, else query t, which links and images carry)
// and that it grants screen for the path's job. A login link also opens
// its own partner's job screens: a job that is not the partner's is then
// 404, as for any other partner's job.
func (s *Server) embedClaims(r *http.Request, screens ...string) (embed.Claims, store.Partner, error) {
	token := r.Header.Get("X-Embed-Token")
	if token == "" {
		token = r.URL.Query().Get("t")
	}
	c, err := s.embedTokens().Verify(token)
	switch {
	case errors.Is(err, signing.ErrExpired):
		return c, store.Partner{}, errorf(http.StatusForbidden, "url_expired", "This link has expired; request a new one.")
	case err != nil:
		return c, store.Partner{}, errorf(http.StatusForbidden, "signature_invalid", "This link is not valid.")
	}
	jobID := r.PathValue("jobId")
	granted := false
	for _, screen := range screens {
		granted = granted || c.Grants(screen, jobID)
	}
	if !granted {
		return c, store.Partner{}, errLinkNotGranted
	}
	partner, err := s.store.Partner(c.PartnerID)
	if err != nil {
		return c, store.Partner{}, errLinkNotGranted // the partner is gone: so is the link
	}
	if jobID != "" {
		if !store.ValidID(jobID, store.PrefixJob) {
			return c, partner, errNotFound
		}
		if _, _, err := s.store.Job(partner.ID, jobID); err != nil {
			return c, partner, err
		}
	}
	return c, partner, nil
}

// embedAPI serves a JSON route of the screens (/embed/api/...): the token
// stands in for the partner key and the partner's rate limit applies per
// link. Errors use the JSON envelope like /api/v1.
func (s *Server) embedAPI(next handlerFunc, screens ...string) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		setEmbedHeaders(w, store.Partner{})
		c, partner, err := s.embedClaims(r, screens...)
		if err != nil {
			if err := s.limitByAddress(w, r); err != nil {
				return err
			}
			return err
		}
		rate, burst := s.opts.RateLimit, s.opts.RateBurst
		if partner.RateLimit > 0 {
			rate, burst = partner.RateLimit, max(partner.RateBurst, 1)
		}
		if err := s.limit(w, "embed:"+c.ID, rate, burst); err != nil {
			return err
		}
		requestInfoFrom(r.Context()).partnerID = partner.ID
		return next(w, r.WithContext(context.WithValue(r.Context(), ctxPrincipal, principal{partner: partner, link: &c})))
	})
}

// setEmbedHeaders are the security headers of every /embed/ answer: only
// the appliance's own scripts and styles, framed only by the partner's
// origins (none when the operator set none), and no Referer, so a token in
// a URL never leaves with a link.
func setEmbedHeaders(w http.ResponseWriter, partner store.Partner) {
	ancestors := "'none'"
	if len(partner.FrameOrigins) > 0 {
		ancestors = strings.Join(partner.FrameOrigins, " ")
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors "+ancestors)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
}

// embedScreen serves a screen page. Its errors are HTML: a refused or
// expired link is the plain 403 page that tells the parent window.
func (s *Server) embedScreen(screen string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, partner, err := s.embedClaims(r, screen)
		setEmbedHeaders(w, partner)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err != nil {
			apiErr := asAPIError(err)
			info := requestInfoFrom(r.Context())
			info.code = apiErr.Code
			if apiErr.Status == http.StatusForbidden {
				if partner.ID == "" {
					// Even a tampered link must be able to reach its parent.
					if p, perr := s.store.Partner(c.PartnerID); perr == nil {
						setEmbedHeaders(w, p)
					} else {
						w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'")
					}
				}
				w.WriteHeader(http.StatusForbidden)
				_ = ui.Expired(screen, r.PathValue("jobId")).Render(r.Context(), w)
				return
			}
			w.WriteHeader(apiErr.Status)
			_ = ui.ScreenError(apiErr.Status, apiErr.Message).Render(r.Context(), w)
			return
		}
		requestInfoFrom(r.Context()).partnerID = partner.ID
		info := ui.ScreenInfo{Screen: screen, JobID: r.PathValue("jobId"), Token: r.URL.Query().Get("t"),
			ExpiresAt: c.ExpiresAt, Partner: partner.Name, Via: c.Screen, Role: embed.RoleViewer}
		if c.Examiner() {
			info.Role, info.ActorName = embed.RoleExaminer, c.Actor.Name
		}
		_ = ui.Screen(info).Render(r.Context(), w)
	})
}

// chatLink mints a chat link for the job a job screen shows (or a login
// link's job list names), so the screen can open the job's chat. It ends
// when the link it came from ends: a screen cannot lengthen its own time.
func (s *Server) chatLink(w http.ResponseWriter, r *http.Request) error {
	c := principalFrom(r.Context()).link
	ttl := time.Unix(c.ExpiresAt, 0).Sub(s.now())
	jobID := r.PathValue("jobId")
	token, claims, err := s.embedTokens().MintClaims(embed.Claims{PartnerID: c.PartnerID, Screen: embed.ScreenChat, JobID: jobID}, ttl)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, embedLink{URL: s.screenURL(embed.ScreenChat, jobID, token), ExpiresAt: claims.ExpiresAt,
		FrameOrigins: append([]string{}, principalFrom(r.Context()).partner.FrameOrigins...)})
	return nil
}

// listEmbedJobs is the login screen's job list: the partner API's list
// plus a search over name and external id (q).
func (s *Server) listEmbedJobs(w http.ResponseWriter, r *http.Request) error {
	q, err := parseJobQuery(r)
	if err != nil {
		return err
	}
	q.Search = strings.TrimSpace(r.URL.Query().Get("q"))
	if len(q.Search) > 200 {
		return invalidParam("q", "q must be at most 200 characters.")
	}
	return s.writeJobList(w, r, q)
}

// pageImage serves one page of one of the job's files as PNG, rendered
// on the appliance: size "screen" (default), "thumb" or "large".
func (s *Server) pageImage(w http.ResponseWriter, r *http.Request) error {
	size := sheetimage.SizeScreen
	switch r.URL.Query().Get("size") {
	case "", "screen":
	case "thumb":
		size = sheetimage.SizeThumb
	case "large":
		size = sheetimage.SizeLarge
	default:
		return invalidParam("size", "size must be thumb, screen or large.")
	}
	return s.servePageImage(w, r, func(ctx context.Context, path, sum string, page, pages int) ([]byte, error) {
		data, err := s.opts.Pages.Page(ctx, path, sum, page, size)
		if err == nil && size == sheetimage.SizeScreen && pages > 0 {
			// A screen shows the file's sheets: its zoom steps come next.
			s.opts.Pages.WarmLevels(path, sum, pages)
		}
		return data, err
	})
}

// pageTile serves one tile of a page's zoom level (sheetimage.Tile): the
// job screen's viewer asks for the tiles in view at the zoom it shows.
func (s *Server) pageTile(w http.ResponseWriter, r *http.Request) error {
	var at [3]int
	for i, name := range []string{"level", "x", "y"} {
		n, err := strconv.Atoi(r.PathValue(name))
		if err != nil || n < 0 || n > 1000 {
			return errNotFound
		}
		at[i] = n
	}
	return s.servePageImage(w, r, func(ctx context.Context, path, sum string, page, _ int) ([]byte, error) {
		return s.opts.Pages.Tile(ctx, path, sum, page, at[0], at[1], at[2])
	})
}

func (s *Server) servePageImage(w http.ResponseWriter, r *http.Request, image func(ctx context.Context, path, sum string, page, pages int) ([]byte, error)) error {
	if s.opts.Pages == nil {
		return errNotFound
	}
	jobID, fileID := r.PathValue("jobId"), r.PathValue("fileId")
	if !store.ValidID(fileID, store.PrefixFile) {
		return errNotFound
	}
	page, err := strconv.Atoi(r.PathValue("page"))
	if err != nil || page < 1 || page > 100000 {
		return errNotFound
	}
	f, _, err := s.store.JobFile(principalFrom(r.Context()).partner.ID, jobID, fileID)
	if err != nil {
		return err
	}
	if f.SHA256 == "" || f.Status == "pending_upload" {
		return errNotFound
	}
	if f.PageCount != nil && page > *f.PageCount {
		return errNotFound
	}
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	pages := 0
	if f.PageCount != nil {
		pages = *f.PageCount
	}
	data, err := image(ctx, s.blobs.Path(fileID, f.SHA256), f.SHA256, page, pages)
	if errors.Is(err, sheetimage.ErrPage) {
		return errorf(http.StatusNotFound, "not_found", "This page could not be rendered as an image.")
	}
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	// The bytes behind one file's page never change; the token in the URL
	// keeps them private, so private caching only.
	h.Set("Cache-Control", "private, max-age=1800")
	_, _ = w.Write(data)
	return nil
}

type wordBoxes struct {
	Boxes []pdftext.BBox `json:"boxes"`
}

// citedWords finds the words of a chat excerpt on a page (query text) and
// answers their boxes, so the chat screen can highlight what it cites.
// Fragments of an excerpt (joined by " … " or " | ") are found one by one,
// each as a run of consecutive words in reading order.
func (s *Server) citedWords(w http.ResponseWriter, r *http.Request) error {
	jobID, fileID := r.PathValue("jobId"), r.PathValue("fileId")
	page, err := strconv.Atoi(r.PathValue("page"))
	if err != nil || page < 1 || !store.ValidID(fileID, store.PrefixFile) {
		return errNotFound
	}
	text := r.URL.Query().Get("text")
	if len(text) > 4000 {
		return invalidParam("text", "text must be at most 4000 characters.")
	}
	f, _, err := s.store.JobFile(principalFrom(r.Context()).partner.ID, jobID, fileID)
	if err != nil {
		return err
	}
	if f.SHA256 == "" {
		return errNotFound
	}
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	doc, err := pdftext.OpenWithBudgets(ctx, s.blobs.Path(fileID, f.SHA256), s.opts.PDFBudgets)
	if err != nil {
		return errNotFound
	}
	defer doc.Close()
	if page > doc.NumPages() {
		return errNotFound
	}
	p, err := doc.Page(ctx, page)
	if err != nil {
		return errNotFound
	}
	out := wordBoxes{Boxes: []pdftext.BBox{}}
	norm := make([]string, len(p.Words))
	for i, wd := range p.Words {
		norm[i] = strings.ToLower(wd.Norm)
		if norm[i] == "" {
			norm[i] = strings.ToLower(wd.Text)
		}
	}
	for _, frag := range strings.FieldsFunc(strings.ReplaceAll(text, chat.Sep, "|"), func(r rune) bool { return r == '|' }) {
		want := strings.Fields(strings.ToLower(frag))
		if len(want) == 0 {
			continue
		}
	search:
		for i := 0; i+len(want) <= len(norm); i++ {
			for j, wd := range want {
				if norm[i+j] != wd {
					continue search
				}
			}
			for j := range want {
				b := p.Words[i+j].BBox
				r := store.BBox{Left: b.Left, Top: b.Top, Width: b.Width, Height: b.Height}.Rounded()
				out.Boxes = append(out.Boxes, pdftext.BBox{Left: r.Left, Top: r.Top, Width: r.Width, Height: r.Height})
			}
			break
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
