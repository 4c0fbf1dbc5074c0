package gitlabchat

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/ocr-ci/ocr/conversation"
)

// Setup is what a trigger pipeline has to answer with.
type Setup struct {
	// Project is the pipeline's project (CI_PROJECT_ID).
	Project string
	// Token is set when OCR_GITLAB_TOKEN (or GITLAB_TOKEN) is.
	Token bool
	Chat  conversation.Settings
}

// ParseTrigger reads a trigger pipeline's payload and says, from the
// payload alone, why it asks nothing of ocr (skip, "" when it may):
// another kind of event, a system note, or what conversation.Triage says.
// A payload of another project, or a note to answer without a token, is
// an error.
func ParseTrigger(data []byte, s Setup) (p Payload, skip string, err error) {
	if p, err = ParseEvent(data); err != nil {
		return p, "", err
	}
	project := s.Project
	switch {
	case p.Kind != "note":
		return p, fmt.Sprintf("the webhook sent a %q event: ocr answers note events (the webhook's Comments events)", p.Kind), nil
	case p.System:
		return p, "a system note (written by GitLab itself) is never answered", nil
	case project != "" && p.ProjectID != 0 && project != strconv.FormatInt(p.ProjectID, 10):
		return p, "", fmt.Errorf("the note event is for project %d but this pipeline runs in project %s: "+
			"point each project's webhook at its own trigger", p.ProjectID, project)
	}
	if _, skip = conversation.Triage(p.Event, s.Chat); skip == "" && !s.Token {
		return p, "", errors.New("answering on GitLab needs OCR_GITLAB_TOKEN (or GITLAB_TOKEN): a project or group access " +
			"token with the api scope; CI_JOB_TOKEN cannot create merge request notes")
	}
	return p, skip, nil
}

// Open builds the forge of p's merge request (o names the project and how
// to connect; its MR is p's), and re-reads p's note from the API
// (Forge.Confirm).
func Open(ctx context.Context, o Options, p Payload) (*Forge, conversation.Event, error) {
	ev := p.Event
	o.MR = ev.PR
	f, err := New(o)
	if err == nil {
		err = f.Confirm(ctx, &ev)
	}
	return f, ev, err
}

// ReadRefs reads the merge request o names: what a trigger pipeline
// reviews (Forge.MergeRequest).
func ReadRefs(ctx context.Context, o Options) (Refs, error) {
	f, err := New(o)
	if err != nil {
		return Refs{}, err
	}
	return f.MergeRequest(ctx)
}
