package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"
)

// net/http answers a request it cannot parse (headers over
// http.Server.MaxHeaderBytes, a malformed request line or header) itself,
// before any handler runs, with a plain-text body written straight to the
// connection in one write: "HTTP/1.1 <status>" + goErrorHeaders + <status>.
const goErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// MaxHeaderBytes is the most request headers may hold, for
// http.Server.MaxHeaderBytes (nginx allows 32 KiB by default; browsers and
// partner clients send a few KiB).
const MaxHeaderBytes = 64 << 10

// Listener wraps the partner API's listener so that those answers use the
// contract's JSON error envelope like every other error: 431
// Request Header Fields Too Large and 400 Bad Request become
// {"error": {"code": "invalid_request", …}} with an X-Request-Id, and get an
// access log line. Wrap the plain TCP listener; under TLS the server writes
// through the TLS connection and this wrapper does not see those answers.
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &jsonErrorListener{Listener: ln, s: s}
}

type jsonErrorListener struct {
	net.Listener
	s *Server
}

func (l *jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c, s: l.s}, nil
}

type jsonErrorConn struct {
	net.Conn
	s *Server
}

// Write passes every write through, except one that is exactly net/http's
// own plain-text error answer, which it replaces. Responses from handlers
// always carry more headers (Date, Content-Length), so none matches.
func (c *jsonErrorConn) Write(p []byte) (int, error) {
	status, text, ok := parseGoError(p)
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(c.s.jsonConnError(status, text, c.RemoteAddr())); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ReadFrom keeps sendfile for downloads; CloseWrite keeps net/http's
// graceful close after an error answer.
func (c *jsonErrorConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}

func (c *jsonErrorConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// parseGoError recognises net/http's plain-text 400 and 431 answers.
func parseGoError(p []byte) (status int, text string, ok bool) {
	rest, ok := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !ok {
		return 0, "", false
	}
	line, body, ok := bytes.Cut(rest, []byte(goErrorHeaders))
	if !ok || !bytes.Equal(line, body) || len(line) < 4 {
		return 0, "", false
	}
	status, err := strconv.Atoi(string(line[:3]))
	if err != nil || (status != http.StatusBadRequest && status != http.StatusRequestHeaderFieldsTooLarge) {
		return 0, "", false
	}
	return status, string(line), true
}

// jsonConnError renders a whole HTTP/1.1 answer in the error envelope, and
// logs it like a request the handlers answered.
func (s *Server) jsonConnError(status int, goText string, remote net.Addr) []byte {
	id := newRequestID()
	msg := "The request could not be parsed as HTTP/1.1."
	if status == http.StatusRequestHeaderFieldsTooLarge {
		msg = "The request's headers are too large (over " + strconv.Itoa(MaxHeaderBytes>>10) + " KiB in all)."
	}
	body, _ := json.Marshal(errorBody{Error: errorDetail{Code: "invalid_request", Message: msg, RequestID: id}})
	body = append(body, '\n')
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	b.WriteString("Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n")
	b.WriteString("X-Request-Id: " + id + "\r\n")
	b.WriteString("Date: " + time.Now().UTC().Format(http.TimeFormat) + "\r\n")
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n")
	b.Write(body)
	host, _, err := net.SplitHostPort(remote.String())
	if err != nil {
		host = remote.String()
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "request", slog.String("route", ""), slog.Int("status", status),
		slog.String("request_id", id), slog.String("remote", host), slog.String("code", "invalid_request"),
		slog.String("reason", goText))
	return b.Bytes()
}
