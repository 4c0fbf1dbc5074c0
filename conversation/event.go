package conversation

// Kind is where a comment was written.
type Kind int

// The kinds of comment events.
const (
	// PRComment is a comment on the pull request's conversation
	// (GitHub issue_comment on a pull request).
	PRComment Kind = iota + 1
	// ThreadReply is a review comment: a reply in a thread, or a new
	// thread (GitHub pull_request_review_comment).
	ThreadReply
)

// Event is one comment event, as the platform's payload tells it.
type Event struct {
	Kind Kind
	// Action is "created" for a new comment; edits and deletions are not
	// answered.
	Action string
	// OnPR is false for a comment on an issue that is not a pull request.
	OnPR bool
	PR   int
	// Comment is the comment that triggered the run; for a ThreadReply
	// Comment.Root is its thread's first comment.
	Comment Note
	// PRAuthor is the pull request's author's login, for ChatTrustAuthor.
	PRAuthor string
}
