package gitlabapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// maxPages stops a listing whose server keeps naming a next page.
const maxPages = 1000

// eachPage GETs path with opt, page after page, and hands each item of
// each page to item. The next page is what GitLab names, whichever way:
// X-Next-Page (offset pagination; X-Total and X-Total-Pages are left out
// above 10,000 items, so they are never relied on) or only a Link
// rel="next" (keyset pagination sends no X-Next-Page), whose query alone
// is used, never its host (gitlab.WithNext).
// https://docs.gitlab.com/api/rest/#pagination
func eachPage(ctx context.Context, m *MR, path string, opt any, item func(json.RawMessage)) error {
	var next []gitlab.RequestOptionFunc
	for range maxPages {
		req, err := m.Client.NewRequest(http.MethodGet, path, opt, append([]gitlab.RequestOptionFunc{gitlab.WithContext(ctx)}, next...))
		if err != nil {
			return err
		}
		var page []json.RawMessage
		resp, err := m.Client.Do(req, &page)
		if err != nil {
			return err
		}
		for _, raw := range page {
			item(raw)
		}
		more, ok := gitlab.WithNext(resp)
		if !ok || len(page) == 0 {
			return nil
		}
		next = []gitlab.RequestOptionFunc{more}
	}
	return fmt.Errorf("GitLab named a next page after %d pages of %s: stopped", maxPages, path)
}
