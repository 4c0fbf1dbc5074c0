// Command ocr is an AI code reviewer for CI. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ocr-ci/ocr/runner"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	cmd := &runner.Command{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, IsTerminal: runner.IsTerminal(os.Stdout),
		LookupEnv: os.LookupEnv}
	code := cmd.Main(ctx, os.Args)
	stop()
	os.Exit(code)
}
