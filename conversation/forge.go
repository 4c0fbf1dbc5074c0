package conversation

import (
	"context"
	"errors"
)

// The failures of a write that the conversation tells apart (a Forge
// wraps them): the thread or comment is gone (deleted), the conversation
// is locked, the platform's rate limit is spent, the token may not write.
var (
	ErrGone        = errors.New("gone")
	ErrLocked      = errors.New("the conversation is locked")
	ErrRateLimited = errors.New("rate limited")
	ErrForbidden   = errors.New("not permitted")
)

// Forge is what the conversation needs of a platform. The GitHub
// implementation is conversation/githubchat; a GitLab one implements the
// same methods:
//
//   - Event: a note event (the file named by TRIGGER_PAYLOAD when
//     CI_PIPELINE_SOURCE=trigger) becomes an Event: a note on a merge
//     request discussion whose first note is ocr's is a ThreadReply
//     (Thread = the discussion id), a note outside a discussion a PRComment.
//   - Trusted: a project member with at least Developer access (30),
//     GET /projects/:id/members/all/:user_id; ChatTrustAuthor compares with
//     the merge request's author.
//   - Reply: POST /projects/:id/merge_requests/:iid/discussions/:discussion_id/notes.
//   - Resolve: PUT .../discussions/:discussion_id?resolved=true.
//
// Every method may be called at most once per run for the same arguments
// except Own, which the forge should answer from what it learnt once.
type Forge interface {
	// Own reports whether a comment by a counts as ocr's own: written by
	// the account ocr posts as (a marker alone proves nothing).
	Own(ctx context.Context, a Author) (bool, error)
	// Trusted reports whether a may make ocr spend or write, by the
	// platform's rule for the configured trust list (Settings.Trust);
	// prAuthor is the pull request's author's login.
	Trusted(ctx context.Context, a Author, trust []string, prAuthor string) (bool, error)
	// PullRequest reads the pull request's title, description and author.
	PullRequest(ctx context.Context) (PullRequest, error)
	// Notes lists every comment of the pull request, its conversation and
	// its review threads, oldest first.
	Notes(ctx context.Context) ([]Note, error)
	// Reply answers in the thread whose first comment is root.
	Reply(ctx context.Context, root Note, body string) error
	// Comment posts body on the pull request's conversation.
	Comment(ctx context.Context, body string) error
	// Resolve resolves the thread whose first comment is root.
	Resolve(ctx context.Context, root Note) error
}

// Author is who wrote a comment, as the platform says.
type Author struct {
	Login string
	ID    int64
	// Bot is set for an account of type Bot (GitHub Apps, dependabot,
	// github-actions).
	Bot bool
	// Association is GitHub's author_association (OWNER, MEMBER,
	// COLLABORATOR, CONTRIBUTOR, NONE...); "" where the platform has none.
	Association string
}

// Note is one comment of the pull request.
type Note struct {
	ID     int64
	Author Author
	Body   string
	// InThread is set for a review comment (a line or file comment and its
	// replies); Root is the ID of its thread's first comment (its own ID
	// for a first comment).
	InThread bool
	Root     int64
	// Thread names the thread where the platform's thread ids are not
	// comment ids (GitLab's 40-hex discussion id); "" on GitHub. When the
	// event's comment has one, threads are matched by it, not by Root.
	Thread string
	// Path and Line say where a thread's first comment is (Line 0: on the
	// file, or outdated); StartLine starts a range.
	Path            string
	Line, StartLine int
}

// PullRequest is what the model is told of the pull request.
type PullRequest struct {
	Title, Body string
	Author      string
	// Fork is set when the head is in another repository, or in one the
	// platform no longer names (a deleted fork): the fork caps apply.
	Fork bool
	// Closed is set for a closed pull request, Merged for a merged one
	// (GitLab: state closed, merged or locked): no review is run on it.
	Closed, Merged bool
}
