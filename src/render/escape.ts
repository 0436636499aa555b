/**
 * One escaping function per output kind. Every string a renderer did not write itself (names, ids, tags,
 * messages and states from the server; names, paths and values from the user's files) goes through the
 * function of the output it lands in, so it cannot paint the terminal, forge lines, inject annotations,
 * links or mentions, or markup (docs/security.md).
 */

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/**
 * Control characters (C0 with ESC, CR and LF, DEL, C1), line and paragraph separators, the bidirectional
 * overrides that reorder what is shown, and the characters that show nothing at all (zero-width space, word
 * joiner and invisible operators, the byte-order mark, the soft hyphen, the Mongolian vowel separator, the
 * Hangul fillers, and the Unicode tag characters, which can carry a whole hidden text): anything that makes
 * a terminal or a log show something else than the characters written, or two different names the same.
 * The joiners U+200C and U+200D are left alone: scripts and emoji need them.
 *
 * Also the other format characters that show nothing (red team, round 11): the combining grapheme joiner,
 * the Khmer inherent vowels, the Mongolian free variation selectors, the deprecated format characters
 * U+206A-206F, the interlinear annotation marks, the shorthand and musical format controls, and the variation
 * selectors, which carry a byte each after any letter (256 of them: a hidden text as the tag characters do).
 * An emoji's presentation selector (U+FE0E, U+FE0F) is left alone after anything but another selector.
 */
const BEYOND_C0_CHARS = String.raw`\u007f-\u009f\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\u200e\u200f\u061c\u3164\ufe00-\ufe0d\ufeff\uffa0\ufff9-\ufffb\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}`;
/** A presentation selector right after another selector: only a hidden text repeats them (looked behind only at one). */
const REPEATED_SELECTOR = String.raw`[\ufe0e\ufe0f](?<=[\ufe00-\ufe0f\u{e0100}-\u{e01ef}][\ufe0e\ufe0f])`;
const BEYOND_C0 = `[${BEYOND_C0_CHARS}]|${REPEATED_SELECTOR}`;
const UNSAFE = new RegExp(String.raw`[\u0000-\u001f]|${BEYOND_C0}`, 'gu');

/**
 * The characters of UNSAFE that JSON.stringify and `yaml` write as they are (both escape C0 themselves): DEL,
 * C1 (U+009B is a CSI to some terminals), the separators, the bidirectional overrides and the invisible ones.
 * For jsonText here and yamlText (yaml-text.ts).
 */
export const UNSAFE_BEYOND_C0 = new RegExp(BEYOND_C0, 'u');
const UNSAFE_BEYOND_C0_ALL = new RegExp(UNSAFE_BEYOND_C0.source, 'gu');

/** Terminal text (and CI logs): unsafe characters shown as escapes (`\n`, `\e`, `\u2028`, `\u{e0041}`), on one line. */
export function escapeTerminal(s: string): string {
  return s.replace(UNSAFE, shownAs);
}

/** Longest id shown whole: import refuses longer ones as no id (SAFE_ID), and ids are 24 characters in practice. */
const MAX_SHOWN_ID = 256;

/**
 * An id the service sent, for a line: whole when it can be an id, else its start and its length. A server
 * answering a create with a 5 MB id had apply print it whole, on each line that names it.
 */
export function shownId(id: string): string {
  return id.length <= MAX_SHOWN_ID ? id : `${id.slice(0, 40)}… (an id of ${id.length.toLocaleString('en-US')} characters)`;
}

