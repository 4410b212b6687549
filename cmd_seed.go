package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/seed"
)

// seed adds bulk, realistic data for benchmarks and trials.
func (e env) seed(ctx context.Context, args []string) int {
	var opts seed.Options
	code, ok := e.parse("seed", "[flags]\n\nAdds realistic bulk data for benchmarks and trials.", args, func(fs *flag.FlagSet) {
		fs.IntVar(&opts.Users, "users", 1000, "users to add")
		fs.IntVar(&opts.Posts, "posts", 5000, "posts to add")
		fs.IntVar(&opts.Events, "events", 0, "analytics events to add")
		fs.Uint64Var(&opts.Seed, "seed", 0, "random seed (0: a new one each run)")
	})
	if !ok {
		return code
	}
	if opts.Users < 0 || opts.Posts < 0 || opts.Events < 0 || (opts.Posts > 0 && opts.Users == 0) {
		fmt.Fprintln(e.stderr, "plaza seed: counts must be >= 0, and posts need --users > 0")
		return exitUsage
	}
	rt, err := e.open(ctx, app.Options{})
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	p := newProgress(e.stderr)
	opts.Progress = p.update
	start := time.Now()
	res, err := seed.Bulk(ctx, rt.Store, opts)
	p.finish()
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintf(e.stdout, "seeded %d users, %d posts, %d reports, %d events in %s\n",
		res.Users, res.Posts, res.Reports, res.Events, time.Since(start).Round(time.Millisecond))
	return exitOK
}

// progress draws a bar per stage on a terminal and prints a line per tenth
// elsewhere (CI logs, pipes).
type progress struct {
	w     io.Writer
	tty   bool
	stage string
	bar   *progressbar.ProgressBar
	tenth int64
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, tty: ok && term.IsTerminal(int(f.Fd()))}
}

func (p *progress) update(stage string, done, total int64) {
	if stage != p.stage {
		p.finish()
		p.stage, p.tenth = stage, -1
		if p.tty {
			p.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetDescription(fmt.Sprintf("%-8s", stage)), progressbar.OptionShowCount(),
				progressbar.OptionShowIts(), progressbar.OptionSetItsString("rows"), progressbar.OptionThrottle(100*time.Millisecond))
		}
	}
	if p.bar != nil {
		p.bar.Set64(done) //nolint:errcheck // drawing only
		return
	}
	if total > 0 {
		if t := done * 10 / total; t != p.tenth {
			p.tenth = t
			fmt.Fprintf(p.w, "%s: %d/%d\n", stage, done, total)
		}
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish() //nolint:errcheck // drawing only
		fmt.Fprintln(p.w)
		p.bar = nil
	}
}
