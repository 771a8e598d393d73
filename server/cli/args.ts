/** A command-line mistake: printed as one line with the usage, exit 2. */
export class UsageError extends Error {}

/** Parses `--name value` and `--flag` options and positional arguments. */
export function parseArgs(argv: string[], flags: readonly string[] = []): { options: Record<string, string>; positional: string[] } {
  const options: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2);
    if (flags.includes(name)) options[name] = inline ?? 'true';
    else if (inline !== undefined) options[name] = inline;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options[name] = argv[++i];
    else throw new UsageError(`--${name} needs a value`);
  }
  return { options, positional };
}
