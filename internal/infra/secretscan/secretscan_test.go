package secretscan

import "testing"

func TestFindCredentials(t *testing.T) {
	for in, want := range map[string]Kind{
		"-----BEGIN RSA PRIVATE KEY-----\nMIIE...":               PrivateKey,
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl":              PrivateKey,
		"-----BEGIN EC PRIVATE KEY-----":                         PrivateKey,
		"-----BEGIN ENCRYPTED PRIVATE KEY-----":                  PrivateKey,
		"-----BEGIN PGP PRIVATE KEY BLOCK-----":                  PrivateKey,
		"PuTTY-User-Key-File-3: ssh-ed25519":                     PrivateKey,
		`{"type": "service_account", "private_key": "-----BEGIN`: PrivateKey,
		"aws_access_key_id = AKIAQWERTYUIOPASDFGH":               Token,
		"token: ghp_" + repeat("a1B2", 9):                        Token,
		"GH_TOKEN=gho_" + repeat("Zz09", 9):                      Token,
		"github_pat_11ABCDEFG0" + repeat("x", 60):                Token,
		"glpat-" + repeat("Ab1_", 5):                             Token,
		"SLACK=xoxb-1234567890-abcdefghij":                       Token,
		"OPENAI_API_KEY=sk-proj-" + repeat("aB3d", 10):           Token,
		"key = 'sk-" + repeat("Q", 48) + "'":                     Token,
		"maps: AIzaSyA" + repeat("b", 32):                        Token,
	} {
		if got := FindString(in); got != want {
			t.Errorf("FindString(%q) = %q, want %q", in, got, want)
		}
		if got := Find([]byte(in)); got != want {
			t.Errorf("Find(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFindLeavesOrdinaryCode(t *testing.T) {
	for _, in := range []string{
		"-----BEGIN PUBLIC KEY-----", "-----BEGIN CERTIFICATE-----", "func ParsePrivateKey(der []byte)",
		"task-runner-queue-worker-process-manager", "ghp_short", "AKIA is the AWS key prefix",
		"disk-0123456789abcdefghijklmnopqrstuv", "xox is a game", `"private_key": os.Getenv("KEY")`,
	} {
		if got := FindString(in); got != "" {
			t.Errorf("FindString(%q) = %q, want nothing", in, got)
		}
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