/** How one character UNSAFE matched is shown (`\e`, `\u202e`); not escapeTerminal(c), which would judge it out of its text. */
function shownAs(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/**
 * JSON output (`--format json`, plan and report files, indented; the journal's lines, `indent` 0) and the
 * state file: the same value, with every character of UNSAFE_BEYOND_C0 written as a `\u` escape (a pair of
 * them beyond the BMP). They can only be inside strings, so the text parses to exactly the same value, and
 * shows in a terminal or a log as what it is.
 */
export function jsonText(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_BEYOND_C0_ALL, (c) => {
    let out = '';
    for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}

/**
 * A file path that starts a line of terminal text (a problem's `file:line:col`): escaped as terminal text,
 * and led by `./` when it would start with `::` (after any spaces, which the runner skips), since a CI log
 * line starting so is run as a workflow command (`::error`, `::add-mask::`, `::stop-commands::`).
 */
export function escapePathAtLineStart(path: string): string {
  const one = escapeTerminal(path);
  return /^\s*::/.test(one) ? `./${one}` : one;
}

/**
 * The message of a GitHub workflow command (`::error file=…::message`): the runner's own encoding of `%`,
 * CR and LF (so a line break stays inside the annotation and cannot start another command), and the other
 * unsafe characters escaped as for a terminal (a log is one).
 */
export function escapeGithubMessage(s: string): string {
  return escapeTerminal(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** Joins parts steward wrote on separate lines into one annotation message (each part already escaped). */
export function githubLines(parts: readonly string[]): string {
  return parts.join('%0A');
}

/** A property of a GitHub workflow command (`file=`, `title=`): also `:` and `,`, which end a property. */
export function escapeGithubProperty(s: string): string {
  return escapeGithubMessage(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * HTML text or attribute value, on one line: unsafe characters shown as escapes, as in a terminal (a
 * right-to-left override would reorder a name on the page), line breaks and tabs too. The report shows values
 * `white-space: pre-wrap`, one `key: value` per line, so a server's state `Failed\nstate: Running` drew a
 * forged line under the real one (red team, round 17). steward's own multi-line text escapes each line and
 * joins them (escapeHtmlLines).
 */
export function escapeHtml(s: string): string {
  return s.replace(UNSAFE, shownAs).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** steward's own lines (a JSON Patch for a `<pre>`), each escaped as escapeHtml, joined by line breaks. */
export function escapeHtmlLines(lines: readonly string[]): string {
  return lines.map(escapeHtml).join('\n');
}

/**
 * What GitHub makes live in any text, Markdown or HTML: `@name` mentions, `#123` and `owner/repo#1`
 * references, and bare URLs. A zero-width space after `@` and `#` and inside `://` and `www.` keeps the
 * text as it reads while nothing links or notifies.
 */
function defuseLinks(s: string): string {
  return (
    s
      .replace(/@(?=[A-Za-z0-9_-])/g, '@\u200b')
      // Not the # of a character reference steward wrote (`&#95;`): user text has its & escaped as &amp; first.
      .replace(/(?<!&)#(?=[0-9A-Za-z])/g, '#\u200b')
      .replace(/:\/\//g, ':\u200b//')
      .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}\u200b.`)
  );
}

/**
 * Markdown text (a paragraph, a list item, a table cell): one line; HTML escaped (so no raw HTML and no
 * `>` quote); Markdown syntax (emphasis, strike-through, links and images, table pipes, code, and list or
 * heading markers at the start) escaped with backslashes; mentions, references and bare URLs defused.
 */
export function escapeMarkdown(s: string): string {
  // Up to three spaces before a marker still make it one ('   # x' is a heading), and four a code block: a
  // leading space is written as a character reference, so the line starts with text (red team, round 17).
  return escapeMarkdownPart(s).replace(/^ /, '&#32;');
}

/** escapeMarkdown but for leading spaces: for a part of a text after a code span, which starts no line. */
function escapeMarkdownPart(s: string): string {
  const html = escapeTerminal(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // Inline syntax anywhere; what only counts at the start of a line (lists, quotes, headings), there.
  return defuseLinks(
    html
      .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
      .replace(/^([-+#=])/, '\\$1')
      .replace(/^(\d+)([.)])/, '$1\\$2'),
  );
}

/**
 * Markdown text that may hold steward's own `code spans` (a way out that names a command): the spans are
 * kept verbatim (nothing is live inside one: no HTML, links or mentions), the text around them is escaped as
 * `escapeMarkdown`. The spans are only kept when finding them left to right is exactly how CommonMark finds
 * them: single backticks, an even number of them, none after a backslash. Anything else (a name holding
 * a backtick run, an escaped backtick, an odd count) could make a renderer pair them differently and
 * unescape what lies between, so the whole text is then escaped, backticks included.
 */
export function escapeMarkdownKeepingCode(s: string): string {
  const one = escapeTerminal(s);
  const ticks = one.match(/`+/g) ?? [];
  const exact = ticks.every((t) => t.length === 1) && ticks.length % 2 === 0 && !one.includes('\\`');
  if (!exact) return escapeMarkdown(one);
  let out = '';
  let last = 0;
  for (const m of one.matchAll(/`[^`]+`/g)) {
    out += (last === 0 ? escapeMarkdown : escapeMarkdownPart)(one.slice(last, m.index)) + m[0];
    last = m.index! + m[0].length;
  }
  return out + (last === 0 ? escapeMarkdown : escapeMarkdownPart)(one.slice(last));
}

/** Text inside a Markdown code span: one line, no backtick (it would end the span), no pipe (tables). */
export function escapeMarkdownCode(s: string): string {
  return escapeTerminal(s).replace(/`/g, "'").replace(/\|/g, '¦');
}

/**
 * Text inside raw HTML in Markdown (`<summary>`, `<b>`): Markdown is not parsed there, so HTML is escaped,
 * and mentions, references and URLs, which GitHub still links, are defused.
 */
export function escapeMarkdownHtml(s: string): string {
  // Markdown syntax as character references too: inert in HTML, and inert should a renderer parse Markdown
  // inside the tag after all.
  return defuseLinks(escapeHtml(escapeTerminal(s)).replace(/[[\]*_`|~\\]/g, (c) => `&#${c.charCodeAt(0)};`));
}

/** A line for inside a fenced code block: one line, and no run of three backticks (it would end the fence). */
export function escapeCodeBlockLine(s: string): string {
  return escapeTerminal(s).replace(/```/g, '`\u200c``');
}
