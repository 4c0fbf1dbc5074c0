package conversation

import "testing"

func TestParse(t *testing.T) {
	for _, c := range []struct {
		body string
		want Request
	}{
		{"/ocr review", Request{Command: true, Verb: VerbReview}},
		{"  /OCR Pause\nplease", Request{Command: true, Verb: VerbPause}},
		{"@ocr resume", Request{Command: true, Verb: VerbResume}},
		{"@ocr ignore false positive: b is never 0\nmore", Request{Command: true, Verb: VerbIgnore, Arg: "false positive: b is never 0"}},
		{"/ocr ignore", Request{Command: true, Verb: VerbIgnore}},
		{"/ocr frobnicate now", Request{Command: true, Unknown: "frobnicate"}},
		{"/ocr", Request{Command: true}},
		{"@ocr help", Request{Command: true, Verb: VerbHelp}},
		{"@ocr review the error path?", Request{Mention: true, Question: "review the error path?"}},
		{"@ocr, why is this a bug?", Request{Mention: true, Question: "why is this a bug?"}},
		{"Thanks. @ocr can b be zero here?", Request{Mention: true, Question: "Thanks. @ocr can b be zero here?"}},
		{"mail me@ocr.dev", Request{Question: "mail me@ocr.dev"}},
		{"@ocrbot what?", Request{Question: "@ocrbot what?"}},
		{"see `@ocr review` in the docs", Request{Question: "see `@ocr review` in the docs"}},
		{"```\n@ocr\n```", Request{Question: "```\n@ocr\n```"}},
		{"/ocrx review", Request{Question: "/ocrx review"}},
		{"@\u200bocr answered", Request{Question: "@\u200bocr answered"}},
		{"looks good", Request{Question: "looks good"}},
	} {
		if got := Parse(c.body, "ocr"); got != c.want {
			t.Errorf("Parse(%q) = %+v, want %+v", c.body, got, c.want)
		}
	}
}

func TestParseOtherHandle(t *testing.T) {
	if r := Parse("@review-bot pause", "review-bot"); r.Verb != VerbPause {
		t.Errorf("custom handle: %+v", r)
	}
	if r := Parse("@ocr pause", "review-bot"); r.Asks() {
		t.Errorf("the default handle still answered: %+v", r)
	}
}
