package githubchat

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v62/github"

	"github.com/ocr-ci/ocr/conversation"
)

var _ conversation.Dismisser = (*Forge)(nil)

// Dismissers lists who reacted 👎 to review comment root. The listing of
// review comments carries each one's reaction counts, so a comment with no
// 👎 costs no request; for the others one request lists the 👎 (content
// "-1"), and each reactor's association comes from a comment of theirs on
// the pull request, else from their permission on the repository
// (associationOf).
// https://docs.github.com/rest/reactions/reactions#list-reactions-for-a-pull-request-review-comment
func (f *Forge) Dismissers(ctx context.Context, root conversation.Note) ([]conversation.Author, error) {
	if !root.InThread || f.thumbsDown[root.ID] == 0 {
		return nil, nil
	}
	rs, err := f.thumbsDownOf(ctx, root.ID)
	if err != nil {
		return nil, err
	}
	var out []conversation.Author
	for _, r := range rs {
		a := author(r.GetUser(), "")
		if !a.Bot {
			a.Association = f.associationOf(ctx, a.Login)
		}
		out = append(out, a)
	}
	return out, nil
}

// thumbsDownOf lists the 👎 reactions of review comment id, all pages.
func (f *Forge) thumbsDownOf(ctx context.Context, id int64) ([]*github.Reaction, error) {
	u := fmt.Sprintf("repos/%s/%s/pulls/comments/%d/reactions?content=-1&per_page=100", f.o.Owner, f.o.Repo, id)
	var out []*github.Reaction
	for u != "" {
		req, err := f.c.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		var page []*github.Reaction
		resp, err := f.c.Do(ctx, req, &page)
		if err != nil {
			return nil, ghError(err, fmt.Sprintf("list the reactions to review comment %d", id), "pull-requests: read")
		}
		out = append(out, page...)
		u = ""
		if resp.NextPage != 0 {
			u = fmt.Sprintf("repos/%s/%s/pulls/comments/%d/reactions?content=-1&per_page=100&page=%d", f.o.Owner, f.o.Repo, id, resp.NextPage)
		}
	}
	return out, nil
}

// associationOf is login's author_association as the pull request's
// comments show it; for someone who never commented there, it is read from
// their permission on the repository: admin counts as OWNER, write (which
// maintain maps to) as COLLABORATOR, anything else as none. A refusal (the
// endpoint needs push access) counts as none and is logged once.
// https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user
func (f *Forge) associationOf(ctx context.Context, login string) string {
	for _, n := range f.notes {
		if strings.EqualFold(n.Author.Login, login) && n.Author.Association != "" {
			return n.Author.Association
		}
	}
	if a, ok := f.perms[login]; ok {
		return a
	}
	p, _, err := f.c.Repositories.GetPermissionLevel(ctx, f.o.Owner, f.o.Repo, login)
	a := map[string]string{"admin": "OWNER", "write": "COLLABORATOR"}[p.GetPermission()]
	if err != nil {
		f.logf("ocr: could not read @%s's permission on %s/%s (%v): their 👎 counts only once they comment on the pull request "+
			"or reply `/ocr ignore`", login, f.o.Owner, f.o.Repo, err)
	}
	if f.perms == nil {
		f.perms = map[string]string{}
	}
	f.perms[login] = a
	return a
}

func (f *Forge) logf(format string, args ...any) {
	if f.o.Logf != nil {
		f.o.Logf(format, args...)
	}
}

// countThumbsDown remembers c's 👎 count from the listing's reaction summary.
func (f *Forge) countThumbsDown(c *github.PullRequestComment) {
	if n := c.GetReactions().GetMinusOne(); n > 0 {
		if f.thumbsDown == nil {
			f.thumbsDown = map[int64]int{}
		}
		f.thumbsDown[c.GetID()] = n
	}
}
