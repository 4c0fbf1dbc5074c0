// Command quality measures how good ocr's reviews are on a dataset in the
// format of AACR-Bench (github.com/alibaba/aacr-bench): it runs `ocr
// review` on every pull request of the dataset, in local clones, under
// several settings, with any OpenAI-compatible endpoint, and writes one
// table: precision, recall and line precision of the comments the posting
// plan would post inline, comments per clean change, requests and tokens.
// See README.md.
//
//	go run ./bench/quality -dataset DIR -repos DIR [-settings 'passes=1;passes=3'] [-judge-url URL ...]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/ocr-ci/ocr/internal/infra/llm"
)

// options are the command's flags.
type options struct {
	Dataset, Repos, Settings string
	Tolerance, Jobs, Limit   int
	OCR                      string
	Env                      map[string]string // OCR_* and the LLM endpoint, for ocr
	Judge                    *llm.Config
	Out                      io.Writer // the table, unless OutPath names a file
	OutPath                  string
	Progress                 io.Writer
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	o, err := parseFlags(os.Args[1:])
	if err == nil {
		err = run(ctx, o)
	}
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/quality:", err)
		os.Exit(2)
	}
}

// parseFlags reads the flags; the endpoint comes from the OCR_LLM_* (or
// OPENAI_*) variables unless -llm-url and -llm-model are given.
func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("quality", flag.ContinueOnError)
	o := options{Out: os.Stdout, Progress: os.Stderr, Env: map[string]string{}}
	fs.StringVar(&o.Dataset, "dataset", "", "`DIR` holding positive_samples.json and negative_samples.json")
	fs.StringVar(&o.Repos, "repos", "", "`DIR` of the clones, one per repository at DIR/OWNER/NAME")
	fs.StringVar(&o.Settings, "settings", "passes=1;passes=3;passes=3,no-filter", "`SETTINGS` to compare, ';' between settings, ',' between ocr review flags without dashes")
	fs.IntVar(&o.Tolerance, "tolerance", 3, "`LINES` a comment may be off an expected one's range and still match")
	fs.IntVar(&o.Jobs, "jobs", 2, "reviews run at once")
	fs.IntVar(&o.Limit, "limit", 0, "review only the first `N` changes (0: all)")
	fs.StringVar(&o.OCR, "ocr", "", "`PATH` of an ocr binary to run (default: this source tree's, in-process)")
	llmURL := fs.String("llm-url", "", "`URL` of the OpenAI-compatible endpoint reviewed with (default OCR_LLM_URL)")
	llmModel := fs.String("llm-model", "", "`MODEL` reviewed with (default OCR_LLM_MODEL)")
	judgeURL := fs.String("judge-url", "", "`URL` of an endpoint that judges whether two comments mean the same (none: location only)")
	judgeModel := fs.String("judge-model", "", "`MODEL` of the judge")
	out := fs.String("out", "", "`FILE` to write the table to (default stdout)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.Dataset == "" || o.Repos == "" {
		return o, fmt.Errorf("give -dataset DIR and -repos DIR (see bench/quality/README.md)")
	}
	for _, kv := range os.Environ() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OCR_") || strings.HasPrefix(k, "OPENAI_") {
			o.Env[k] = v
		}
	}
	setIf(o.Env, "OCR_LLM_URL", *llmURL)
	setIf(o.Env, "OCR_LLM_MODEL", *llmModel)
	if *judgeURL != "" {
		o.Judge = &llm.Config{URL: *judgeURL, Model: *judgeModel, Token: os.Getenv("OCR_JUDGE_TOKEN")}
	}
	o.OutPath = *out
	return o, nil
}

func setIf(m map[string]string, k, v string) {
	if v != "" {
		m[k] = v
	}
}
