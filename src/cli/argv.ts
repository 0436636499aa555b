/**
 * The command line before yargs sees it: Terraform-style single-dash long flags (`-auto-approve`,
 * `-out=plan.json`) become their double-dash form, and unknown commands and options are named with a
 * did-you-mean instead of yargs' "Unknown arguments: a, u, t, o" or its camelCase twins. Pure: takes the
 * argv and a table of what each command accepts, returns the argv to parse or a message.
 */

export interface OptionTable {
  /** Long option names (kebab-case) every command accepts. */
  global: OptionInfo;
  /** Per command (first word of its yargs command string): its own options. */
  commands: Record<string, OptionInfo>;
}

export interface OptionInfo {
  names: string[];
  /** Options that take a value (the next word, unless written --name=value). */
  takesValue: string[];
  booleans: string[];
  /** Options that take a value and may be given more than once (`--target`); any other value option may not. */
  repeatable?: string[];
  /** Options whose value is a number: written in decimal only (below, numberProblem). */
  numbers?: string[];
}

export type ArgvCheck = { ok: true; argv: string[] } | { ok: false; message: string };

/** Levenshtein distance, small strings only. */
export function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** The closest candidate within a typo's reach (or one the word is a prefix of), if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  const reach = Math.max(2, Math.floor(word.length / 3));
  if (best !== undefined && bestD <= reach) return best;
  if (word.length >= 3) return candidates.find((c) => c.startsWith(word));
  return undefined;
}

const merge = (a: OptionInfo, b: OptionInfo | undefined): OptionInfo =>
  b
    ? {
        names: [...a.names, ...b.names],
        takesValue: [...a.takesValue, ...b.takesValue],
        booleans: [...a.booleans, ...b.booleans],
        repeatable: [...(a.repeatable ?? []), ...(b.repeatable ?? [])],
        numbers: [...(a.numbers ?? []), ...(b.numbers ?? [])],
      }
    : a;

/**
 * Rewrites single-dash long flags and checks commands and option names. `-h` and `-v`-style one-letter
 * flags are left to yargs; so is everything after `--`.
 */
export function checkArgv(argv: readonly string[], table: OptionTable): ArgvCheck {
  const commandNames = Object.keys(table.commands);
  const out: string[] = [];
  let command: string | undefined;
  let known = table.global;
  let expectValue = false;
  /** The number option whose value is the next word. */
  let numberNext: string | undefined;
  let endOfOptions = false;
  // Options written with a value, in order, to refuse one given twice (below).
  const given: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    if (endOfOptions || expectValue) {
      expectValue = false;
      const bad = numberNext === undefined ? undefined : numberProblem(numberNext, a, command);
      numberNext = undefined;
      if (bad) return { ok: false, message: bad };
      out.push(a);
      continue;
    }
    if (a === '--') {
      endOfOptions = true;
      out.push(a);
      continue;
    }
    if (/^-[A-Za-z][A-Za-z0-9-]+(=.*)?$/.test(a)) {
      // Terraform writes long flags with one dash. Accept them when they name an option; explain otherwise.
      const name = a.slice(1).split('=')[0]!;
      const bare = name.startsWith('no-') ? name.slice(3) : name;
      if (known.names.includes(name) || known.names.includes(bare) || allNames(table).includes(bare)) a = `-${a}`;
      else return { ok: false, message: unknownOption(a, name, known, command) };
    }
    if (a.startsWith('--') && a.length > 2) {
      const [name, value] = splitOption(a.slice(2));
      const bare = name.startsWith('no-') && known.booleans.includes(name.slice(3)) ? name.slice(3) : name;
      given.push(name);
      if (!known.names.includes(bare)) {
        if (command === undefined && allNames(table).includes(bare)) {
          // An option of a command, written before the command: yargs takes it; nothing to check yet.
          out.push(a);
          continue;
        }
        return { ok: false, message: unknownOption(a.split('=')[0]!, name, known, command) };
      }
      if (value === undefined && known.takesValue.includes(bare)) {
        // `--settle -1s`: yargs would read the value as the flags -1 and -s; keep it the option's value, so
        // the option's own check names what is wrong with it.
        const next = argv[i + 1];
        if (next !== undefined && /^-\d/.test(next)) {
          const bad = known.numbers?.includes(bare) ? numberProblem(name, next, command) : undefined;
          if (bad) return { ok: false, message: bad };
          out.push(`--${name}=${next}`);
          i++;
          continue;
        }
        // `plan --out --detailed-exitcode` (a forgotten file name): yargs would give --out the empty string,
        // so no plan is saved and the run exits as if one had been. An empty value is refused too (below).
        if (next === undefined || next.startsWith('--')) {
          return { ok: false, message: `--${name} needs a value. ${seeHelp(command)}` };
        }
        if (next === '') return { ok: false, message: emptyValue(name, command) };
        expectValue = true;
        if (known.numbers?.includes(bare)) numberNext = name;
      }
      // `--out=` or `--out ""`: a CI variable that was not set. yargs hands the command an empty string, which
      // reads as "not given": `plan --out=` saved no plan and exited 0, `--config=` searched for steward.yaml.
      if (value === '' && known.takesValue.includes(bare)) return { ok: false, message: emptyValue(name, command) };
      const bad = value !== undefined && known.numbers?.includes(bare) ? numberProblem(name, value, command) : undefined;
      if (bad) return { ok: false, message: bad };
      out.push(a);
      continue;
    }
    if (command === undefined && !a.startsWith('-')) {
      // Terraform (and git) habits: `steward help plan`, `steward version`.
      if (a === 'help' && !commandNames.includes('help')) return checkArgv([...argv.slice(i + 1, i + 2), '--help'], table);
      if (a === 'version' && !commandNames.includes('version')) return { ok: true, argv: ['--version'] };
      if (!commandNames.includes(a)) {
        const guess = closest(a, commandNames);
        const hint = guess ? `did you mean ${guess}?` : `the commands are: ${commandNames.join(', ')}.`;
        return { ok: false, message: `unknown command "${a}"; ${hint} See steward --help` };
      }
      command = a;
      known = merge(table.global, table.commands[a]);
    }
    out.push(a);
  }
  const twice = repeatedOption(given, known);
  if (twice !== undefined) return { ok: false, message: `${twice}. ${seeHelp(command)}` };
  return { ok: true, argv: out };
}

