// One definition per command gives both its parsing (node:util parseArgs, strict) and its `--help`
// text, which lists every option with its default, so the two never drift apart. Used by the
// commands that talk to a running service (eval, workflow, bundle run).
import { parseArgs } from 'node:util';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** Shown in --help; for strings also the value used when the option is absent. */
  readonly default?: string | boolean;
  /** False: the default is the service's, shown in --help but not sent when the option is absent. */
  readonly applyDefault?: boolean;
  /** Placeholder of the value in --help (`N`, `FILE`). */
  readonly value?: string;
  readonly description: string;
}

export interface CommandSpec {
  /** `eval run`, `workflow submit` … */
  readonly name: string;
  /** Positional arguments as shown in the usage line (`DATASET...`). */
  readonly positionals: string;
  readonly summary: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Lines printed after the options (exit codes, environment). */
  readonly notes?: readonly string[];
}

export type Parsed =
  | { readonly kind: 'run'; readonly values: Record<string, string | boolean | string[] | undefined>; readonly positionals: string[] }
  | { readonly kind: 'help' }
  | { readonly kind: 'usage'; readonly message: string };

const HELP: OptionSpec = { type: 'boolean', short: 'h', description: 'Show this help and exit.' };

export function parseCommand(spec: CommandSpec, args: string[]): Parsed {
  const options = { ...spec.options, help: HELP };
  try {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(
        Object.entries(options).map(([name, o]) => [
          name,
          { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}), ...(o.default !== undefined && o.type === 'string' && o.applyDefault !== false ? { default: o.default as string } : {}) },
        ]),
      ),
    });
    if (values.help === true) return { kind: 'help' };
    return { kind: 'run', values: values as Record<string, string | boolean | string[] | undefined>, positionals };
  } catch (error) {
    return { kind: 'usage', message: (error as Error).message };
  }
}

export function usageLine(spec: CommandSpec): string {
  return `usage: portcullis ${spec.name} ${spec.positionals} [options]`.replace(/\s+\[options\]$/, ' [options]');
}

export function helpText(spec: CommandSpec): string {
  const rows = Object.entries({ ...spec.options, help: HELP }).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}${o.multiple ? '...' : ''}`;
    const fallback = o.default === undefined ? '' : ` (default: ${String(o.default)})`;
    return [flag, `${o.description}${fallback}`] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return [
    usageLine(spec),
    '',
    spec.summary,
    '',
    'options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`),
    ...(spec.notes && spec.notes.length > 0 ? ['', ...spec.notes] : []),
  ].join('\n');
}
