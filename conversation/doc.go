// Package conversation makes ocr a reviewer people can talk to, without a
// server or a database: the CI job that reviews a pull request also runs
// on comment events, and this package decides what a comment asks for and
// answers it.
//
//   - A reply in ocr's own review thread that mentions the handle ("@ocr"),
//     or any trusted reply there with Settings.AllReplies, is answered in
//     the thread (Kind ThreadReply).
//   - "@ocr <question>" on the pull request is answered as a comment that
//     quotes the question (Kind PRComment).
//   - "/ocr VERB" or "@ocr VERB" at the start of a comment is a command:
//     review, pause, resume, ignore (in ocr's thread), help.
//
// Only trusted authors make ocr spend money or write (trust.go); bots and
// ocr's own account never do, so ocr cannot answer itself. The question is
// untrusted input like a diff: it is data in the prompt, delimited, and can
// change nothing of ocr's configuration, tools or trusted ref.
//
// Pause and ignore are read back from the pull request itself (state.go):
// the latest pause or resume by a trusted author wins, and ocr's own
// replies to "ignore" carry the ignored fingerprints in hidden markers.
//
// The platform is behind the small Forge interface (forge.go); the GitHub
// one is conversation/githubchat.
package conversation
