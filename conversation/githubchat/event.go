// Package githubchat is the GitHub side of the conversation: it reads the
// issue_comment and pull_request_review_comment payloads into
// conversation.Events, and implements conversation.Forge over the REST API
// (comments, replies) and GraphQL (resolving a review thread).
package githubchat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/conversation"
)

// The events that carry comments.
// https://docs.github.com/webhooks/webhook-events-and-payloads#issue_comment
// https://docs.github.com/webhooks/webhook-events-and-payloads#pull_request_review_comment
const (
	EventIssueComment  = "issue_comment"
	EventReviewComment = "pull_request_review_comment"
)

// IsCommentEvent reports whether the workflow runs for a comment.
func IsCommentEvent(name string) bool { return name == EventIssueComment || name == EventReviewComment }

type ghUser struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"`
}

func (u ghUser) author(assoc string) conversation.Author {
	return conversation.Author{Login: u.Login, ID: u.ID, Bot: strings.EqualFold(u.Type, "Bot"), Association: strings.ToUpper(assoc)}
}

type ghComment struct {
	ID                int64  `json:"id"`
	Body              string `json:"body"`
	User              ghUser `json:"user"`
	AuthorAssociation string `json:"author_association"`
	InReplyTo         int64  `json:"in_reply_to_id"`
	Path              string `json:"path"`
	Line              *int   `json:"line"`
	StartLine         *int   `json:"start_line"`
	CreatedAt         string `json:"created_at"`
}

// note is the comment as the conversation sees it; thread is set for a
// review comment.
func (c ghComment) note(thread bool) conversation.Note {
	n := conversation.Note{ID: c.ID, Author: c.User.author(c.AuthorAssociation), Body: c.Body, InThread: thread, Path: c.Path}
	if thread {
		n.Root = c.ID
		if c.InReplyTo != 0 {
			n.Root = c.InReplyTo
		}
	}
	if c.Line != nil {
		n.Line = *c.Line
	}
	if c.StartLine != nil {
		n.StartLine = *c.StartLine
	}
	return n
}

type payload struct {
	Action  string    `json:"action"`
	Comment ghComment `json:"comment"`
	Issue   *struct {
		Number      int             `json:"number"`
		PullRequest json.RawMessage `json:"pull_request"`
		User        ghUser          `json:"user"`
	} `json:"issue"`
	PullRequest *struct {
		Number int    `json:"number"`
		User   ghUser `json:"user"`
	} `json:"pull_request"`
}

// ParseEvent reads the payload of a comment event (GITHUB_EVENT_PATH).
func ParseEvent(name string, data []byte) (conversation.Event, error) {
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return conversation.Event{}, fmt.Errorf("could not parse the %s payload (GITHUB_EVENT_PATH): %w", name, err)
	}
	ev := conversation.Event{Action: p.Action}
	switch {
	case name == EventIssueComment && p.Issue != nil:
		ev.Kind, ev.PR, ev.PRAuthor = conversation.PRComment, p.Issue.Number, p.Issue.User.Login
		ev.OnPR = len(p.Issue.PullRequest) > 0 && string(p.Issue.PullRequest) != "null"
		ev.Comment = p.Comment.note(false)
	case name == EventReviewComment && p.PullRequest != nil:
		ev.Kind, ev.PR, ev.PRAuthor, ev.OnPR = conversation.ThreadReply, p.PullRequest.Number, p.PullRequest.User.Login, true
		ev.Comment = p.Comment.note(true)
	default:
		return ev, fmt.Errorf("the %s payload (GITHUB_EVENT_PATH) names no issue or pull request", name)
	}
	if ev.Comment.ID == 0 {
		return ev, fmt.Errorf("the %s payload (GITHUB_EVENT_PATH) has no comment", name)
	}
	return ev, nil
}
