package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/plazahq/plaza/internal/netguard"
)

// The test vector the Standard Webhooks specification publishes.
func TestSignSpecVector(t *testing.T) {
	secret, _ := base64.StdEncoding.DecodeString("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	got, err := Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if s := FormatSecret(secret); s != "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" {
		t.Errorf("FormatSecret = %q", s)
	}
}

// fakeNet resolves names from a table and dials only the loopback
// listener an address is mapped to: nothing else is ever reached.
type fakeNet struct {
	hosts  map[string]string // name → address it resolves to
	routes map[string]string // "address:port" → loopback listener
}

func (n fakeNet) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	a, ok := n.hosts[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []net.IPAddr{{IP: net.ParseIP(a)}}, nil
}

func (n fakeNet) dial(t *testing.T) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		to, ok := n.routes[addr]
		if !ok {
			t.Errorf("dial of unrouted address %s", addr)
			return nil, errors.New("unrouted")
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
}

func TestSend(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	var got *http.Request
	var gotBody []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, gotBody = r, must(io.ReadAll(r.Body))
		if strings.Contains(string(gotBody), "fail") {
			w.WriteHeader(500)
		}
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	fn := fakeNet{
		hosts:  map[string]string{"hooks.example": "203.0.113.7", "inside.example": "10.1.2.3"},
		routes: map[string]string{"203.0.113.7:" + port: srv.Listener.Addr().String()},
	}
	s := NewSender(netguard.New(netguard.Config{Resolver: fn, Dial: fn.dial(t)}), time.Second, "test")
	ts := time.Unix(1700000000, 0)
	res := s.Send(context.Background(), "http://hooks.example:"+port+"/in", secret, "msg_1", ts, []byte(`{"a":1}`))
	if !res.OK() || res.StatusCode != 200 {
		t.Fatalf("send: %+v", res)
	}
	// An independent check: recompute the HMAC from the headers.
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(got.Header.Get("webhook-id") + "." + got.Header.Get("webhook-timestamp") + "." + string(gotBody)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if got.Header.Get("webhook-signature") != want || got.Header.Get("webhook-timestamp") != "1700000000" {
		t.Errorf("headers %v, want signature %s", got.Header, want)
	}
	if res := s.Send(context.Background(), "http://hooks.example:"+port+"/in", secret, "msg_2", ts, []byte(`"fail"`)); res.OK() || res.StatusCode != 500 {
		t.Errorf("500 answer: %+v", res)
	}
	for _, target := range []string{"http://inside.example/", "http://10.0.0.1/", "http://169.254.169.254/", "http://[::1]/", "file:///etc/passwd", "http://u:p@hooks.example/"} {
		if res := s.Send(context.Background(), target, secret, "msg_3", ts, []byte(`{}`)); !errors.Is(res.Err, ErrBadTarget) {
			t.Errorf("%s: %+v, want ErrBadTarget", target, res)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
