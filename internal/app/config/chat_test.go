package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestChatSettings(t *testing.T) {
	t.Parallel()
	c, err := Load(MapLookup(map[string]string{"OCR_HANDLE": "@review-bot", "OCR_CHAT_REPLIES": "all",
		"OCR_CHAT_TRUST": "owner,member,author", "OCR_CHAT_UNTRUSTED": "silent", "OCR_CHAT_MAX_REQUESTS": "3"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	got := c.ChatSettings(false)
	want := Chat{Handle: "review-bot", AllReplies: true, Trust: []string{"OWNER", "MEMBER", ChatTrustAuthor}, Silent: true,
		MaxRequests: 3, MaxTokens: DefaultChatMaxTokens}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ChatSettings = %+v, want %+v", got, want)
	}
	// A fork lowers only what the user left unset.
	if f := c.ChatSettings(true); f.MaxRequests != 3 || f.MaxTokens != ForkChatMaxTokens {
		t.Errorf("fork caps = %d requests, %d tokens", f.MaxRequests, f.MaxTokens)
	}
	var zero Config
	if d := zero.ChatSettings(false); d.Handle != "ocr" || !reflect.DeepEqual(d.Trust, DefaultChatTrust) || d.AllReplies || d.Silent ||
		d.MaxRequests != DefaultChatMaxRequests {
		t.Errorf("defaults = %+v", d)
	}
}

func TestChatSettingsRefused(t *testing.T) {
	t.Parallel()
	for k, v := range map[string]string{"OCR_HANDLE": "o c r", "OCR_CHAT_REPLIES": "some", "OCR_CHAT_TRUST": "EVERYONE",
		"OCR_CHAT_UNTRUSTED": "shout", "OCR_CHAT_MAX_TOKENS": "-1"} {
		c, err := Load(MapLookup(map[string]string{k: v}))
		if err == nil {
			err = c.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%q: error %v, want one naming it", k, v, err)
		}
	}
}
