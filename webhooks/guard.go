// Package webhooks delivers the appliance's events to partners' endpoints:
// the network guard that keeps deliveries to the hosts the operator
// allowed, the signature, the sealing of endpoint secrets at rest, and the
// delivery workers that drain the store's outbox.
package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Timeout bounds one delivery attempt, connection to last byte read
// (contract: a 2xx answer within 10 s delivers).
const Timeout = 10 * time.Second

// maxResponseBytes is as much of an answer as is read: only its status
// counts, and a receiver must not make the appliance read a stream.
const maxResponseBytes = 64 << 10

// Resolver looks a host name up; nil means the system's DNS.
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// ErrNotAllowed is the guard's refusal: an address or host the operator
// did not list in webhooks.allowed_hosts.
var ErrNotAllowed = errors.New("not in webhooks.allowed_hosts")

// Policy is webhooks.allowed_hosts: host names (exact, or "*.example.gov"
// for any name under a domain) and networks (a single address or a CIDR).
//
// A URL names an allowed host when its name is listed, its literal address
// is inside a listed network, or every address its name resolves to is
// inside a listed network. Each connection is then checked again, on the
// address actually dialed: it must be inside a listed network, or, when
// the URL's name itself is listed, a public unicast address. So a listed
// name that resolves (or is rebound) to an internal address is refused
// unless the operator listed that network too.
type Policy struct {
	names    map[string]bool
	suffixes []string // ".example.gov" of "*.example.gov"
	networks []netip.Prefix
	resolve  Resolver
}

// ParsePolicy reads the allowed_hosts entries.
func ParsePolicy(entries []string) (*Policy, error) {
	p := &Policy{names: map[string]bool{}}
	for _, raw := range entries {
		e := strings.ToLower(strings.TrimSpace(raw))
		switch {
		case e == "":
			return nil, fmt.Errorf("an empty entry")
		case strings.Contains(e, "/"):
			pfx, err := netip.ParsePrefix(e)
			if err != nil {
				return nil, fmt.Errorf("%q is not a network such as 10.20.0.0/16", raw)
			}
			p.networks = append(p.networks, pfx.Masked())
		case strings.HasPrefix(e, "*."):
			if !validName(e[2:]) {
				return nil, fmt.Errorf("%q is not a wildcard such as *.example.gov", raw)
			}
			p.suffixes = append(p.suffixes, e[1:])
		default:
			if a, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
				a = a.Unmap()
				p.networks = append(p.networks, netip.PrefixFrom(a, a.BitLen()))
				continue
			}
			if !validName(e) {
				return nil, fmt.Errorf("%q is not a host name, address or network", raw)
			}
			p.names[strings.TrimSuffix(e, ".")] = true
		}
	}
	return p, nil
}

func validName(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// WithResolver returns the policy looking names up with r (tests map
// names to loopback addresses this way).
func (p *Policy) WithResolver(r Resolver) *Policy {
	cp := *p
	cp.resolve = r
	return &cp
}

// Empty reports whether nothing is allowed (the default).
func (p *Policy) Empty() bool {
	return len(p.names) == 0 && len(p.suffixes) == 0 && len(p.networks) == 0
}

func (p *Policy) nameListed(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if p.names[host] {
		return true
	}
	for _, s := range p.suffixes {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	return false
}

func (p *Policy) inNetworks(a netip.Addr) bool {
	a = a.Unmap()
	for _, n := range p.networks {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// nonPublic are ranges that are not on the public internet beyond what
// netip's predicates cover: shared address space (CGNAT), benchmarking,
// documentation, IPv4 "this network", NAT64, 6to4 and Teredo (which embed
// an IPv4 address), discard-only, documentation.
var nonPublic = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15",
		"198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64",
		"2001::/32", "2001:db8::/32", "2002::/16"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Public reports whether a is a unicast address on the public internet.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || !a.IsGlobalUnicast() || a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() {
		return false
	}
	for _, n := range nonPublic {
		if n.Contains(a) {
			return false
		}
	}
	return true
}

// addrAllowed is the connect-time rule for an address a URL's host led to.
func (p *Policy) addrAllowed(a netip.Addr, nameListed bool) bool {
	return p.inNetworks(a) || (nameListed && Public(a))
}

func (p *Policy) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if p.resolve != nil {
		return p.resolve(ctx, host)
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// CheckURL is the registration check: an absolute http(s) URL without
// credentials whose host the policy allows. The error says why not.
func (p *Policy) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return errors.New("url must be an absolute http or https URL")
	}
	if u.User != nil {
		return errors.New("url must not carry credentials")
	}
	if u.Fragment != "" {
		return errors.New("url must not have a fragment")
	}
	host := u.Hostname()
	if p.Empty() {
		return fmt.Errorf("this appliance allows webhooks to no host: the operator lists the hosts and networks they may reach in webhooks.allowed_hosts")
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if p.inNetworks(a) {
			return nil
		}
		return fmt.Errorf("%s is %w", host, ErrNotAllowed)
	}
	if p.nameListed(host) {
		return nil
	}
	if len(p.networks) > 0 {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		addrs, err := p.lookup(ctx, host)
		if err == nil && len(addrs) > 0 && allIn(addrs, p.inNetworks) {
			return nil
		}
	}
	return fmt.Errorf("%s is %w", host, ErrNotAllowed)
}

func allIn(addrs []netip.Addr, ok func(netip.Addr) bool) bool {
	for _, a := range addrs {
		if !ok(a) {
			return false
		}
	}
	return true
}

// dial connects to addr ("host:port") only through allowed addresses: the
// name is resolved here (not by the dialer, so the checked address is the
// one dialed) and the socket's address is checked again just before
// connect, so nothing between the check and the connection can rebind it.
func (p *Policy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	listed := p.nameListed(host)
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs, listed = []netip.Addr{a}, false
	} else if addrs, err = p.lookup(ctx, host); err != nil {
		return nil, fmt.Errorf("resolve %s: %w", host, err)
	}
	var allowed []netip.Addr
	var refused []string
	for _, a := range addrs {
		if p.addrAllowed(a, listed) {
			allowed = append(allowed, a.Unmap())
		} else {
			refused = append(refused, a.String())
		}
	}
	if len(allowed) == 0 {
		return nil, fmt.Errorf("%s resolves to %s, which is %w", host, strings.Join(refused, ", "), ErrNotAllowed)
	}
	d := &net.Dialer{
		Timeout: Timeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !p.addrAllowed(ap.Addr(), listed) {
				return fmt.Errorf("connect to %s: %w", address, ErrNotAllowed)
			}
			return nil
		},
	}
	var errs []error
	for _, a := range allowed {
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// Client is the HTTP client deliveries use: every connection through the
// guard, no proxy from the environment (it would dial for us), redirects
// not followed (a 3xx is an answer that is not 2xx), 10 s per attempt.
func (p *Policy) Client() *http.Client {
	return &http.Client{
		Timeout: Timeout,
		Transport: &http.Transport{
			Proxy:                  nil,
			DialContext:            p.dial,
			ForceAttemptHTTP2:      true,
			MaxIdleConnsPerHost:    32,
			IdleConnTimeout:        90 * time.Second,
			TLSHandshakeTimeout:    Timeout,
			ResponseHeaderTimeout:  Timeout,
			MaxResponseHeaderBytes: 16 << 10,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
