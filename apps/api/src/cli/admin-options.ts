// The admin CLI's command line: which command, which options, and every problem with them at once,
// each naming the option it is about (`--rnc: an RNC has 9 digits (or a cédula 11)`), never a raw
// zod issue array. Pure: no I/O, so every case is tested without a database.
import type { z } from 'zod';

export type TOptionSpec = {
  type: 'string' | 'boolean';
  /** Repeatable (`--phone a --phone b`); the values are kept in order. */
  multiple?: boolean;
  required?: boolean;
  /** The accepted values, checked here (an enum). */
  choices?: readonly string[];
};

export type TOptionValues = Record<string, string | boolean | string[] | undefined>;

export type TCommandSpec = {
  options: Readonly<Record<string, TOptionSpec>>;
  /** Checks of the values beyond their shape (a list of scopes), run even when other options have problems. */
  check?: (values: TOptionValues) => TProblem[];
};

/** Codes of a problem: ours for the command line's shape; zod's (`invalid_format`, `too_big`…) for values a schema checks. */
export type TProblem = {
  /** `--rnc`; absent when the problem is an argument that is no option. */
  option?: string;
  /** The argument itself, for an unexpected one or an unknown command. */
  argument?: string;
  code: string;
  message: string;
};

export type TParsedCommandLine = { command: string; values: TOptionValues };

/** Options every command accepts. */
const GLOBAL_OPTIONS: Readonly<Record<string, TOptionSpec>> = { json: { type: 'boolean' } };

/**
 * Something wrong with the command line or an option's value; `problems` holds every problem found.
 * `code` is INVALID_REQUEST, or NOT_FOUND when an option names something that does not exist.
 */
export class CommandLineError extends Error {
  constructor(
    readonly problems: TProblem[],
    readonly code: 'INVALID_REQUEST' | 'NOT_FOUND' = 'INVALID_REQUEST',
  ) {
    super(problems.map(formatProblem).join('; '));
    this.name = 'CommandLineError';
  }
}

/** `--rnc: an RNC has 9 digits (or a cédula 11)`; one line per problem. */
export function formatProblem(problem: TProblem): string {
  if (problem.option) return `${problem.option}: ${problem.message}`;
  return problem.message;
}

type TToken =
  { kind: 'option'; name: string; inlineValue: string | undefined } | { kind: 'positional'; value: string };

function tokenize(argv: readonly string[]): TToken[] {
  const tokens: TToken[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument === '--') {
      for (const rest of argv.slice(index + 1)) tokens.push({ kind: 'positional', value: rest });
      break;
    }
    if (argument.startsWith('-') && argument !== '-') {
      const body = argument.replace(/^--?/, '');
      const equals = body.indexOf('=');
      tokens.push({
        kind: 'option',
        name: equals === -1 ? body : body.slice(0, equals),
        inlineValue: equals === -1 ? undefined : body.slice(equals + 1),
      });
    } else tokens.push({ kind: 'positional', value: argument });
  }
  return tokens;
}

/** The longest run of leading positionals (up to three words) that names a command (`tenant create`, `partner key create`, `demo`). */
function commandOf(
  positionals: readonly string[],
  commands: Readonly<Record<string, TCommandSpec>>,
): string | undefined {
  for (let length = Math.min(positionals.length, 3); length >= 1; length -= 1) {
    const candidate = positionals.slice(0, length).join(' ');
    if (candidate in commands) return candidate;
  }
  return undefined;
}

/**
 * Parses `argv` against the command table, collecting every problem instead of stopping at the
 * first: an unknown command, an option the command does not take, a value missing or given to a
 * flag, an option given twice, a required option absent, a value outside its choices, and what the
 * command's own `check` finds. Throws CommandLineError with all of them.
 */
