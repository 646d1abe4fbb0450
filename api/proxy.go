package api

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// maxForwardedHops bounds how many forwarding entries a request may carry;
// beyond that the header is junk or an attack, and the peer is the client.
const maxForwardedHops = 32

// ParseTrustedProxies reads server.trusted_proxies: CIDRs, or single
// addresses meaning one host.
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(list))
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, &net.ParseError{Type: "CIDR address", Text: s}
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// proxies decides who the client of a request is. Only a peer inside a
// trusted CIDR is believed about the hops before it; the client is the
// rightmost address in the chain that is not a trusted proxy, since every
// entry to the left of it may be written by the client itself.
type proxies []netip.Prefix

func (p proxies) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, pfx := range p {
		if pfx.Contains(a) {
			return true
		}
	}
	return false
}

// client returns the client address and the scheme it used. Without
// trusted proxies (or from an untrusted peer) forwarding headers are
// ignored: the client is the TCP peer and the scheme that of the connection.
func (p proxies) client(r *http.Request) (addr, scheme string) {
	addr, scheme = peerHost(r.RemoteAddr), "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if len(p) == 0 {
		return addr, scheme
	}
	peer, err := netip.ParseAddr(addr)
	if err != nil || !p.trusted(peer) {
		return addr, scheme
	}
	var hops []hop
	if fwd := r.Header.Values("Forwarded"); len(fwd) > 0 {
		hops = parseForwarded(strings.Join(fwd, ","))
	} else if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		hops = parseXForwardedFor(strings.Join(xff, ","), r.Header.Values("X-Forwarded-Proto"))
	}
	if len(hops) == 0 || len(hops) > maxForwardedHops {
		return addr, scheme
	}
	// Walk from the right (the hop nearest to us) while the hop that added
	// the entry is trusted. An entry that is not an address ("unknown", an
	// obfuscated name, garbage) stops the walk at the proxy that wrote it.
	for i := len(hops) - 1; i >= 0; i-- {
		h := hops[i]
		a, err := netip.ParseAddr(h.addr)
		if err != nil {
			break
		}
		addr = a.Unmap().String()
		if h.proto == "http" || h.proto == "https" {
			scheme = h.proto
		}
		if !p.trusted(a) {
			break
		}
	}
	return addr, scheme
}

// hop is one forwarding entry: the address a proxy saw and, if it said,
// the scheme of that connection.
type hop struct{ addr, proto string }

// parseForwarded reads an RFC 7239 Forwarded header: comma-separated
// elements of semicolon-separated pairs, values maybe quoted, addresses maybe
// with a port ("192.0.2.1:4711", "[2001:db8::1]:4711").
func parseForwarded(v string) []hop {
	var hops []hop
	for _, elem := range splitQuoted(v, ',') {
		var h hop
		for _, pair := range splitQuoted(elem, ';') {
			k, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if !ok {
				continue
			}
			val = strings.Trim(strings.TrimSpace(val), `"`)
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "for":
				h.addr = stripPort(val)
			case "proto":
				h.proto = strings.ToLower(val)
			}
		}
		hops = append(hops, h)
	}
	return hops
}

// parseXForwardedFor reads X-Forwarded-For ("client, proxy1, proxy2").
// X-Forwarded-Proto goes with the hop at the same position when it has one
// entry per hop, else (the usual single value, set by the proxy next to
// us) with the rightmost hop.
func parseXForwardedFor(v string, protoValues []string) []hop {
	var hops []hop
	for _, a := range strings.Split(v, ",") {
		hops = append(hops, hop{addr: stripPort(strings.TrimSpace(a))})
	}
	var protos []string
	for _, pv := range protoValues {
		for _, p := range strings.Split(pv, ",") {
			protos = append(protos, strings.ToLower(strings.TrimSpace(p)))
		}
	}
	switch {
	case len(protos) == len(hops):
		for i := range hops {
			hops[i].proto = protos[i]
		}
	case len(protos) > 0:
		hops[len(hops)-1].proto = protos[len(protos)-1]
	}
	return hops
}

// splitQuoted splits on sep outside double quotes.
func splitQuoted(s string, sep byte) []string {
	var parts []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == sep && !quoted:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// stripPort drops a port and IPv6 brackets: "[2001:db8::1]:80" gives
// "2001:db8::1", "192.0.2.1:80" gives "192.0.2.1"; a bare IPv6 address is
// left alone.
func stripPort(s string) string {
	if host, _, err := net.SplitHostPort(s); err == nil {
		return host
	}
	return strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
}

func peerHost(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return remote
	}
	return host
}
