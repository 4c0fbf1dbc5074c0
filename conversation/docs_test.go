package conversation_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The documented workflow (docs/conversation.md, and the same file in
// docs/examples, which .ci/extra lints with actionlint) skips, in its
// job's `if:`, comments whose author_association is not one of
// OCR_CHAT_TRUST's defaults: outsiders' comments cost no runner minutes
// (issue 29 item 8).
func TestDocumentedWorkflowSkipsOutsiders(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "conversation.md"))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := os.ReadFile(filepath.Join("..", "docs", "examples", "github-conversation.yml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindSubmatch(doc)
	if m == nil || string(m[1]) != string(ex) {
		t.Fatal("the workflow in docs/conversation.md and docs/examples/github-conversation.yml differ")
	}
	guard := `contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)`
	if !strings.Contains(string(ex), guard) || !strings.Contains(string(ex), "github.event.comment.user.type != 'Bot'") {
		t.Errorf("the workflow's if: does not skip outsiders and bots:\n%s", ex)
	}
}