/**
 * An option that takes one value, given more than once: yargs makes an array of it, which the commands
 * read as a string (`--config a --config b` was "internal error: The "paths[1]" argument must be of type
 * string") or silently take the last of (`--format json --format text`). A CI step that appends an option
 * to a command line it does not own must not have either happen: the repetition is refused in one line.
 */
function repeatedOption(given: readonly string[], known: OptionInfo): string | undefined {
  const seen = new Map<string, number>();
  for (const name of given) {
    if (!known.takesValue.includes(name) || known.repeatable?.includes(name)) continue;
    seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  for (const [name, n] of seen) if (n > 1) return `--${name} is given ${n} times; it takes one value, give it once`;
  return undefined;
}

/**
 * A number option's value that is not a plain decimal (`--concurrency 0x10`, `1e1`, ` 4`, `0b11`): yargs reads
 * it as JavaScript's Number() does, so `0x10` ran at 16 and ` 4` at 4, and a value a script mangled passed
 * unseen. Refused in one line; the option's own check still says what range it takes.
 */
function numberProblem(name: string, value: string, command: string | undefined): string | undefined {
  if (/^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) return undefined;
  return `--${name} takes a decimal number, not ${JSON.stringify(value)}. ${seeHelp(command)}`;
}

function emptyValue(name: string, command: string | undefined): string {
  return `--${name} is empty (an unset variable?); give it a value. ${seeHelp(command)}`;
}

/** Where a refused command line points its reader. */
function seeHelp(command: string | undefined): string {
  return `See ${command ? `steward ${command} --help` : 'steward --help'}`;
}

function splitOption(s: string): [string, string | undefined] {
  const eq = s.indexOf('=');
  return eq < 0 ? [s, undefined] : [s.slice(0, eq), s.slice(eq + 1)];
}

function allNames(table: OptionTable): string[] {
  return [...table.global.names, ...Object.values(table.commands).flatMap((c) => c.names)];
}

function unknownOption(written: string, name: string, known: OptionInfo, command: string | undefined): string {
  const candidates = [...known.names, ...known.booleans.map((b) => `no-${b}`)];
  const guess = closest(name.replace(/^-+/, ''), candidates);
  return `unknown option ${written}${guess ? `; did you mean --${guess}?` : '.'} ${seeHelp(command)}`;
}

/**
 * yargs' own refusals (a value outside `choices`, a missing positional, a surplus word) as one line that names
 * the option as it is written: its messages span lines ("Invalid values:\n  Argument: format, ..."), which
 * the error renderer shows escaped, and name options without their dashes. `usage` is the command's yargs
 * string (`show <plan>`), when a command was named.
 */
export function usageMessage(msg: string, usage: string | undefined): string {
  const lines = msg
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const parts: string[] = [];
  for (const line of lines) {
    const choice = /^Argument: (.+?), Given: (.*?), Choices: (.*)$/.exec(line);
    if (choice) {
      const choices = choice[3]!.split(', ').map((c) => c.replace(/^"(.*)"$/, '$1'));
      parts.push(`--${choice[1]!} must be one of ${choices.join(', ')}; got ${choice[2]!}`);
    } else if (/^Not enough non-option arguments/.test(line)) {
      parts.push(usage ? `missing argument: steward ${usage}` : line);
    } else if (/^Unknown arguments?: /.test(line)) {
      const words = line.replace(/^Unknown arguments?: /, '').split(', ');
      parts.push(`unexpected argument${words.length > 1 ? 's' : ''} ${words.map((w) => `"${w}"`).join(', ')}`);
    } else if (line !== 'Invalid values:') {
      parts.push(line);
    }
  }
  return `${parts.join('; ')}. ${seeHelp(usage?.split(' ')[0])}`;
}
