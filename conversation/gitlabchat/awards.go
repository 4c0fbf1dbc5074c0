package gitlabchat

import (
	"context"
	"fmt"
	"net/http"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
)

var _ conversation.Dismisser = (*Forge)(nil)

// glAward is one emoji reaction (award emoji) on a note.
type glAward struct {
	Name string         `json:"name"`
	User gitlabapi.User `json:"user"`
}

// Dismissers lists who reacted 👎 ("thumbsdown") to note root. GitLab's
// discussions carry no reaction counts, so this is one request per note
// of ocr's asked about (ReadDismissed asks only about its findings'
// first notes); the trust gate then asks about each new reactor once.
// https://docs.gitlab.com/api/emoji_reactions/#list-a-comments-emoji-reactions
func (f *Forge) Dismissers(ctx context.Context, root conversation.Note) ([]conversation.Author, error) {
	opt := &gitlab.ListOptions{PerPage: 100}
	var out []conversation.Author
	for {
		var page []glAward
		resp, err := f.send(ctx, http.MethodGet, f.mrPath(fmt.Sprintf("/notes/%d/award_emoji", root.ID)), opt, &page)
		if err != nil {
			return nil, glError(err, fmt.Sprintf("list the reactions to note %d of merge request !%d", root.ID, f.o.MR))
		}
		for _, a := range page {
			if a.Name == "thumbsdown" {
				out = append(out, author(a.User))
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}
