package tcpproxy

import (
	"bufio"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"
)

// echoServer answers each line with itself, until the test ends.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.Copy(c, c) //nolint:errcheck // until the client leaves
			}()
		}
	}()
	return ln.Addr().String()
}

func roundTrip(c net.Conn, line string) (string, error) {
	c.SetDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // a bound, not a wait
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return "", err
	}
	got, err := bufio.NewReader(c).ReadString('\n')
	return got, err
}

// TestDownRefusesAndCuts: through the proxy a connection works; Down ends
// it and refuses new ones at once; Up lets new ones through on the same
// address.
func TestDownRefusesAndCuts(t *testing.T) {
	p, err := New(echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := roundTrip(c, "one"); err != nil || got != "one\n" {
		t.Fatalf("before the cut: %q, %v", got, err)
	}

	p.Down()
	if got, err := roundTrip(c, "two"); err == nil {
		t.Errorf("an open connection still answered %q after Down", got)
	}
	if _, err := net.Dial("tcp", p.Addr()); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial while down: %v, want connection refused", err)
	}

	if err := p.Up(); err != nil {
		t.Fatal(err)
	}
	c2, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatalf("dial after Up: %v", err)
	}
	defer c2.Close()
	if got, err := roundTrip(c2, "three"); err != nil || got != "three\n" {
		t.Errorf("after Up: %q, %v", got, err)
	}
}
