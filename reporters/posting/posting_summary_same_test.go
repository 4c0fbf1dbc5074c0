package posting

import "testing"

func TestSameSummaryIgnoresOnlyUsage(t *testing.T) {
	a := "<!-- ocr:summary -->\n## ocr review\n\n" + usagePrefix + "3 requests, 10 prompt + 2 completion tokens.</sub>\n<!-- ocr:state head=abc config=1 -->"
	b := "<!-- ocr:summary -->\n## ocr review\n\n" + usagePrefix + "4 requests, 99 prompt + 5 completion tokens.</sub>\n<!-- ocr:state head=abc config=1 -->"
	c := "<!-- ocr:summary -->\n## ocr review\n\n" + usagePrefix + "3 requests, 10 prompt + 2 completion tokens.</sub>\n<!-- ocr:state head=def config=1 -->"
	if !SameSummary(a, b) {
		t.Error("a different usage line alone must not count as a change")
	}
	if SameSummary(a, c) {
		t.Error("a different reviewed head is a change")
	}
}
