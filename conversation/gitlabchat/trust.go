package gitlabchat

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
)

// Developer is GitLab's Developer access level: the least that may make
// ocr spend or write by default.
// https://docs.gitlab.com/api/access_requests/#valid-access-levels
const Developer = 30

// minLevel maps OCR_CHAT_TRUST's GitHub associations onto GitLab access
// levels: OWNER is an Owner (50), MEMBER and COLLABORATOR a Developer
// (30), CONTRIBUTOR a Reporter (20); 0 when none names a member.
func minLevel(trust []string) int {
	levels := map[string]int{"OWNER": 50, "MEMBER": Developer, "COLLABORATOR": Developer, "CONTRIBUTOR": 20,
		"FIRST_TIME_CONTRIBUTOR": 20, "FIRST_TIMER": 20}
	lowest := 0
	for _, t := range trust {
		if l, ok := levels[t]; ok && (lowest == 0 || l < lowest) {
			lowest = l
		}
	}
	return lowest
}

// Trusted reports whether a is the merge request's author (with "author"
// in trust) or a project member, inherited membership included, whose
// access level reaches trust's lowest (Developer by default). The member
// is read from the API, never from the payload.
// https://docs.gitlab.com/api/members/#get-a-member-of-a-group-or-project-including-inherited-and-invited-members
func (f *Forge) Trusted(ctx context.Context, a conversation.Author, trust []string, prAuthor string) (bool, error) {
	for _, t := range trust {
		if t == "author" && prAuthor != "" && strings.EqualFold(a.Login, prAuthor) {
			return true, nil
		}
	}
	need := minLevel(trust)
	if need == 0 || a.ID == 0 {
		return false, nil
	}
	level, err := f.accessLevel(ctx, a.ID)
	return level >= need, err
}

// accessLevel is a's access level on the project, 0 for a non-member
// (GitLab answers 404). /members/all/: plain /members/:id answers 404 for
// a member inherited from a group.
func (f *Forge) accessLevel(ctx context.Context, id int64) (int, error) {
	if l, ok := f.members[id]; ok {
		return l, nil
	}
	var m struct {
		AccessLevel gitlabapi.Int `json:"access_level"`
		State       string        `json:"state"`
	}
	path := fmt.Sprintf("projects/%s/members/all/%d", gitlab.PathEscape(f.o.Project), id)
	err := f.do(ctx, http.MethodGet, path, nil, &m)
	switch {
	case status(err) == http.StatusNotFound:
		m.AccessLevel = 0
	case err != nil:
		return 0, glError(err, fmt.Sprintf("read the membership of user %d", id))
	case m.State != "" && m.State != "active":
		m.AccessLevel = 0 // blocked or awaiting approval
	}
	f.members[id] = int(m.AccessLevel)
	return int(m.AccessLevel), nil
}