export function parseCommandLine(
  argv: readonly string[],
  commands: Readonly<Record<string, TCommandSpec>>,
): TParsedCommandLine {
  const tokens = tokenize(argv);
  const positionals = tokens.flatMap((token) => (token.kind === 'positional' ? [token.value] : []));
  const command = positionals.length === 0 ? 'help' : commandOf(positionals, commands);
  if (command === undefined) {
    const given = positionals.slice(0, 2).join(' ');
    throw new CommandLineError([
      {
        argument: given,
        code: 'unknown_command',
        message: `unknown command "${given}" (npm run admin -- help lists them)`,
      },
    ]);
  }
  const commandSpec = commands[command];
  const specs: Record<string, TOptionSpec> = { ...GLOBAL_OPTIONS, ...commandSpec?.options };
  const known = Object.keys(specs)
    .filter((name) => name !== 'json')
    .map((name) => `--${name}`);
  const problems: TProblem[] = [];
  const values: TParsedCommandLine['values'] = {};
  const consumed = new Set<number>();
  const commandWords = command.split(' ').length;
  let positionalIndex = 0;

  for (const [position, token] of tokens.entries()) {
    if (token.kind === 'positional') {
      if (consumed.has(position)) continue;
      positionalIndex += 1;
      if (positionalIndex > commandWords)
        problems.push({
          argument: token.value,
          code: 'unexpected_argument',
          message: `unexpected argument "${token.value}" (option values follow their option: --name value)`,
        });
      continue;
    }
    const option = `--${token.name}`;
    const spec = specs[token.name];
    if (spec === undefined) {
      problems.push({
        option,
        code: 'unknown_option',
        message: `not an option of "${command}"${known.length ? ` (its options: ${known.join(', ')})` : ' (it takes none)'}`,
      });
      // Its value, if one follows, belongs to it rather than being a stray argument.
      const next = tokens[position + 1];
      if (token.inlineValue === undefined && next?.kind === 'positional') consumed.add(position + 1);
      continue;
    }
    let value: string | boolean;
    if (spec.type === 'boolean') {
      if (token.inlineValue !== undefined) {
        problems.push({ option, code: 'unexpected_value', message: 'is a flag and takes no value' });
        continue;
      }
      value = true;
    } else if (token.inlineValue !== undefined) {
      value = token.inlineValue;
    } else {
      const next = tokens[position + 1];
      if (next?.kind !== 'positional') {
        problems.push({ option, code: 'missing_value', message: 'needs a value' });
        continue;
      }
      consumed.add(position + 1);
      value = next.value;
    }
    if (spec.multiple) {
      const previous = values[token.name];
      values[token.name] = [...(Array.isArray(previous) ? previous : []), String(value)];
    } else if (values[token.name] !== undefined) {
      problems.push({ option, code: 'repeated', message: 'is given more than once' });
    } else values[token.name] = value;
  }

  for (const [name, spec] of Object.entries(specs)) {
    const option = `--${name}`;
    const value = values[name];
    const hasProblem = problems.some((problem) => problem.option === option);
    if (spec.required && (value === undefined || value === '') && !hasProblem)
      problems.push({ option, code: 'required', message: 'is required' });
    if (spec.choices && typeof value === 'string' && !spec.choices.includes(value))
      problems.push({
        option,
        code: 'invalid_value',
        message: `must be one of ${spec.choices.join(', ')} (not "${value}")`,
      });
  }
  problems.push(...(commandSpec?.check?.(values) ?? []));
  if (problems.length > 0) throw new CommandLineError(problems);
  return { command, values };
}

/**
 * A use-case's schema issues as problems of the options they came from (never zod's raw issue
 * array): `fields` maps the first path segment (a field of the use-case's input) to its option; a
 * later numeric segment is the position of a repeatable option's value (`--phone: … (value 2)`).
 */
export function problemsOfIssues(
  issues: readonly z.core.$ZodIssue[],
  fields: Readonly<Record<string, string>>,
): TProblem[] {
  return issues.map((issue) => {
    const [field, position] = issue.path;
    const option = fields[String(field)] ?? `--${issue.path.map(String).join('.')}`;
    const which = typeof position === 'number' ? ` (value ${position + 1})` : '';
    return { option, code: issue.code, message: `${issue.message}${which}` };
  });
}
