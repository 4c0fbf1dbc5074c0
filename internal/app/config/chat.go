package config

import (
	"regexp"
	"strings"
)

// The conversation defaults (docs/conversation.md): who may ask, what one
// answer may cost, and the lower caps of a fork's pull request.
const (
	DefaultChatHandle      = "ocr"
	DefaultChatMaxRequests = 8
	DefaultChatMaxTokens   = 100_000
	ForkChatMaxRequests    = 4
	ForkChatMaxTokens      = 50_000
	// ChatTrustAuthor in OCR_CHAT_TRUST lets the pull request's author ask.
	ChatTrustAuthor = "author"
)

// DefaultChatTrust are the GitHub author associations that may ask.
var DefaultChatTrust = []string{"OWNER", "MEMBER", "COLLABORATOR"}

// chatAssociations are the values of GitHub's author_association.
// https://docs.github.com/graphql/reference/enums#commentauthorassociation
var chatAssociations = map[string]bool{"OWNER": true, "MEMBER": true, "COLLABORATOR": true, "CONTRIBUTOR": true,
	"FIRST_TIME_CONTRIBUTOR": true, "FIRST_TIMER": true, "MANNEQUIN": true, "NONE": true}

// handleRE is a GitHub or GitLab login: what can follow "@".
var handleRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}$`)

// Chat is the conversation settings with their defaults.
type Chat struct {
	Handle string
	// AllReplies answers every trusted reply in ocr's threads, not only
	// those that mention the handle.
	AllReplies bool
	// Trust are upper-case author associations, and ChatTrustAuthor.
	Trust []string
	// Silent gives an untrusted mention no reply at all.
	Silent      bool
	MaxRequests int
	MaxTokens   int
}

// ChatSettings returns the conversation settings; fork lowers the caps
// the user did not set.
func (c *Config) ChatSettings(fork bool) Chat {
	ch := Chat{Handle: strings.TrimPrefix(strings.TrimSpace(c.ChatHandle), "@"), AllReplies: c.ChatReplies == "all",
		Silent: c.ChatUntrusted == "silent", MaxRequests: c.ChatMaxRequests, MaxTokens: c.ChatMaxTokens}
	if ch.Handle == "" {
		ch.Handle = DefaultChatHandle
	}
	for _, t := range c.ChatTrust {
		if t = strings.TrimSpace(t); strings.EqualFold(t, ChatTrustAuthor) {
			ch.Trust = append(ch.Trust, ChatTrustAuthor)
		} else if t != "" {
			ch.Trust = append(ch.Trust, strings.ToUpper(t))
		}
	}
	if len(ch.Trust) == 0 {
		ch.Trust = DefaultChatTrust
	}
	if fork {
		setIfZero(&ch.MaxRequests, ForkChatMaxRequests)
		setIfZero(&ch.MaxTokens, ForkChatMaxTokens)
	}
	setIfZero(&ch.MaxRequests, DefaultChatMaxRequests)
	setIfZero(&ch.MaxTokens, DefaultChatMaxTokens)
	return ch
}

// validateChat refuses conversation settings that would be misread.
func (c *Config) validateChat() error {
	switch {
	case c.ChatHandle != "" && !handleRE.MatchString(strings.TrimPrefix(c.ChatHandle, "@")):
		return errorf("OCR_HANDLE %q: want a login such as ocr or my-bot (letters, digits, '-', '_', '.')", c.ChatHandle)
	case c.ChatReplies != "" && c.ChatReplies != "mention" && c.ChatReplies != "all":
		return errorf("OCR_CHAT_REPLIES %q: want mention or all", c.ChatReplies)
	case c.ChatUntrusted != "" && c.ChatUntrusted != "reply" && c.ChatUntrusted != "silent":
		return errorf("OCR_CHAT_UNTRUSTED %q: want reply or silent", c.ChatUntrusted)
	case c.ChatMaxRequests < 0 || c.ChatMaxTokens < 0:
		return errorf("OCR_CHAT_MAX_REQUESTS and OCR_CHAT_MAX_TOKENS must not be negative (0 means the default)")
	}
	for _, t := range c.ChatTrust {
		if t = strings.TrimSpace(t); t != "" && !strings.EqualFold(t, ChatTrustAuthor) && !chatAssociations[strings.ToUpper(t)] {
			return errorf("OCR_CHAT_TRUST %q: want author associations (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR...) or author", t)
		}
	}
	return nil
}
