package conversation

// Settings are the conversation's settings, as the caller read them
// (runner: internal/app/config's OCR_CHAT_* variables).
type Settings struct {
	// Handle is the name ocr answers to, without "@" ("ocr").
	Handle string
	// AllReplies answers every trusted reply in ocr's threads, not only
	// those that mention the handle.
	AllReplies bool
	// Trust are upper-case author associations (OWNER, MEMBER ...), and
	// TrustAuthor.
	Trust []string
	// Silent gives an untrusted mention no reply at all.
	Silent bool
	// MaxRequests and MaxTokens cap one answer.
	MaxRequests int
	MaxTokens   int
}

// TrustAuthor in Settings.Trust lets the pull request's author ask.
const TrustAuthor = "author"
