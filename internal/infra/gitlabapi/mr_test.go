package gitlabapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
	"github.com/ocr-ci/ocr/internal/infra/readonce"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
)

func newMR(t *testing.T, gl *gitlabfake.Server) *gitlabapi.MR { return newMROn(t, gl, gl.Client()) }

func newMROn(t *testing.T, gl *gitlabfake.Server, hc *http.Client) *gitlabapi.MR {
	t.Helper()
	mr, err := gitlabapi.NewMR(gitlabapi.Config{BaseURL: gl.APIURL(), Token: "tok", HTTPClient: hc}, "42", 5)
	if err != nil {
		t.Fatal(err)
	}
	return mr
}

// TestDiscussionsEveryPaging: the listing reads every page however GitLab
// pages it: offset (X-Next-Page), offset over 10,000 items (no X-Total,
// X-Total-Pages or rel="last"), and keyset (only a Link rel="next", on
// GitLab's external URL, whose cursor alone is followed).
func TestDiscussionsEveryPaging(t *testing.T) {
	for _, tc := range []struct {
		name   string
		paging gitlabfake.Paging
	}{{"offset", gitlabfake.PagingOffset}, {"over 10,000", gitlabfake.PagingLarge}, {"keyset", gitlabfake.PagingKeyset}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gl := gitlabfake.New(t, gitlabfake.Config{})
			for i := range 5 {
				gl.AddNote(gitlabfake.Human("alice"), fmt.Sprintf("note %d", i))
			}
			gl.SetPerPage(2)
			gl.SetPaging(tc.paging)
			ds, skipped, err := newMR(t, gl).Discussions(context.Background())
			if err != nil || skipped != 0 || len(ds) != 5 || ds[4].Notes[0].Body != "note 4" {
				t.Fatalf("%d discussions, %d skipped, %v", len(ds), skipped, err)
			}
			if n := gl.Calls()["GET "+gl.MRPath()+"/discussions"]; n != 3 {
				t.Errorf("%d listing requests, want 3 pages: %v", n, gl.Calls())
			}
		})
	}
}

// TestReadOncePerRun: one MR asks who the token is once; two MRs of one
// run (the poster, the conversation) on one readonce transport read the
// discussions and GET /user once between them.
func TestReadOncePerRun(t *testing.T) {
	gl := gitlabfake.New(t, gitlabfake.Config{})
	run := &http.Client{Transport: readonce.New(gl.Client().Transport)}
	poster, chat := newMROn(t, gl, run), newMROn(t, gl, run)
	for _, m := range []*gitlabapi.MR{poster, poster, chat} {
		if u, err := m.User(context.Background()); err != nil || u.ID == 0 {
			t.Fatalf("user %+v, %v", u, err)
		}
		if _, _, err := m.Discussions(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	calls := gl.Calls()
	if calls[gl.UserRoute()] != 1 || calls["GET "+gl.MRPath()+"/discussions"] != 1 {
		t.Errorf("calls %v, want GET /user and the listing once", calls)
	}
}

// TestRefusedListingKeepsMessage: a listing GitLab refuses, named by
// Wrap, says what was tried, the status and GitLab's own message, and
// keeps the cause.
func TestRefusedListingKeepsMessage(t *testing.T) {
	for _, status := range []int{401, 403, 404} {
		gl := gitlabfake.New(t, gitlabfake.Config{})
		gl.RefuseReads(status)
		_, _, err := newMR(t, gl).Discussions(context.Background())
		err = gitlabapi.Wrap(err, "list the discussions of merge request !5")
		var ae *gitlabapi.Error
		if !errors.As(err, &ae) || ae.Status != status || gitlabapi.Status(err) != status {
			t.Fatalf("%d: %v", status, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, "could not list the discussions of merge request !5") ||
			!strings.Contains(msg, fmt.Sprintf("GitLab answered %d", status)) || !strings.Contains(msg, fmt.Sprintf(`"%d `, status)) {
			t.Errorf("%d: %s", status, msg)
		}
		if gitlabapi.Refused(err) != (status != 404) {
			t.Errorf("%d: Refused = %v", status, gitlabapi.Refused(err))
		}
	}
}
