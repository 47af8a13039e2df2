// ESLint's configuration for axfuse's JavaScript (issue 51: the
// JavaScript is code too). `make js` (scripts/js-check.sh) runs it.
//
// Three kinds of file:
//   - page scripts (browser/**/*.js, act/**/*.js): sent to the browser as
//     they are, as plain scripts or as the text of one function, never as
//     modules. Sibling files of a feature are joined into one function at
//     run time, so a top-level function may be used only by a sibling:
//     no-unused-vars looks at local names only there, and a file names
//     what it takes from a sibling with /* global a, b */.
//   - Node's CommonJS: the JS unit tests (*.test.cjs, next to what they
//     test), their loader internal/testkit/jsload/load.cjs and the peer
//     scripts (scripts/peers/*.cjs).
//   - the measurement scripts (scripts/measure/**/*.js): CommonJS run by
//     Node, some of whose functions run in the page (page.evaluate).
import js from '@eslint/js';
import globals from 'globals';

// functionText lets a page script that is the bare text of one function,
// `function (x) {…}` or `async function (x) {…}` as Runtime.callFunctionOn
// takes it, be parsed as the expression it is: the text is linted inside
// parentheses, with no change to the file. A parenthesised function, an
// arrow function or a plain script is linted as it stands.
const bareFunction = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:async\s+)?function\s*\*?\s*\(/;
const functionText = {
  meta: { name: 'axfuse/function-text' },
  preprocess(text) {
    return [bareFunction.test(text) ? '(' + text + '\n)' : text];
  },
  postprocess(messages) {
    // The opening parenthesis shifted line 1 one column right; the other
    // lines are as in the file.
    return messages.flat().map((m) => {
      const out = { ...m };
      delete out.fix;
      if (out.line === 1 && out.column > 1) out.column--;
      if (out.endLine === 1 && out.endColumn > 1) out.endColumn--;
      return out;
    });
  },
  supportsAutofix: false,
};

// pageUnused: page scripts' top-level names may be used by a sibling file
// only (the files of a feature join into one function at run time).
const pageUnused = ['error', { vars: 'local', args: 'after-used', caughtErrors: 'none' }];

export default [
  {
    ignores: ['**/node_modules/**', '**/testdata/**'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  {
    files: ['browser/**/*.js', 'act/**/*.js'],
    processor: functionText,
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'script',
      globals: { ...globals.browser },
    },
    rules: {
      'no-unused-vars': pageUnused,
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'commonjs',
      globals: { ...globals.node },
    },
  },
  {
    files: ['scripts/measure/**/*.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'commonjs',
      globals: { ...globals.node },
    },
  },
];
