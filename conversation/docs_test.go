package conversation_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The documented workflow (docs/examples/github-conversation.yml, which
// .ci/extra lints with actionlint, embedded verbatim in docs/conversation.md:
// runner's TestDocsExamples) skips, in its
// job's `if:`, comments whose author_association is not one of
// OCR_CHAT_TRUST's defaults: outsiders' comments cost no runner minutes
// (issue 29 item 8).
func TestDocumentedWorkflowSkipsOutsiders(t *testing.T) {
	ex, err := os.ReadFile(filepath.Join("..", "docs", "examples", "github-conversation.yml"))
	if err != nil {
		t.Fatal(err)
	}
	guard := `contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)`
	if !strings.Contains(string(ex), guard) || !strings.Contains(string(ex), "github.event.comment.user.type != 'Bot'") {
		t.Errorf("the workflow's if: does not skip outsiders and bots:\n%s", ex)
	}
}
