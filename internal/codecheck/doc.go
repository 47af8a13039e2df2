// Package codecheck holds the repository to the rules of issue 51 that no
// compiler checks, the way domsnap's architecture test holds it to its
// package boundaries. It has no code of its own: its tests read the
// repository's files (those git knows, tracked or new and not ignored;
// never node_modules or testdata) and fail when
//
//   - a non-test Go file is over 700 lines, or a JavaScript file over 400:
//     files go by feature, and a file that big holds several;
//   - a non-test Go file holds a string literal over 10 lines: JavaScript
//     and templates live in files of their own (go:embed), where they are
//     linted and read as what they are;
//   - non-test Go code decides on an error's text (err.Error() compared,
//     searched or matched) outside the one mapping file that turns the
//     browser's messages into typed errors, or on another stage's prose
//     (a capture step's name, a frame's error): stages talk in types;
//   - make test no longer runs the JavaScript's lint and unit tests
//     (make js).

package codecheck
