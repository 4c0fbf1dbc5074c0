package window

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/llm"
)

func TestWindow(t *testing.T) {
	w := New(128_000)
	if w.Completion(8192) != 8192 || w.PromptLimit(1000, 8192) != 128_000*8/10-1000-8192 {
		t.Errorf("a large window changes nothing: completion %d, limit %d", w.Completion(8192), w.PromptLimit(1000, 8192))
	}
	if w.Learn(200_000) || !w.Learn(8192) || w.Learn(8192) || w.Size() != 8192 {
		t.Errorf("Learn only lowers the window: size %d", w.Size())
	}
	if w.Completion(8192) != 2048 || w.Completion(-1) != 0 {
		t.Errorf("completion in a small window %d", w.Completion(8192))
	}
}

func TestRefused(t *testing.T) {
	over := fmt.Errorf("group: %w", &llm.Error{Kind: llm.KindRejected, Status: 400, Window: 4096})
	if n, ok := Refused(over); !ok || n != 4096 {
		t.Errorf("Refused(over) = %d, %v", n, ok)
	}
	if _, ok := Refused(errors.New("other")); ok {
		t.Error("an error without a window is not an over-context refusal")
	}
}
