// Package gitlabchat is the GitLab side of the conversation: it reads the
// note event GitLab sends to a pipeline trigger (the file named by
// TRIGGER_PAYLOAD) into a conversation.Event, and implements
// conversation.Forge over the REST API (discussions, members).
package gitlabchat

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
)

// Ids and line numbers are read with gitlabapi.Int, the one tolerant
// decoder of GitLab's numbers (webhook payloads echo some as strings).

// author is the conversation's view of a GitLab user; a project or group
// access token's user is a bot whatever its bot field says.
func author(u gitlabapi.User) conversation.Author {
	return conversation.Author{Login: u.Username, ID: int64(u.ID), Bot: u.Bot || BotUsername(u.Username)}
}

// botNameRE matches the users GitLab creates for project and group access
// tokens: project_<id>_bot_<hex> (project_<id>_bot, project_<id>_bot<n>
// before GitLab 14.x) and group_<id>_bot…. Note authors and webhook users
// carry no bot field; the username, which such users cannot change, tells.
// https://docs.gitlab.com/user/project/settings/project_access_tokens/#bot-users-for-projects
var botNameRE = regexp.MustCompile(`^(project|group)_[0-9]+_bot[0-9a-z_]*$`)

// BotUsername reports a project or group access token's user.
func BotUsername(username string) bool { return botNameRE.MatchString(username) }

// notePayload is the note event, as much as ocr reads of it.
// https://docs.gitlab.com/user/project/integrations/webhook_events/#comment-events
type notePayload struct {
	ObjectKind string         `json:"object_kind"`
	User       gitlabapi.User `json:"user"`
	ProjectID  gitlabapi.Int  `json:"project_id"`
	Attrs      struct {
		ID           gitlabapi.Int       `json:"id"`
		Note         string              `json:"note"`
		Type         *string             `json:"type"`
		NoteableType string              `json:"noteable_type"`
		DiscussionID string              `json:"discussion_id"`
		System       bool                `json:"system"`
		Action       string              `json:"action"`
		CreatedAt    string              `json:"created_at"`
		UpdatedAt    string              `json:"updated_at"`
		Position     *gitlabapi.Position `json:"position"`
	} `json:"object_attributes"`
	MergeRequest *MergeRequest `json:"merge_request"`
}

// MergeRequest is what the payload says of the merge request: which one
// (its IID), nothing more. The payload is untrusted (whoever holds the
// trigger token can send anything, and a retried one is stale): the head,
// the branches, the projects and the state are read from the API
// (Forge.MergeRequest).
type MergeRequest struct {
	IID int `json:"iid"`
}

// Payload is a parsed note event.
type Payload struct {
	Event conversation.Event
	// MR is nil for a note on anything but a merge request.
	MR *MergeRequest
	// ProjectID is the project the webhook belongs to.
	ProjectID int64
	// Kind is object_kind: "note" for a comment.
	Kind string
	// System is set for a note GitLab wrote itself ("added 1 commit").
	System bool
}

// ParseEvent reads the note event of a trigger pipeline (TRIGGER_PAYLOAD).
// A system note ("added 1 commit") is reported as a bot's: never answered.
func ParseEvent(data []byte) (Payload, error) {
	var p notePayload
	if err := json.Unmarshal(data, &p); err != nil {
		return Payload{}, fmt.Errorf("could not parse the GitLab webhook payload (TRIGGER_PAYLOAD): %w", err)
	}
	out := Payload{Kind: p.ObjectKind, ProjectID: int64(p.ProjectID), MR: p.MergeRequest, System: p.Attrs.System}
	if p.ObjectKind != "note" {
		return out, nil
	}
	a := p.Attrs
	if a.ID == 0 {
		return out, errors.New("the GitLab note event (TRIGGER_PAYLOAD) has no object_attributes.id: is the webhook's payload cut?")
	}
	ev := conversation.Event{Kind: conversation.PRComment, Action: action(a.Action, a.CreatedAt, a.UpdatedAt),
		OnPR: a.NoteableType == "MergeRequest" && p.MergeRequest != nil}
	if ev.OnPR {
		ev.PR = p.MergeRequest.IID
	}
	n := conversation.Note{ID: int64(a.ID), Author: author(p.User), Body: a.Note}
	n.Author.Bot = n.Author.Bot || a.System
	if a.Type != nil && (*a.Type == "DiffNote" || *a.Type == "DiscussionNote") {
		ev.Kind, n.InThread, n.Thread = conversation.ThreadReply, true, a.DiscussionID
		if a.Position != nil {
			n.Path, n.Line = strings.TrimSpace(a.Position.NewPath), int(a.Position.NewLine)
		}
	}
	ev.Comment = n
	return out.with(ev), nil
}

func (p Payload) with(ev conversation.Event) Payload { p.Event = ev; return p }

// action maps GitLab's action to the conversation's: "create" is
// "created". GitLab before 16.11 sends none: a note never edited has
// created_at == updated_at.
func action(a, created, updated string) string {
	switch {
	case a == "create":
		return "created"
	case a == "update":
		return "updated"
	case a != "":
		return a
	case created != "" && created == updated:
		return "created"
	}
	return "updated"
}
